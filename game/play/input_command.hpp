#pragma once
/// InputCommand: everything a pilot can do in one tick. The game advances by exactly one
/// command per tick, so a player (the window turns keys, mouse and controller into commands), the
/// bot and a replay all drive it the same way. Plain data, 8 bytes, and the exact unit a replay
/// file stores: the aim is fixed-point so that a recorded mouse aim replays bit for bit.

#include <cstdint>

namespace quadpool::game::play {

/// A direction in fixed point: a component of kAimScale is 1.0.
struct FixedAim {
  static constexpr std::int16_t kAimScale = 32767;
  std::int16_t x = 0, y = 0;
  friend bool operator==(const FixedAim&, const FixedAim&) = default;
};

struct InputCommand {
  /// Button bits.
  static constexpr std::uint8_t kThrust = 1u << 0;
  static constexpr std::uint8_t kFire = 1u << 1;
  /// Starts a new game; only read while the game is over.
  static constexpr std::uint8_t kRestart = 1u << 2;
  /// Launches a homing missile (at most one per Tuning::missiles.period ticks while held).
  static constexpr std::uint8_t kMissile = 1u << 3;
  static constexpr std::uint8_t kAllButtons = kThrust | kFire | kRestart | kMissile;

  std::int8_t steer = 0;     ///< -1 turns left, +1 right (on a y-down screen), 0 keeps heading
  std::uint8_t buttons = 0;  ///< kThrust | kFire | kRestart | kMissile
  /// Where shots go, as a direction in fixed point (need not be unit length); (0, 0) fires
  /// along the ship's heading.
  FixedAim aim;

  bool thrust() const noexcept { return (buttons & kThrust) != 0; }
  bool fire() const noexcept { return (buttons & kFire) != 0; }
  bool restart() const noexcept { return (buttons & kRestart) != 0; }
  bool missile() const noexcept { return (buttons & kMissile) != 0; }
  bool aims() const noexcept { return aim.x != 0 || aim.y != 0; }

  friend bool operator==(const InputCommand&, const InputCommand&) = default;
};

/// The fixed-point aim of the direction (dx, dy), scaled so that its larger component is
/// kAimScale (the direction is kept, the length dropped); (0, 0) for a zero or non-finite
/// direction. What the window calls with the vector from the ship to the mouse.
FixedAim aim_toward(float dx, float dy) noexcept;

}  // namespace quadpool::game::play
