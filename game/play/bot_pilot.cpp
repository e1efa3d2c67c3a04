#include "game/play/bot_pilot.hpp"

#include <cmath>
#include <optional>

namespace quadpool::game::play {

namespace {

// How far ahead a threat on course for the ship counts as coming, and the room it must pass by.
constexpr float kComingTicks = 60.0f;
constexpr float kRoom = 10.0f;

struct Target {
  Vec2 offset;    // threat - ship
  Vec2 drift;     // the threat's velocity relative to the ship
  float urgency;  // lower is more urgent
  Vec2 nearest;   // where it passes closest, relative to the ship
  bool coming;    // on course to hit within kComingTicks
};

// Turns toward `desired`: +1 when it lies on the positive-angle side of the heading.
std::int8_t steer_toward(Vec2 heading, Vec2 desired) noexcept {
  const float cross = heading.x * desired.y - heading.y * desired.x;
  if (cross > 0.02f) return 1;
  if (cross < -0.02f) return -1;
  return dot(heading, desired) < 0.0f ? std::int8_t{1} : std::int8_t{0};
}

Target assess(const Threat& threat, const Ship& ship, const Tuning& tuning) noexcept {
  const Vec2 offset = threat.motion.position - ship.position;
  const Vec2 drift = threat.motion.velocity - ship.velocity;
  // Closest approach: when, and how near.
  const float drift_sq = length_sq(drift);
  float when = drift_sq > 0.0f ? -dot(offset, drift) / drift_sq : 0.0f;
  if (when < 0.0f) when = 0.0f;
  const Vec2 nearest = offset + drift * when;
  const float room = threat.radius + tuning.ship_radius + kRoom;
  const bool coming = length_sq(nearest) < room * room && when < kComingTicks;
  // The threats coming soonest first, then the nearest.
  const float urgency = coming ? when - 1e6f : length_sq(offset);
  return {offset, drift, urgency, nearest, coming};
}

}  // namespace

InputCommand BotPilot::decide(const PlayWorld& world) {
  InputCommand command;
  if (world.status().game_over) {
    command.buttons = InputCommand::kRestart;
    return command;
  }
  const Ship& ship = world.ship();
  const Tuning& tuning = world.tuning();
  std::optional<Target> target;
  std::optional<Target> coming;
  for (const Threat* threat : world.entities().threats.live()) {
    const Target seen = assess(*threat, ship, tuning);
    if (!target || seen.urgency < target->urgency) target = seen;
    if (seen.coming && (!coming || seen.urgency < coming->urgency)) coming = seen;
  }

  // Always firing: with no threat about, along the heading, breaking dust for its points.
  command.buttons |= InputCommand::kFire;
  if (target) {
    // Lead the shot by the threat's drift over the shot's flight time (one refinement).
    const float flight = std::sqrt(length_sq(target->offset)) / tuning.shot_speed;
    command.aim = aim_toward(target->offset.x + target->drift.x * flight,
                             target->offset.y + target->drift.y * flight);
  }

  Vec2 desired;
  float cruise = 1.0f;
  if (coming) {
    // Away from where the threat will pass closest; straight sideways if that is the ship itself.
    desired = normalized_or(Vec2{} - coming->nearest,
                            perpendicular(normalized_or(coming->drift, ship.heading)));
    cruise = tuning.max_speed;
  } else if (const std::optional<Pickup>& pickup = world.pickup()) {
    desired = normalized_or(pickup->position - ship.position, ship.heading);
    cruise = 2.0f;
  } else {
    // Back toward the middle of the world, where threats have room to be shot before they come.
    if (--waypoint_ticks_ <= 0) {
      const float side = world.field().world_side();
      waypoint_ = {rng_.uniform(0.35f, 0.65f) * side, rng_.uniform(0.35f, 0.65f) * side};
      waypoint_ticks_ = kWaypointTicks;
    }
    desired = normalized_or(waypoint_ - ship.position, ship.heading);
  }
  command.steer = steer_toward(ship.heading, desired);
  if (dot(ship.heading, desired) > 0.8f && length_sq(ship.velocity) < cruise * cruise) {
    command.buttons |= InputCommand::kThrust;
  }
  return command;
}

}  // namespace quadpool::game::play
