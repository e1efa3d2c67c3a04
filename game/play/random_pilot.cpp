#include "game/play/random_pilot.hpp"

namespace quadpool::game::play {

namespace {

InputCommand restart_command() noexcept {
  InputCommand restart;
  restart.buttons = InputCommand::kRestart;
  return restart;
}

}  // namespace

InputCommand RandomPilot::decide(const PlayWorld& world) noexcept {
  if (world.status().game_over) return restart_command();
  if (ticks_left_ <= 0) {
    // Each key as likely held as not, a turn either way or none: what a hand on the keyboard
    // does without looking.
    held_ = InputCommand{};
    if (rng_.below(2) != 0) held_.buttons |= InputCommand::kThrust;
    if (rng_.below(2) != 0) held_.buttons |= InputCommand::kFire;
    held_.steer = static_cast<std::int8_t>(static_cast<int>(rng_.below(3)) - 1);
    ticks_left_ = 3 + static_cast<int>(rng_.below(18));
  }
  --ticks_left_;
  return held_;
}

InputCommand idle_command(const PlayWorld& world) noexcept {
  return world.status().game_over ? restart_command() : InputCommand{};
}

}  // namespace quadpool::game::play
