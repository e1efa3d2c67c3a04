#include "game/play/bot_pilot.hpp"

#include <cmath>
#include <optional>

#include "common/scene/scene.hpp"

namespace quadpool::game::play {

namespace {

// How far ahead a rock on course for the ship counts as a threat, and the room it must pass by.
constexpr float kThreatTicks = 45.0f;
constexpr float kThreatRoom = 8.0f;
constexpr int kWaypointTicks = 240;

struct Target {
  Vec2 offset;    // rock - ship
  Vec2 drift;     // the rock's velocity relative to the ship
  float urgency;  // lower is more urgent
};

// Turns toward `desired`: +1 when it lies on the positive-angle side of the heading.
std::int8_t steer_toward(Vec2 heading, Vec2 desired) noexcept {
  const float cross = heading.x * desired.y - heading.y * desired.x;
  if (cross > 0.02f) return 1;
  if (cross < -0.02f) return -1;
  return dot(heading, desired) < 0.0f ? std::int8_t{1} : std::int8_t{0};
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
  std::optional<Target> threat;
  float threat_time = kThreatTicks;
  world.for_each_rock_near(ship.position, kSight, [&](std::uint32_t, const scene::Sprite& rock) {
    const Vec2 offset = Vec2{rock.x, rock.y} - ship.position;
    const Vec2 drift = Vec2{rock.vx, rock.vy} - ship.velocity;
    const float distance_sq = length_sq(offset);
    // Closest approach: when, and how near.
    const float drift_sq = length_sq(drift);
    float when = drift_sq > 0.0f ? -dot(offset, drift) / drift_sq : 0.0f;
    if (when < 0.0f) when = 0.0f;
    const Vec2 nearest = offset + drift * when;
    const float room = rock.radius + tuning.ship_radius + kThreatRoom;
    const bool on_course = length_sq(nearest) < room * room && when < kThreatTicks;
    const float urgency = on_course ? when - kThreatTicks : distance_sq;
    if (!target || urgency < target->urgency) target = Target{offset, drift, urgency};
    if (on_course && when < threat_time) {
      threat_time = when;
      threat = Target{nearest, drift, when};
    }
  });

  if (target) {
    // Lead the shot by the rock's drift over the shot's flight time (one refinement).
    const float flight = std::sqrt(length_sq(target->offset)) / tuning.shot_speed;
    command.aim = aim_toward(target->offset.x + target->drift.x * flight,
                             target->offset.y + target->drift.y * flight);
    command.buttons |= InputCommand::kFire;
  }

  Vec2 desired;
  if (threat) {
    // Away from where the rock will pass closest; straight sideways if that is the ship itself.
    desired = normalized_or(Vec2{} - threat->offset, perpendicular(normalized_or(threat->drift, ship.heading)));
  } else {
    if (--waypoint_ticks_ <= 0) {
      const float side = world.field().world_side();
      waypoint_ = {rng_.uniform(0.1f, 0.9f) * side, rng_.uniform(0.1f, 0.9f) * side};
      waypoint_ticks_ = kWaypointTicks;
    }
    desired = normalized_or(waypoint_ - ship.position, ship.heading);
  }
  command.steer = steer_toward(ship.heading, desired);
  const float cruise = threat ? tuning.max_speed : 1.0f;
  if (dot(ship.heading, desired) > 0.8f && length_sq(ship.velocity) < cruise * cruise) {
    command.buttons |= InputCommand::kThrust;
  }
  return command;
}

}  // namespace quadpool::game::play
