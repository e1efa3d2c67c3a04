#pragma once
/// The ship and how it flies: steering turns the heading by a fixed rotation (constants, so no
/// C library trigonometry decides a bit), renormalised with sqrt; thrust pushes along the
/// heading; drag and a top speed keep it flyable; the walls bounce it back, as they do rocks.

#include <cstdint>

#include "game/play/input_command.hpp"
#include "game/play/play_config.hpp"
#include "game/play/vec2.hpp"

namespace quadpool::game::play {

struct Ship {
  Vec2 position;
  Vec2 velocity;
  Vec2 heading{1.0f, 0.0f};      ///< unit length
  int shield = 0;                ///< 0..Tuning::ship.shield
  int invulnerable_ticks = 0;    ///< rocks pass through while > 0
  int cooldown = 0;              ///< ticks until the guns may fire again
  int missile_cooldown = 0;      ///< ticks until the next missile may be launched
  std::uint32_t regen_clock = 0;  ///< counts up to Tuning::ship.shield_regen_period
};

/// One tick of flight under `command`: steer, thrust, drag, move, bounce off the walls of the
/// world [0, side]^2. Counts the cooldown and invulnerability down and the shield back up.
void fly(Ship& ship, const InputCommand& command, const Tuning::Ship& rules, float side) noexcept;

/// The direction the ship's guns point under `command`: its aim when it has one, else the
/// heading. Unit length.
Vec2 aim_direction(const Ship& ship, const InputCommand& command) noexcept;

}  // namespace quadpool::game::play
