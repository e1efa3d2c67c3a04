#include "game/play/ship.hpp"

namespace quadpool::game::play {

namespace {

// Reflects the ship off a wall on one axis, losing half the speed across it.
void bounce(float& position, float& velocity, float radius, float side) noexcept {
  if (position < radius) {
    position = radius;
    if (velocity < 0.0f) velocity = -0.5f * velocity;
  } else if (position > side - radius) {
    position = side - radius;
    if (velocity > 0.0f) velocity = -0.5f * velocity;
  }
}

}  // namespace

void fly(Ship& ship, const InputCommand& command, const Tuning::Ship& rules, float side) noexcept {
  if (command.steer != 0) {
    // On a y-down screen a positive angle turns clockwise: +1 (right) turns by +angle.
    const float sine = command.steer < 0 ? -rules.turn_sin : rules.turn_sin;
    ship.heading = normalized_or(rotated(ship.heading, rules.turn_cos, sine), ship.heading);
  }
  if (command.thrust()) ship.velocity = ship.velocity + ship.heading * rules.thrust;
  ship.velocity = ship.velocity * rules.drag;
  const float speed_sq = length_sq(ship.velocity);
  if (speed_sq > rules.max_speed * rules.max_speed) {
    ship.velocity = normalized_or(ship.velocity, {}) * rules.max_speed;
  }
  ship.position = ship.position + ship.velocity;
  bounce(ship.position.x, ship.velocity.x, rules.radius, side);
  bounce(ship.position.y, ship.velocity.y, rules.radius, side);

  if (ship.cooldown > 0) --ship.cooldown;
  if (ship.missile_cooldown > 0) --ship.missile_cooldown;
  if (ship.invulnerable_ticks > 0) --ship.invulnerable_ticks;
  if (ship.shield < rules.shield &&
      ++ship.regen_clock >= static_cast<std::uint32_t>(rules.shield_regen_period)) {
    ship.regen_clock = 0;
    ++ship.shield;
  }
}

Vec2 aim_direction(const Ship& ship, const InputCommand& command) noexcept {
  if (!command.aims()) return ship.heading;
  return normalized_or({static_cast<float>(command.aim.x), static_cast<float>(command.aim.y)},
                       ship.heading);
}

}  // namespace quadpool::game::play
