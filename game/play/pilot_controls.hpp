#pragma once
/// PilotControls: what a human pilot holds (keys, mouse, one game controller's sticks and
/// buttons) turned into one InputCommand per tick. No display library: the window translates
/// SDL events into the calls below (game/window/sdl/pilot_input.hpp), and the tests drive it directly.
///
/// How the inputs combine:
/// - Steer: the keys (left and right held together cancel) win over the left stick. The stick
///   turns the ship toward the stick's direction: the steer sign is the sign of the cross
///   product heading x stick (+1 turns clockwise on the y-down screen), none once the heading is
///   within kStickAlignSine of the stick, and +1 when the stick points straight behind.
/// - Thrust: the thrust key, the d-pad's up, or the left stick pushed past kStickThrust (half way).
/// - Fire: the fire key, the mouse's left button, the controller's fire button or its right
///   trigger past kTriggerFire.
/// - Aim: the right stick when pushed past the dead zone; else the cursor while mouse aim is on
///   (aim_toward(cursor - ship)); else (0, 0), i.e. along the heading. Mouse aim turns on when
///   the mouse moves or clicks, and off when a steer key is pressed, the left stick starts
///   steering or the right stick starts aiming (so a cursor left lying somewhere does not hold
///   the guns once the pilot flies by keys or stick), and when the window says the cursor left
///   the world (mouse_left()).
/// - Restart: the restart key or the controller's restart button, only while held.
/// Stick axes are SDL's signed 16-bit values; -32768 counts as -32767, so both sides reach the
/// same length. The dead zone is radial, kStickDeadZone of 32767.

#include <array>
#include <cstdint>

#include "game/play/input_command.hpp"
#include "game/play/vec2.hpp"

namespace quadpool::game::play {

/// The pilot's actions that a key or a controller button holds.
enum class PilotAction : std::uint8_t { Thrust, Left, Right, Fire, Restart, Missile };
inline constexpr std::size_t kPilotActions = 6;

/// A controller's analog inputs: the two sticks (y down, as SDL reports them) and the right
/// trigger (0 released .. 32767 fully pressed).
enum class PadAxis : std::uint8_t { LeftX, LeftY, RightX, RightY, RightTrigger };
inline constexpr std::size_t kPadAxes = 5;

class PilotControls {
 public:
  static constexpr int kStickDeadZone = 8000;
  static constexpr int kStickThrust = 16384;
  static constexpr int kTriggerFire = 8000;
  /// About 2 degrees: half of one tick's turn (Tuning::ship.turn_sin is about 0.07), so the stick
  /// holds the ship still instead of turning it back and forth across the stick's direction.
  static constexpr float kStickAlignSine = 0.035f;

  /// A key of `action` went down (true) or up (false). A steer key (or steer button, below)
  /// going down turns mouse aim off.
  void set_key(PilotAction action, bool down) noexcept;
  /// A controller button of `action` (its d-pad, A, Start) went down or up.
  void set_pad_button(PilotAction action, bool down) noexcept;
  /// A controller axis moved to `value` (any int; clamped to -32767..32767).
  void set_pad_axis(PadAxis axis, int value) noexcept;
  /// Forgets the controller's state (it was unplugged, or another one takes over).
  void release_pad() noexcept;

  /// The cursor moved to (x, y), window pixels: mouse aim on.
  void move_mouse(float x, float y) noexcept;
  /// The left button went down (mouse aim on, fire) or up.
  void set_mouse_button(bool down) noexcept;
  /// The cursor left the world (over the UI, out of the window): mouse aim off.
  void mouse_left() noexcept;
  bool mouse_aims() const noexcept { return mouse_aims_; }

  /// Releases every key, button and stick, and turns mouse aim off.
  void release_all() noexcept;

  /// The command for the next tick. `ship`: the ship in window pixels (for mouse aim);
  /// `heading`: its heading, unit length (for stick steering).
  InputCommand command(Vec2 ship, Vec2 heading) const noexcept;

 private:
  static constexpr std::uint8_t bit(PilotAction action) noexcept {
    return static_cast<std::uint8_t>(1u << static_cast<unsigned>(action));
  }
  bool holds(PilotAction action) const noexcept {
    return ((keys_ | pad_buttons_) & bit(action)) != 0;
  }
  int axis(PadAxis a) const noexcept { return axes_[static_cast<std::size_t>(a)]; }
  void hold(std::uint8_t& held, PilotAction action, bool down) noexcept;
  std::int8_t stick_steer(Vec2 heading) const noexcept;

  std::uint8_t keys_ = 0;         // bit(action) set while its key is held
  std::uint8_t pad_buttons_ = 0;  // bit(action) set while its controller button is held
  std::array<int, kPadAxes> axes_{};
  Vec2 mouse_;
  bool mouse_aims_ = false;
  bool mouse_fires_ = false;
};

}  // namespace quadpool::game::play
