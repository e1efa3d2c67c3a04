#include "game/play/pilot_controls.hpp"

#include <algorithm>
#include <cmath>

namespace quadpool::game::play {

namespace {

constexpr int kAxisMax = 32767;

bool outside(Vec2 stick, int radius) noexcept {
  return length_sq(stick) > static_cast<float>(radius) * static_cast<float>(radius);
}

}  // namespace

void PilotControls::hold(std::uint8_t& held, PilotAction action, bool down) noexcept {
  // A steer press means the pilot flies by keys (or d-pad) now: the guns follow the heading.
  if (down && (action == PilotAction::Left || action == PilotAction::Right)) mouse_aims_ = false;
  held = down ? static_cast<std::uint8_t>(held | bit(action))
              : static_cast<std::uint8_t>(held & ~bit(action));
}

void PilotControls::set_key(PilotAction action, bool down) noexcept { hold(keys_, action, down); }

void PilotControls::set_pad_button(PilotAction action, bool down) noexcept {
  hold(pad_buttons_, action, down);
}

void PilotControls::set_pad_axis(PadAxis which, int value) noexcept {
  const auto index = static_cast<std::size_t>(which);
  if (index >= kPadAxes) return;
  const auto stick = [this](PadAxis x, PadAxis y) {
    return Vec2{static_cast<float>(axis(x)), static_cast<float>(axis(y))};
  };
  const bool left_was = outside(stick(PadAxis::LeftX, PadAxis::LeftY), kStickDeadZone);
  const bool right_was = outside(stick(PadAxis::RightX, PadAxis::RightY), kStickDeadZone);
  axes_[index] = std::clamp(value, -kAxisMax, kAxisMax);
  // A stick that starts steering or aiming takes the guns from a cursor left lying somewhere.
  if (!left_was && outside(stick(PadAxis::LeftX, PadAxis::LeftY), kStickDeadZone)) {
    mouse_aims_ = false;
  }
  if (!right_was && outside(stick(PadAxis::RightX, PadAxis::RightY), kStickDeadZone)) {
    mouse_aims_ = false;
  }
}

void PilotControls::release_pad() noexcept {
  pad_buttons_ = 0;
  axes_ = {};
}

void PilotControls::move_mouse(float x, float y) noexcept {
  mouse_ = {x, y};
  mouse_aims_ = true;
}

void PilotControls::set_mouse_button(bool down) noexcept {
  mouse_fires_ = down;
  if (down) mouse_aims_ = true;
}

void PilotControls::mouse_left() noexcept { mouse_aims_ = false; }

void PilotControls::release_all() noexcept {
  keys_ = 0;
  release_pad();
  mouse_aims_ = false;
  mouse_fires_ = false;
}

std::int8_t PilotControls::stick_steer(Vec2 heading) const noexcept {
  const Vec2 stick{static_cast<float>(axis(PadAxis::LeftX)),
                   static_cast<float>(axis(PadAxis::LeftY))};
  if (!outside(stick, kStickDeadZone)) return 0;
  const float length = std::sqrt(length_sq(stick));
  // Sine of the angle from the heading to the stick: positive turns clockwise on a y-down screen.
  const float sine = (heading.x * stick.y - heading.y * stick.x) / length;
  if (std::fabs(sine) < kStickAlignSine) return dot(heading, stick) > 0.0f ? 0 : 1;
  return sine > 0.0f ? 1 : -1;
}

InputCommand PilotControls::command(Vec2 ship, Vec2 heading) const noexcept {
  InputCommand command;
  const int keyed = (holds(PilotAction::Right) ? 1 : 0) - (holds(PilotAction::Left) ? 1 : 0);
  const bool steering_keys_held = holds(PilotAction::Left) || holds(PilotAction::Right);
  command.steer = steering_keys_held ? static_cast<std::int8_t>(keyed) : stick_steer(heading);

  const Vec2 left{static_cast<float>(axis(PadAxis::LeftX)),
                  static_cast<float>(axis(PadAxis::LeftY))};
  if (holds(PilotAction::Thrust) || outside(left, kStickThrust)) {
    command.buttons |= InputCommand::kThrust;
  }
  if (holds(PilotAction::Fire) || mouse_fires_ || axis(PadAxis::RightTrigger) > kTriggerFire) {
    command.buttons |= InputCommand::kFire;
  }
  if (holds(PilotAction::Restart)) command.buttons |= InputCommand::kRestart;
  if (holds(PilotAction::Missile)) command.buttons |= InputCommand::kMissile;

  const Vec2 right{static_cast<float>(axis(PadAxis::RightX)),
                   static_cast<float>(axis(PadAxis::RightY))};
  if (outside(right, kStickDeadZone)) {
    command.aim = aim_toward(right.x, right.y);
  } else if (mouse_aims_) {
    command.aim = aim_toward(mouse_.x - ship.x, mouse_.y - ship.y);
  }
  return command;
}

}  // namespace quadpool::game::play
