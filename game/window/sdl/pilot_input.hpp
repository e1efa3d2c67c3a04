#pragma once
/// PilotInput: the player's keyboard, mouse and SDL game controller turned into one
/// play::InputCommand per tick. It translates SDL events; the mapping itself (dead zone, stick
/// steering, which aim wins) is play::PilotControls (game/play/pilot_controls.hpp), which
/// documents it in full.
///
/// - Keyboard (by key code, as the key map): W/Up thrust, A/Left and D/Right steer, Space fires,
///   Enter or keypad Enter restarts (kRestart: the game reads it only when over). S/Down do
///   nothing: the ship has no brake (turn and thrust). Key repeats are ignored; a key press
///   while ImGui wants the keyboard is not taken, a release always is (no stuck keys).
/// - Mouse: moving or clicking in the world aims the guns at the cursor; the left button fires.
///   A steer key press turns mouse aim off until the mouse moves again, and so does the cursor
///   going over ImGui or out of the window. Presses while ImGui wants the mouse are not taken.
/// - Controller: the left stick turns the ship toward where it points and thrusts past half
///   way, the right stick aims, the right trigger or A fires, Start restarts, the d-pad steers
///   (left, right) and thrusts (up). Dead zone 8000 of 32767.
///   Controllers present at construction and those plugged in later (SDL_CONTROLLERDEVICEADDED)
///   are opened; an unplugged one (SDL_CONTROLLERDEVICEREMOVED) is closed by its instance id.
///   The first open one flies; the others' events are ignored, as are events of unknown ids.
///   Losing the flying controller drops its state: the keyboard and mouse go on alone.

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "game/play/input_command.hpp"
#include "game/play/pilot_controls.hpp"
#include "game/play/vec2.hpp"

union SDL_Event;

namespace quadpool::game::window::sdl {

/// One key of the pilot: its SDL key code (SDL_Keycode), the action, and a label for the key map.
struct PilotKeyBinding {
  int keycode;
  play::PilotAction action;
  const char* label;
};

/// Every key PilotInput takes, in the key map's order (for its table and the README's).
std::span<const PilotKeyBinding> pilot_key_bindings() noexcept;

class PilotInput {
 public:
  /// Opens the game controllers already plugged in (SDL_INIT_GAMECONTROLLER must be initialised
  /// by the caller; if it is not, the controller part stays off).
  PilotInput();
  ~PilotInput();
  PilotInput(const PilotInput&) = delete;
  PilotInput& operator=(const PilotInput&) = delete;

  /// Feeds one SDL event: key down/up of the pilot's keys, mouse motion and left button,
  /// controller added/removed/button/axis. `ui_wants_mouse` / `ui_wants_keyboard`: ImGui's
  /// capture flags. Returns true when the event was the pilot's (the caller then ignores it).
  /// Never throws; any event, of any device id, is safe.
  bool handle(const SDL_Event& event, bool ui_wants_mouse, bool ui_wants_keyboard);

  /// The command for the next tick. (ship_x, ship_y): the ship in window pixels, for mouse aim;
  /// `heading`: the ship's heading (unit length), for the left stick's steering.
  play::InputCommand command(float ship_x, float ship_y, play::Vec2 heading) const noexcept;

  /// The open controller's name (the one that flies), empty when none.
  std::string controller_name() const;
  /// How many controllers are open.
  std::size_t controllers_open() const noexcept;

  /// Releases everything held (focus lost, the mode switched, the game paused).
  void release_all() noexcept;

 private:
  struct Controller;  // an open SDL_GameController and its instance id

  bool handle_key(const SDL_Event& event, bool ui_wants_keyboard);
  bool handle_mouse(const SDL_Event& event, bool ui_wants_mouse);
  bool handle_controller(const SDL_Event& event);
  void open_controller(int device_index);
  void close_controller(int instance_id);
  /// Reads the flying controller's sticks and buttons now (it just took over).
  void sync_flying_controller() noexcept;

  play::PilotControls controls_;
  std::vector<Controller> controllers_;  // in the order opened; front() flies
  bool controllers_enabled_ = false;
};

}  // namespace quadpool::game::window::sdl
