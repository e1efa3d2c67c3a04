#pragma once
/// Screen shake and the hit flash: the game's feedback, kept as "trauma" that events add and
/// ticks take away (shake as trauma squared, so small knocks barely move the view and a lost life
/// throws it). Display-free and deterministic: the offset is a pure function of the trauma and
/// the tick, so a replay shakes the same way. The window draws the world through a camera panned
/// by offset() and lays flash() as a red veil over it; the pilot aims through the camera
/// unshaken.

#include <cstdint>

#include "game/window/camera.hpp"

namespace quadpool::game::window {

class Shake {
 public:
  /// The farthest the view moves, pixels at full trauma.
  static constexpr float kMaxPixels = 12.0f;
  /// Trauma and flash lost per tick: a full shake lasts half a second.
  static constexpr float kDecayPerTick = 1.0f / 30.0f;
  static constexpr float kFlashDecayPerTick = 1.0f / 12.0f;

  /// `enabled` false (--shake off): offset() is always zero; the flash still shows.
  explicit Shake(bool enabled = true) noexcept : enabled_(enabled) {}

  /// Adds `trauma` (0..1), saturating at 1.
  void knock(float trauma) noexcept;
  /// The ship was hit: the red veil at full strength.
  void flash() noexcept { flash_ = 1.0f; }
  /// One tick passed.
  void tick() noexcept;

  /// Where to pan the view this tick, pixels; within kMaxPixels on each axis.
  ScreenPoint offset() const noexcept;
  /// The red veil's strength, 0..1.
  float flash_strength() const noexcept { return flash_; }
  float trauma() const noexcept { return trauma_; }

 private:
  bool enabled_;
  float trauma_ = 0.0f;
  float flash_ = 0.0f;
  std::uint32_t tick_ = 0;
};

}  // namespace quadpool::game::window
