#include "game/play/bot_pilot.hpp"

#include <array>
#include <cmath>
#include <cstddef>
#include <optional>
#include <span>

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

// How many of the nearest threats and hunters (by the world's trees) the bot weighs.
constexpr std::size_t kNearestThreats = 8;
constexpr std::size_t kNearestHunters = 4;

template <class Enemy>
Target assess(const Enemy& enemy, const Ship& ship, const Tuning& tuning) noexcept {
  const Vec2 offset = enemy.motion.position - ship.position;
  const Vec2 drift = enemy.motion.velocity - ship.velocity;
  // Closest approach: when, and how near.
  const float drift_sq = length_sq(drift);
  float when = drift_sq > 0.0f ? -dot(offset, drift) / drift_sq : 0.0f;
  if (when < 0.0f) when = 0.0f;
  const Vec2 nearest = offset + drift * when;
  const float room = enemy.radius + tuning.ship.radius + kRoom;
  const bool coming = length_sq(nearest) < room * room && when < kComingTicks;
  // The enemies coming soonest first, then the nearest.
  const float urgency = coming ? when - 1e6f : length_sq(offset);
  return {offset, drift, urgency, nearest, coming};
}

// Weighs the enemies of `store` nearest the ship by `tree` (the world's, from its last tick):
// the most urgent becomes the target, the most urgent on course to hit becomes `coming`.
template <class Enemy>
void weigh_nearest(const EntityTree<Enemy>& tree, const EntityStore<Enemy>& store,
                   std::span<memory::Handle<Enemy>> scratch, const Ship& ship, const Tuning& tuning,
                   std::optional<Target>& target, std::optional<Target>& coming) {
  const std::size_t found = tree.nearest(ship.position, scratch);
  for (std::size_t i = 0; i < found; ++i) {
    const Enemy* enemy = store.get(scratch[i]);
    if (enemy == nullptr) continue;  // broken since the tree was built
    const Target seen = assess(*enemy, ship, tuning);
    if (!target || seen.urgency < target->urgency) target = seen;
    if (seen.coming && (!coming || seen.urgency < coming->urgency)) coming = seen;
  }
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
  std::array<memory::Handle<Threat>, kNearestThreats> threats{};
  weigh_nearest<Threat>(world.threat_tree(), world.entities().threats, std::span(threats), ship,
                        tuning, target, coming);
  std::array<memory::Handle<Hunter>, kNearestHunters> hunters{};
  weigh_nearest<Hunter>(world.hunter_tree(), world.entities().hunters, std::span(hunters), ship,
                        tuning, target, coming);

  // Always firing: with no threat about, along the heading, breaking dust for its points. With a
  // hunter about, a missile whenever one is ready.
  command.buttons |= InputCommand::kFire;
  if (world.entities().hunters.size() > 0) command.buttons |= InputCommand::kMissile;
  if (target) {
    // Lead the shot by the threat's drift over the shot's flight time (one refinement).
    const float flight = std::sqrt(length_sq(target->offset)) / tuning.shots.speed;
    command.aim = aim_toward(target->offset.x + target->drift.x * flight,
                             target->offset.y + target->drift.y * flight);
  }

  Vec2 desired;
  float cruise = 1.0f;
  if (coming) {
    // Away from where the threat will pass closest; straight sideways if that is the ship itself.
    desired = normalized_or(Vec2{} - coming->nearest,
                            perpendicular(normalized_or(coming->drift, ship.heading)));
    cruise = tuning.ship.max_speed;
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
