#pragma once
/// Score pop-ups: "+100" where a threat was shot, "+600" at the ship for a wave cleared
/// untouched, rising and fading over a second. Display-free: the play screen adds what each
/// tick scored (PlayTick::pops), ticks them, and draws live() through its camera. A fixed ring
/// of slots, so a busy second never allocates: the oldest pop-up gives way to a new one.

#include <array>
#include <cstddef>

#include "game/play/play_world.hpp"

namespace quadpool::game::window {

class ScorePopups {
 public:
  /// How long a pop-up shows, ticks, and how far it rises meanwhile, world units.
  static constexpr int kLifeTicks = 60;
  static constexpr float kRise = 12.0f;
  static constexpr std::size_t kSlots = 32;

  struct Popup {
    play::Vec2 at;  ///< where it shows now, world units
    int points = 0;
    int age = 0;  ///< ticks shown so far
    /// 1 when new, down to 0 at the end of its life.
    float strength() const noexcept {
      return 1.0f - static_cast<float>(age) / static_cast<float>(kLifeTicks);
    }
  };

  /// Adds the pop-ups of the tick `tick` reports (after it ran), then ages every one by a tick.
  void after_tick(const play::PlayTick& tick) noexcept {
    for (std::size_t i = 0; i < tick.pop_count; ++i) {
      slots_[next_] = {tick.pops[i].at, tick.pops[i].points, 0};
      next_ = (next_ + 1) % kSlots;
    }
    for (Popup& popup : slots_) {
      if (popup.points == 0) continue;
      popup.at.y -= kRise / static_cast<float>(kLifeTicks);
      if (++popup.age >= kLifeTicks) popup = {};
    }
  }
  /// Forgets them all (a restart).
  void clear() noexcept { slots_ = {}; }

  /// Calls f(const Popup&) for each pop-up showing.
  template <class F>
  void for_each(F&& f) const {
    for (const Popup& popup : slots_) {
      if (popup.points != 0) f(popup);
    }
  }

 private:
  std::array<Popup, kSlots> slots_{};
  std::size_t next_ = 0;
};

}  // namespace quadpool::game::window
