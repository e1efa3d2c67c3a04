#include "game/window/fixed_step.hpp"

#include <utility>

namespace quadpool::game::window {

int FixedStep::ticks_at(Clock::time_point now) noexcept {
  newly_behind_ = false;
  const std::optional<Clock::time_point> last = std::exchange(last_, now);
  if (last) running_ += now - *last;
  if (frame_ticks_) {
    ticks_ += static_cast<std::uint64_t>(*frame_ticks_);
    return *frame_ticks_;
  }
  if (!last) return 0;
  owed_ += now - *last;
  auto ticks = static_cast<int>(owed_ / kTick);
  owed_ -= ticks * kTick;
  if (ticks > kMaxTicksPerFrame) {
    ticks = kMaxTicksPerFrame;
    owed_ = Clock::duration::zero();  // dropped: the game runs behind the clock
    ++frames_behind_;
    newly_behind_ = !last_drop_ || now - *last_drop_ > std::chrono::seconds(5);
    last_drop_ = now;
  }
  ticks_ += static_cast<std::uint64_t>(ticks);
  return ticks;
}

}  // namespace quadpool::game::window
