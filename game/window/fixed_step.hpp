#pragma once
/// FixedStep: the game's clock in the window. The game advances 60 ticks per second of wall time
/// whatever the frame rate ("Fix Your Timestep!"): each frame adds its wall time to what is owed
/// and runs the whole ticks that holds, at most kMaxTicksPerFrame. When a frame owes more (the
/// machine cannot keep up, or the window was dragged) the rest is dropped: the game slows down
/// rather than spiralling into ever longer frames, and fell_behind() says so. A replay and the
/// headless runner stay tick-based: the clock decides only how many ticks a frame runs.
///
/// Scripted runs (smoke tests, $QUADPOOL_FRAME_TICKS) fix the ticks per frame instead, so that a
/// key at frame N meets the same tick on every machine.

#include <chrono>
#include <cstdint>
#include <optional>

namespace quadpool::game::window {

class FixedStep {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr int kTicksPerSecond = 60;
  static constexpr int kMaxTicksPerFrame = 4;
  /// $QUADPOOL_FRAME_TICKS's range.
  static constexpr int kMinFrameTicks = 1, kMaxFrameTicks = kMaxTicksPerFrame;

  /// Paced by the wall clock, or, with `frame_ticks`, exactly that many ticks every frame.
  explicit FixedStep(std::optional<int> frame_ticks = std::nullopt) noexcept
      : frame_ticks_(frame_ticks) {}

  /// The ticks the frame that ends at `now` runs. The first frame after construction or
  /// stop() runs none: there is no earlier frame to measure from.
  int ticks_at(Clock::time_point now) noexcept;
  /// The game does not run (paused, stepped, the lab shown, an A/B run): time passing now is
  /// not owed, so the next frame does not catch up on it.
  void stop() noexcept {
    last_.reset();
    owed_ = Clock::duration::zero();
  }

  /// The last ticks_at() dropped time it could not run, for the first time in a while (5 s):
  /// the caller says so once, not every frame.
  bool newly_behind() const noexcept { return newly_behind_; }
  /// Ticks run, the wall time the clock ran for (between frames, stops left out), and frames
  /// that dropped time, since construction.
  std::uint64_t ticks() const noexcept { return ticks_; }
  double seconds() const noexcept { return std::chrono::duration<double>(running_).count(); }
  std::uint64_t frames_behind() const noexcept { return frames_behind_; }

 private:
  static constexpr Clock::duration kTick =
      std::chrono::duration_cast<Clock::duration>(std::chrono::seconds(1)) / kTicksPerSecond;

  std::optional<int> frame_ticks_;
  std::optional<Clock::time_point> last_;  // the previous frame's end, while running
  Clock::duration owed_{};                 // wall time not yet ticked, under one tick
  std::optional<Clock::time_point> last_drop_;
  bool newly_behind_ = false;
  std::uint64_t ticks_ = 0;
  Clock::duration running_{};
  std::uint64_t frames_behind_ = 0;
};

}  // namespace quadpool::game::window
