// PlayWorld's hunters and missiles: enemy ships that chase the ship, and the homing missiles
// that hold a hunter by its handle. The rest of the rules are in play_world.cpp.
#include <algorithm>
#include <array>
#include <cmath>

#include "game/play/play_world.hpp"
#include "game/play/steering.hpp"

namespace quadpool::game::play {

namespace {

// How far ahead a hunter leads the ship it chases, at most.
constexpr float kHunterLeadTicks = 45.0f;
// A missile's reach beyond its hunter's circle.
constexpr float kMissileReach = 2.0f;
// Hunters a stale missile considers when it locks onto another: the nearest few by the tree,
// of which it takes the first not already shot down this tick.
constexpr std::size_t kRetargetCandidates = 4;

}  // namespace

// The wave's hunters come from out of the ship's sight, at rest, a little behind its threats.
void PlayWorld::send_hunters() {
  const int count = hunters_in_wave(tuning_, status_.wave);
  for (int i = 0; i < count; ++i) {
    const Vec2 from = point_near_ship(tuning_.threats.spawn_distance);
    stores_.hunters.spawn(from, Vec2{}, tuning_.hunters.radius, tuning_.hunters.hits);
  }
}

// A hunter thrusts toward where the ship will be when it gets there (at its top speed, at most
// kHunterLeadTicks ahead), so it overshoots and comes round as a ship does; it rams the ship as
// a threat does.
void PlayWorld::advance_hunters() {
  const float side = field_->world_side();
  const float top = tuning_.hunters.max_speed;
  stores_.hunters.for_each([&](Hunter& hunter) {
    Motion& motion = hunter.motion;
    const Vec2 to_ship = ship_.position - motion.position;
    const float arrival = std::sqrt(length_sq(to_ship)) / top;
    const Vec2 lead = to_ship + ship_.velocity * std::min(arrival, kHunterLeadTicks);
    motion.velocity = motion.velocity + normalized_or(lead, {}) * tuning_.hunters.thrust;
    const float speed_sq = length_sq(motion.velocity);
    if (speed_sq > top * top) motion.velocity = motion.velocity * (top / std::sqrt(speed_sq));
    bounce(motion.position.x, motion.velocity.x, hunter.radius, side);
    bounce(motion.position.y, motion.velocity.y, hunter.radius, side);
    motion.position = motion.position + motion.velocity;
    if (!hunter.hit && hits_ship(motion.position, hunter.radius)) {
      hunter.hit = true;
      hunter.rammed = true;
    }
  });
}

// A missile leaves along the guns' aim, locked onto the hunter nearest the ship (none when no
// hunter is about: it locks on when one comes).
void PlayWorld::launch_missile(const InputCommand& command) {
  if (!command.missile() || ship_.missile_cooldown > 0) return;
  ship_.missile_cooldown = tuning_.missiles.period;
  const Vec2 direction = aim_direction(ship_, command);
  const Vec2 muzzle = ship_.position + direction * (tuning_.ship.radius + 1.0f);
  memory::Handle<Hunter> target;
  std::array<memory::Handle<Hunter>, 1> nearest{};
  if (hunter_tree_.nearest(ship_.position, nearest) == 1) target = nearest[0];
  stores_.missiles.spawn(muzzle, direction * tuning_.missiles.speed, tuning_.missiles.ticks,
                         target);
}

// The live hunter nearest `at` (by the tree, rebuilt after the hunters moved) that is not
// already shot down this tick, if any.
Hunter* PlayWorld::nearest_hunter(Vec2 at, memory::Handle<Hunter>& handle) {
  std::array<memory::Handle<Hunter>, kRetargetCandidates> nearest{};
  const std::size_t found = hunter_tree_.nearest(at, nearest);
  for (std::size_t i = 0; i < found; ++i) {
    Hunter* hunter = stores_.hunters.get(nearest[i]);
    if (hunter != nullptr && !hunter->hit) {
      handle = nearest[i];
      return hunter;
    }
  }
  handle = {};
  return nullptr;
}

// Each missile asks the store for its hunter by handle, every tick. A stale handle (the hunter
// died since) is counted and replaced by the nearest hunter's. A hunter shot down this tick is
// still live until the tick ends: the missile flies on toward it without hitting it, and finds
// the handle stale next tick. The missile turns toward its hunter and takes it down on contact,
// whatever hits it had left.
void PlayWorld::advance_missiles() {
  const float side = field_->world_side();
  stores_.missiles.retain([&](Missile& missile) {
    Motion& motion = missile.motion;
    Hunter* target = stores_.hunters.get(missile.target);
    if (target == nullptr) {
      if (!missile.target.is_null()) ++status_.stale_handles_seen;
      target = nearest_hunter(motion.position, missile.target);
    }
    if (target != nullptr) {
      turn_toward(motion.velocity, target->motion.position - motion.position,
                  tuning_.missiles.turn_cos, tuning_.missiles.turn_sin);
    }
    const Vec2 from = motion.position;
    const bool alive = motion.advance(1.0f);
    if (target != nullptr && !target->hit) {
      const Vec2 path = motion.position - from;
      if (passes_within(from, path, length_sq(path), target->motion.position,
                        target->radius + kMissileReach)) {
        target->hits_left = 0;
        target->hit = true;
        return false;
      }
    }
    const Vec2 at = motion.position;
    return alive && at.x >= 0.0f && at.y >= 0.0f && at.x <= side && at.y <= side;
  });
}

// A hunter shot down bursts and scores; one that rammed the ship bursts and scores nothing.
void PlayWorld::break_hunters() {
  stores_.hunters.retain([&](Hunter& hunter) {
    if (!hunter.hit) return true;
    ++last_.hunters_broken;
    const Motion& motion = hunter.motion;
    if (!hunter.rammed) {
      ++status_.kills;
      add_score(tuning_.score.hunter);
      pop(motion.position, tuning_.score.hunter);
    }
    burst(motion.position, motion.velocity, hunter.radius, kHunterHue, tuning_.threats.debris,
          tuning_.threats.sparks, tuning_.threats.blast_radius,
          hunter.rammed ? Cause::Crash : Cause::Blast);
    return false;
  });
}

}  // namespace quadpool::game::play
