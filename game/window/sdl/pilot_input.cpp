#include "game/window/sdl/pilot_input.hpp"

#include <SDL.h>

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <utility>

#include "game/util/log.hpp"

namespace quadpool::game::window::sdl {

struct PilotInput::Controller {
  SDL_GameController* controller;
  SDL_JoystickID instance_id;
};

namespace {

using play::PadAxis;
using play::PilotAction;

constexpr std::array<PilotKeyBinding, 9> kPilotKeys{{
    {SDLK_w, PilotAction::Thrust, "W"},
    {SDLK_UP, PilotAction::Thrust, "Up"},
    {SDLK_a, PilotAction::Left, "A"},
    {SDLK_LEFT, PilotAction::Left, "Left"},
    {SDLK_d, PilotAction::Right, "D"},
    {SDLK_RIGHT, PilotAction::Right, "Right"},
    {SDLK_SPACE, PilotAction::Fire, "Space"},
    {SDLK_RETURN, PilotAction::Restart, "Enter"},
    {SDLK_KP_ENTER, PilotAction::Restart, "Keypad Enter"},
}};

std::optional<PilotAction> key_action(SDL_Keycode keycode) noexcept {
  for (const PilotKeyBinding& binding : kPilotKeys) {
    if (binding.keycode == keycode) return binding.action;
  }
  return std::nullopt;
}

constexpr std::array<std::pair<SDL_GameControllerButton, PilotAction>, 5> kPadButtons{{
    {SDL_CONTROLLER_BUTTON_A, PilotAction::Fire},
    {SDL_CONTROLLER_BUTTON_START, PilotAction::Restart},
    {SDL_CONTROLLER_BUTTON_DPAD_UP, PilotAction::Thrust},
    {SDL_CONTROLLER_BUTTON_DPAD_LEFT, PilotAction::Left},
    {SDL_CONTROLLER_BUTTON_DPAD_RIGHT, PilotAction::Right},
}};

constexpr std::array<std::pair<SDL_GameControllerAxis, PadAxis>, play::kPadAxes> kPadAxes{{
    {SDL_CONTROLLER_AXIS_LEFTX, PadAxis::LeftX},
    {SDL_CONTROLLER_AXIS_LEFTY, PadAxis::LeftY},
    {SDL_CONTROLLER_AXIS_RIGHTX, PadAxis::RightX},
    {SDL_CONTROLLER_AXIS_RIGHTY, PadAxis::RightY},
    {SDL_CONTROLLER_AXIS_TRIGGERRIGHT, PadAxis::RightTrigger},
}};

// The entry of `table` whose SDL value is `value`, if any.
template <typename Table>
auto lookup(const Table& table, int value) noexcept
    -> std::optional<typename Table::value_type::second_type> {
  for (const auto& [sdl, ours] : table) {
    if (static_cast<int>(sdl) == value) return ours;
  }
  return std::nullopt;
}

std::string name_of(SDL_GameController* controller) {
  const char* name = SDL_GameControllerName(controller);
  return name != nullptr && name[0] != '\0' ? name : "game controller";
}

}  // namespace

std::span<const PilotKeyBinding> pilot_key_bindings() noexcept { return kPilotKeys; }

PilotInput::PilotInput() {
  controllers_enabled_ = SDL_WasInit(SDL_INIT_GAMECONTROLLER) != 0;
  if (!controllers_enabled_) return;
  const int joysticks = SDL_NumJoysticks();
  for (int index = 0; index < joysticks; ++index) open_controller(index);
}

PilotInput::~PilotInput() {
  // SDL_Quit closes (and frees) every controller itself: close only those SDL still has.
  for (const Controller& open : controllers_) {
    if (SDL_WasInit(SDL_INIT_GAMECONTROLLER) != 0 &&
        SDL_GameControllerFromInstanceID(open.instance_id) == open.controller) {
      SDL_GameControllerClose(open.controller);
    }
  }
}

bool PilotInput::handle(const SDL_Event& event, bool ui_wants_mouse, bool ui_wants_keyboard) {
  switch (event.type) {
    case SDL_KEYDOWN:
    case SDL_KEYUP:
      return handle_key(event, ui_wants_keyboard);
    case SDL_MOUSEMOTION:
    case SDL_MOUSEBUTTONDOWN:
    case SDL_MOUSEBUTTONUP:
      return handle_mouse(event, ui_wants_mouse);
    case SDL_WINDOWEVENT:
      // Not the pilot's alone: the caller sees these too.
      if (event.window.event == SDL_WINDOWEVENT_LEAVE) controls_.mouse_left();
      if (event.window.event == SDL_WINDOWEVENT_FOCUS_LOST) release_all();
      return false;
    default:
      return handle_controller(event);
  }
}

bool PilotInput::handle_key(const SDL_Event& event, bool ui_wants_keyboard) {
  const std::optional<PilotAction> action = key_action(event.key.keysym.sym);
  if (!action) return false;
  if (event.type == SDL_KEYUP) {
    // Always taken, even while ImGui has the keyboard: a key pressed in play never sticks.
    controls_.set_key(*action, false);
    return true;
  }
  if (ui_wants_keyboard) return false;
  if (event.key.repeat == 0) controls_.set_key(*action, true);
  return true;
}

bool PilotInput::handle_mouse(const SDL_Event& event, bool ui_wants_mouse) {
  if (event.type == SDL_MOUSEMOTION) {
    if (ui_wants_mouse) {
      controls_.mouse_left();  // over the UI: the guns go back to the heading
      return false;
    }
    controls_.move_mouse(static_cast<float>(event.motion.x), static_cast<float>(event.motion.y));
    return true;
  }
  if (event.button.button != SDL_BUTTON_LEFT) return false;
  if (event.type == SDL_MOUSEBUTTONUP) {
    controls_.set_mouse_button(false);
    return !ui_wants_mouse;
  }
  if (ui_wants_mouse) return false;
  controls_.move_mouse(static_cast<float>(event.button.x), static_cast<float>(event.button.y));
  controls_.set_mouse_button(true);
  return true;
}

bool PilotInput::handle_controller(const SDL_Event& event) {
  if (!controllers_enabled_) return false;
  switch (event.type) {
    case SDL_CONTROLLERDEVICEADDED:
      open_controller(event.cdevice.which);  // a device index
      return true;
    case SDL_CONTROLLERDEVICEREMOVED:
      close_controller(event.cdevice.which);  // an instance id
      return true;
    case SDL_CONTROLLERAXISMOTION:
      if (controllers_.empty() || event.caxis.which != controllers_.front().instance_id) break;
      if (const auto axis = lookup(kPadAxes, event.caxis.axis)) {
        controls_.set_pad_axis(*axis, event.caxis.value);
      }
      return true;
    case SDL_CONTROLLERBUTTONDOWN:
    case SDL_CONTROLLERBUTTONUP:
      if (controllers_.empty() || event.cbutton.which != controllers_.front().instance_id) break;
      if (const auto action = lookup(kPadButtons, event.cbutton.button)) {
        controls_.set_pad_button(*action, event.type == SDL_CONTROLLERBUTTONDOWN);
      }
      return true;
    default:
      break;
  }
  return false;
}

play::InputCommand PilotInput::command(float ship_x, float ship_y,
                                       play::Vec2 heading) const noexcept {
  return controls_.command({ship_x, ship_y}, heading);
}

std::string PilotInput::controller_name() const {
  return controllers_.empty() ? std::string() : name_of(controllers_.front().controller);
}

std::size_t PilotInput::controllers_open() const noexcept { return controllers_.size(); }

void PilotInput::release_all() noexcept { controls_.release_all(); }

void PilotInput::open_controller(int device_index) {
  if (device_index < 0 || device_index >= SDL_NumJoysticks()) return;
  if (SDL_IsGameController(device_index) != SDL_TRUE) return;
  // SDL also announces the controllers present at start, which the constructor has opened.
  const SDL_JoystickID id = SDL_JoystickGetDeviceInstanceID(device_index);
  const auto same = [id](const Controller& open) { return open.instance_id == id; };
  if (id < 0 || std::any_of(controllers_.begin(), controllers_.end(), same)) return;
  SDL_GameController* controller = SDL_GameControllerOpen(device_index);
  if (controller == nullptr) {
    util::logger().warn("game controller {} not opened: {}", device_index, SDL_GetError());
    return;
  }
  controllers_.push_back({controller, id});
  util::logger().info("game controller: {}", name_of(controller));
  if (controllers_.size() == 1) sync_flying_controller();
}

void PilotInput::close_controller(int instance_id) {
  const auto it = std::find_if(controllers_.begin(), controllers_.end(),
                               [&](const Controller& open) { return open.instance_id == instance_id; });
  if (it == controllers_.end()) return;
  const bool was_flying = it == controllers_.begin();
  SDL_GameControllerClose(it->controller);
  controllers_.erase(it);
  if (was_flying) sync_flying_controller();  // the next one, or none: keyboard and mouse alone
}

void PilotInput::sync_flying_controller() noexcept {
  controls_.release_pad();
  if (controllers_.empty()) return;
  SDL_GameController* flying = controllers_.front().controller;
  for (const auto& [sdl, axis] : kPadAxes) {
    controls_.set_pad_axis(axis, SDL_GameControllerGetAxis(flying, sdl));
  }
  for (const auto& [sdl, action] : kPadButtons) {
    if (SDL_GameControllerGetButton(flying, sdl) != 0) controls_.set_pad_button(action, true);
  }
}

}  // namespace quadpool::game::window::sdl
