#include "game/play/play_world.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>

#include "game/play/play_hash.hpp"
#include "game/play/steering.hpp"

// Sections: construction and the tick, the ship and its shots, threats, breaking rocks, effects
// and waves.

namespace quadpool::game::play {

namespace {

using Clock = std::chrono::steady_clock;
using scene::Sprite;

const PlayConfig& checked(const PlayConfig& config) {
  if (config.lives < kMinLives || config.lives > kMaxLives) {
    throw std::invalid_argument("PlayConfig: lives is " + std::to_string(config.lives) +
                                "; it must be from " + std::to_string(kMinLives) + " to " +
                                std::to_string(kMaxLives));
  }
  return config;
}

Vec2 centre_of(const game::sim::Simulation& field) noexcept {
  return {field.world_side() * 0.5f, field.world_side() * 0.5f};
}

Ship fresh_ship(Vec2 at, const Tuning& tuning) noexcept {
  Ship ship;
  ship.position = at;
  ship.shield = tuning.ship.shield;
  ship.invulnerable_ticks = tuning.ship.invulnerable_after_life;
  return ship;
}

// How far ahead a threat leads the ship it turns toward, at most.
constexpr float kThreatLeadTicks = 90.0f;

}  // namespace

// --- construction and the tick -----------------------------------------------------------------

PlayWorld::PlayWorld(const PlayConfig& config)
    : config_(checked(config)),
      tuning_(config.tuning ? *config.tuning : tuning_for(config.storm)),
      field_(std::make_unique<game::sim::Simulation>(config.field)),
      // A stream of its own: the scene and the field's spawn tool draw from others.
      rng_(config.field.scene.seed ^ 0x6a09e667f3bcc908ull),
      stores_(tuning_.budgets, config.field.allocator),
      threat_tree_(field_->world_side(), tuning_.budgets.threats, config.field.allocator),
      hunter_tree_(field_->world_side(), tuning_.budgets.hunters, config.field.allocator) {
  ship_ = fresh_ship(centre_of(*field_), tuning_);
  status_.lives = config.lives;
  status_.breather_ticks = tuning_.waves.first_breather_ticks;
  // Broken dust comes back, so the field never holds more than this many sprites.
  const std::size_t rocks = field_->sprites().size();
  dead_.reserve(rocks);
  kills_.reserve(rocks);
  removals_.reserve(rocks);
  births_.reserve(rocks);
  owed_.reserve(2 * rocks);
  children_.reserve(tuning_.budgets.threats);
}

PlayWorld::~PlayWorld() = default;

void PlayWorld::set_allocator(memory::AllocatorKind kind) noexcept {
  field_->set_allocator(kind);
  stores_.set_allocator(kind);
  threat_tree_.set_allocator(kind);
  hunter_tree_.set_allocator(kind);
}

const PlayTick& PlayWorld::step(const InputCommand& command) {
  const game::sim::HeapCounter heap_counter = config_.field.heap_counter;
  const std::uint64_t heap_before = heap_counter ? heap_counter() : 0;
  const Clock::time_point start = Clock::now();
  stores_.begin_tick();

  apply_rock_changes();
  if (status_.game_over && command.restart()) restart();
  last_.field = field_->step();
  dead_.assign(field_->sprites().size(), 0);
  kills_.clear();
  last_.wave_cleared = 0;
  last_.threats_broken = 0;
  last_.hunters_broken = 0;
  last_.pop_count = 0;

  if (!status_.game_over) {
    fly(ship_, command, tuning_.ship, field_->world_side());
    pick_up_storm();
    fire(command);
    launch_missile(command);
  }
  threat_tree_.rebuild(stores_.threats);
  hunter_tree_.rebuild(stores_.hunters);
  advance_shots();
  advance_threats();
  advance_hunters();
  hunter_tree_.rebuild(stores_.hunters);  // where the hunters are now, for the missiles
  advance_missiles();
  break_threats();
  break_hunters();
  break_dust();
  advance_effects();
  advance_wave();
  if (!status_.game_over) ++status_.ticks_played;

  last_.tick = ticks_++;
  last_.kills = kills_.size();
  last_.created = last_.destroyed = 0;
  for (const EntityReport& report : stores_.reports()) {
    last_.created += report.counts.created_tick;
    last_.destroyed += report.counts.destroyed_tick;
  }
  last_.live = stores_.live();
  last_.ms_total = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  if (heap_counter) {
    last_.heap_allocations = heap_counter() - heap_before;
  } else {
    last_.heap_allocations.reset();
  }
  return last_;
}

void PlayWorld::apply_rock_changes() {
  field_->remove_sprites(removals_);
  removals_.clear();
  // respawn_dust() queued one sprite per one removed.
  for (const Sprite& rock : births_) field_->add_sprite(rock);
  births_.clear();
}

void PlayWorld::restart() {
  stores_.clear();
  pickup_.reset();
  const std::uint64_t games = status_.games;
  const std::uint64_t kills = status_.kills;
  const std::uint64_t ticks_played = status_.ticks_played;
  const std::uint64_t stale_handles_seen = status_.stale_handles_seen;
  status_ = GameStatus{};
  status_.stale_handles_seen = stale_handles_seen;
  status_.lives = config_.lives;
  status_.games = games + 1;
  status_.kills = kills;
  status_.ticks_played = ticks_played;
  status_.breather_ticks = tuning_.waves.breather_ticks;
  ship_ = fresh_ship(centre_of(*field_), tuning_);
}

// --- the ship and its shots --------------------------------------------------------------------

void PlayWorld::pick_up_storm() {
  if (!pickup_) return;
  const float reach = tuning_.ship.radius + tuning_.storm.pickup_radius;
  if (length_sq(pickup_->position - ship_.position) >= reach * reach) return;
  pickup_.reset();
  status_.storm_ticks = tuning_.storm.ticks;
}

void PlayWorld::fire(const InputCommand& command) {
  if (!command.fire() || ship_.cooldown > 0) return;
  const bool storm = status_.storm_ticks > 0;
  ship_.cooldown = storm ? tuning_.storm.fire_period : tuning_.shots.fire_period;
  const int volley = storm ? tuning_.storm.volley : tuning_.shots.volley;
  // A ring's shots are kRingShots / volley steps of the ring's turn apart.
  const int steps = volley > 1 ? kRingShots / volley : 1;
  Vec2 direction = aim_direction(ship_, command);
  for (int i = 0; i < volley; ++i) {
    const Vec2 muzzle = ship_.position + direction * (tuning_.ship.radius + 1.0f);
    stores_.shots.spawn(muzzle, direction * tuning_.shots.speed, tuning_.shots.ticks);
    for (int step = 0; step < steps; ++step) {
      direction = normalized_or(
          rotated(direction, tuning_.shots.volley_cos, tuning_.shots.volley_sin), direction);
    }
  }
}

void PlayWorld::advance_shots() {
  const float side = field_->world_side();
  stores_.shots.retain([&](Shot& shot) {
    const Vec2 from = shot.motion.position;
    const bool alive = shot.motion.advance(1.0f);
    const Vec2 to = shot.motion.position;
    if (!shoot_along(from, to, normalized_or(shot.motion.velocity, {1.0f, 0.0f}))) return false;
    return alive && to.x >= 0.0f && to.y >= 0.0f && to.x <= side && to.y <= side;
  });
}

// One shot's move from `from` to `to`: the first threat or hunter on the path stops it; the dust
// before that point breaks (all of it when shots pierce dust, else the first, which stops the
// shot). Each is found by a ray cast swept by the shot's radius, and tested exactly by its
// circle; ties go to the lower index, so the tree's order never counts. True when the shot
// flies on.
bool PlayWorld::shoot_along(Vec2 from, Vec2 to, Vec2 direction) {
  const Vec2 path = to - from;
  const float path_sq = length_sq(path);
  float stop = 2.0f;  // the share of the path where the shot stops; > 1: it does not
  Threat* threat = first_on_path(threat_tree_, stores_.threats, from, path, path_sq, stop);
  Hunter* hunter = first_on_path(hunter_tree_, stores_.hunters, from, path, path_sq, stop);
  if (hunter != nullptr) threat = nullptr;  // the hunter is nearer along the path
  // The tree holds the dust's boxes from before the field's contacts nudged it: the sweep is
  // wider by the margin, the circle test exact. A rock's box, grown by the sweep, contains its
  // circle grown by the shot, so the cast reports every rock the shot passes within reach of
  // no later than the share at which it does: a closest-hit limit loses none.
  const auto rocks = field_->sprites();
  std::optional<std::uint32_t> first_dust;
  float first_t = 2.0f;
  const spatial::Ray ray{from.x, from.y, path.x, path.y, std::min(stop, 1.0f)};
  field_->tree().ray_cast(ray, tuning_.shots.radius + kTreeMargin, [&](std::uint32_t id, float) {
    if (dead_[id] != 0) return -1.0f;
    const Sprite& rock = rocks[id];
    const std::optional<float> t =
        passes_within(from, path, path_sq, {rock.x, rock.y}, rock.radius + tuning_.shots.radius);
    if (!t || *t > stop) return -1.0f;
    if (tuning_.shots.pierce_dust) {
      kill(id, Cause::Shot);
      return -1.0f;  // every rock on the path
    }
    if (*t < first_t || (*t == first_t && id < *first_dust)) {
      first_t = *t;
      first_dust = id;
    }
    return first_t;  // only rocks as near
  });
  if (first_dust) {
    kill(*first_dust, Cause::Shot);
    return false;
  }
  if (hunter != nullptr) {
    if (--hunter->hits_left <= 0) hunter->hit = true;
    spray_sparks(hunter->motion.position, hunter->motion.velocity, hunter->radius, kHunterHue,
                 tuning_.threats.split_sparks / 2);
    return false;
  }
  if (threat == nullptr) return true;
  threat->hit = true;
  threat->shot_direction = direction;
  return false;
}

// The live entity of `tree` (not yet hit) whose circle the shot's path (length_sq(path) is
// path_sq) passes within reach of first, if it passes one before `stop`, which then becomes that
// share; ties go to the lower slot index.
template <class T>
T* PlayWorld::first_on_path(const EntityTree<T>& tree, EntityStore<T>& store, Vec2 from, Vec2 path,
                            float path_sq, float& stop) {
  T* first = nullptr;
  std::uint32_t first_index = 0;
  tree.ray_cast(from, path, 1.0f, tuning_.shots.radius, [&](memory::Handle<T> h, float) {
    T* candidate = store.get(h);
    if (candidate == nullptr || candidate->hit) return -1.0f;
    const std::optional<float> t = passes_within(from, path, path_sq, candidate->motion.position,
                                                 candidate->radius + tuning_.shots.radius);
    if (!t || *t > stop || (*t == stop && first != nullptr && h.index() > first_index)) {
      return -1.0f;
    }
    stop = *t;
    first = candidate;
    first_index = h.index();
    return stop;
  });
  return first;
}

// --- threats -----------------------------------------------------------------------------------

void PlayWorld::advance_threats() {
  const float side = field_->world_side();
  const float charge_sq = tuning_.threats.charge * tuning_.threats.charge;
  stores_.threats.for_each([&](Threat& threat) {
    Motion& motion = threat.motion;
    // Far from the ship a threat turns a little each tick toward where the ship will be when it
    // arrives (if the ship keeps its course); near, it charges straight, faster. One that
    // missed comes round again.
    const Vec2 to_ship = ship_.position - motion.position;
    const bool charging = length_sq(to_ship) <= charge_sq;
    if (!charging) {
      const float arrival =
          std::sqrt(length_sq(to_ship) / std::max(length_sq(motion.velocity), 0.01f));
      const Vec2 lead = to_ship + ship_.velocity * std::min(arrival, kThreatLeadTicks);
      turn_toward(motion.velocity, lead, tuning_.threats.turn_cos, tuning_.threats.turn_sin);
    }
    bounce(motion.position.x, motion.velocity.x, threat.radius, side);
    bounce(motion.position.y, motion.velocity.y, threat.radius, side);
    motion.position =
        motion.position + motion.velocity * (charging ? tuning_.threats.charge_boost : 1.0f);
    // No shot_direction: a threat that hits the ship bursts and scores nothing.
    if (!threat.hit && hits_ship(motion.position, threat.radius)) threat.hit = true;
  });
}

// True when a mover of `radius` at `at` reaches the ship while it can be hurt: the ship loses
// shield, then a life.
bool PlayWorld::hits_ship(Vec2 at, float radius) {
  if (status_.game_over || tuning_.ship.immortal || ship_.invulnerable_ticks > 0) return false;
  const float reach = radius + tuning_.ship.radius;
  if (length_sq(at - ship_.position) >= reach * reach) return false;
  ++status_.wave_hits;
  ship_.shield -= tuning_.ship.hit_damage;
  ship_.invulnerable_ticks = tuning_.ship.invulnerable_after_hit;
  if (ship_.shield > 0) return true;
  --status_.lives;
  ship_.shield = tuning_.ship.shield;
  ship_.invulnerable_ticks = tuning_.ship.invulnerable_after_life;
  if (status_.lives <= 0) {
    status_.lives = 0;
    status_.game_over = true;
  }
  return true;
}

// --- breaking rocks ----------------------------------------------------------------------------

void PlayWorld::kill(std::uint32_t rock, Cause cause) {
  if (dead_[rock] != 0) return;
  dead_[rock] = 1;
  kills_.push_back({rock, cause});
}

// A game's score is final when it ends: shots still in flight and blasts still spreading break
// rocks after the ship's last life, but score nothing.
void PlayWorld::add_score(int points) noexcept {
  if (!status_.game_over) status_.score += static_cast<std::uint64_t>(points);
}

// A pop-up for points scored at `at`, while the game is on (and while the tick has room).
void PlayWorld::pop(Vec2 at, int points) noexcept {
  if (status_.game_over || points <= 0 || last_.pop_count >= last_.pops.size()) return;
  last_.pops[last_.pop_count++] = {at, points};
}

void PlayWorld::break_threats() {
  children_.clear();
  stores_.threats.retain([&](Threat& threat) {
    if (!threat.hit) return true;
    ++last_.threats_broken;
    const Motion& motion = threat.motion;
    const bool shot = length_sq(threat.shot_direction) > 0.0f;
    if (shot) ++status_.kills;
    if (shot && threat.radius >= tuning_.threats.split_radius) {
      add_score(tuning_.score.split);
      pop(motion.position, tuning_.score.split);
      // Two smaller threats, thrown sideways to the shot, one each way.
      const Vec2 side = perpendicular(threat.shot_direction);
      const float radius = threat.radius * tuning_.threats.child_scale;
      for (const float sign : {1.0f, -1.0f}) {
        children_.push_back({motion.position + side * (sign * radius),
                             motion.velocity + side * (sign * tuning_.threats.split_kick), radius,
                             threat.kind});
      }
      spray_sparks(motion.position, motion.velocity, threat.radius, threat.kind,
                   tuning_.threats.split_sparks);
      return false;
    }
    if (shot) {
      add_score(tuning_.score.burst);
      pop(motion.position, tuning_.score.burst);
    }
    burst(motion.position, motion.velocity, threat.radius, threat.kind, tuning_.threats.debris,
          tuning_.threats.sparks, tuning_.threats.blast_radius, shot ? Cause::Blast : Cause::Crash);
    return false;
  });
  for (const Spawn& child : children_) {
    stores_.threats.spawn(child.position, child.velocity, child.radius, child.kind);
  }
}

void PlayWorld::break_dust() {
  const auto rocks = field_->sprites();
  // A blast appends kills while this runs; they are broken in the same pass (and blast nothing).
  for (std::size_t k = 0; k < kills_.size(); ++k) {
    const Kill kill = kills_[k];
    const Sprite rock = rocks[kill.rock];
    // The crash of a threat into the ship breaks dust too, but scores and counts nothing.
    if (kill.cause != Cause::Crash) {
      add_score(tuning_.score.dust);
      ++status_.kills;
    }
    const float blast = kill.cause == Cause::Shot ? tuning_.dust.blast_radius : 0.0f;
    burst({rock.x, rock.y}, {rock.vx, rock.vy}, rock.radius, rock.kind, tuning_.dust.debris,
          tuning_.dust.sparks, blast, Cause::Blast);
    respawn_dust(rock);
  }
  respawn_owed_dust();
  for (const Kill& kill : kills_) removals_.push_back(kill.rock);
  std::sort(removals_.begin(), removals_.end());
}

void PlayWorld::spray_sparks(Vec2 centre, Vec2 drift, float radius, std::uint8_t hue, int count) {
  for (int i = 0; i < count; ++i) {
    const Vec2 out = random_unit();
    const auto ticks = static_cast<std::int32_t>(
        rng_.between(tuning_.effects.spark_ticks_min, tuning_.effects.spark_ticks_max));
    stores_.sparks.spawn(centre + out * radius, drift + out * rng_.uniform(1.5f, 4.0f), ticks, hue);
  }
}

void PlayWorld::burst(Vec2 centre, Vec2 drift, float radius, std::uint8_t hue, int debris,
                      int sparks, float blast, Cause blast_cause) {
  for (int i = 0; i < debris; ++i) {
    const Vec2 out = random_unit();
    const auto ticks = static_cast<std::int32_t>(
        rng_.between(tuning_.effects.debris_ticks_min, tuning_.effects.debris_ticks_max));
    const float size = radius * rng_.uniform(0.15f, 0.4f);
    stores_.debris.spawn(centre + out * (radius * 0.5f), drift + out * rng_.uniform(0.3f, 1.2f),
                         ticks, size);
  }
  spray_sparks(centre, drift, radius, hue, sparks);
  stores_.explosions.spawn(centre, std::max(blast, radius * 2.0f), tuning_.effects.explosion_ticks);
  if (blast <= 0.0f) return;
  for_each_rock_near(centre, blast,
                     [&](std::uint32_t id, const Sprite&) { kill(id, blast_cause); });
}

// Broken dust comes back as a fresh rock of its size and look, where it overlaps no dust and
// (when such a place turns up) out of the ship's sight, so the field keeps its size and the
// dust around the ship thins where it was shot. A rock that finds no free place in a few tries
// is owed, and tried again next tick.
void PlayWorld::respawn_dust(const Sprite& rock) {
  constexpr int kTries = 6;
  const float side = field_->world_side();
  const float far_sq = tuning_.dust.respawn_distance * tuning_.dust.respawn_distance;
  std::optional<Vec2> best;
  float best_sq = -1.0f;
  for (int attempt = 0; attempt < kTries && best_sq < far_sq; ++attempt) {
    const Vec2 at{rng_.uniform(rock.radius, side - rock.radius),
                  rng_.uniform(rock.radius, side - rock.radius)};
    const float away_sq = length_sq(at - ship_.position);
    if (away_sq <= best_sq || dust_near(at, rock.radius)) continue;
    best_sq = away_sq;
    best = at;
  }
  if (!best) {
    owed_.push_back(rock);
    return;
  }
  Sprite fresh = rock;
  fresh.x = best->x;
  fresh.y = best->y;
  const Vec2 heading = random_unit();
  const float speed = config_.field.scene.speed * rng_.uniform(0.5f, 1.5f);
  fresh.vx = heading.x * speed;
  fresh.vy = heading.y * speed;
  births_.push_back(fresh);
}

// True when a rock of `radius` at `at` would overlap live dust of this tick (the tree's) or
// dust already coming back next tick.
bool PlayWorld::dust_near(Vec2 at, float radius) const {
  bool near = false;
  for_each_rock_near(at, radius, [&](std::uint32_t, const Sprite&) { near = true; });
  if (near) return true;
  return std::any_of(births_.begin(), births_.end(), [&](const Sprite& born) {
    return game::sim::circles_overlap(at.x, at.y, radius, born.x, born.y, born.radius);
  });
}

void PlayWorld::respawn_owed_dust() {
  // Each owed rock is tried once more; those that fail again stay owed (in order).
  const std::size_t owed = owed_.size();
  for (std::size_t i = 0; i < owed; ++i) respawn_dust(owed_[i]);
  owed_.erase(owed_.begin(), owed_.begin() + static_cast<std::ptrdiff_t>(owed));
}

Vec2 PlayWorld::random_unit() noexcept {
  // Rejection sampling from the square: uniform directions without a cos or a sin.
  for (;;) {
    const Vec2 v{rng_.uniform(-1.0f, 1.0f), rng_.uniform(-1.0f, 1.0f)};
    const float sq = length_sq(v);
    if (sq > 0.0625f && sq <= 1.0f) return normalized_or(v, {1.0f, 0.0f});
  }
}

Vec2 PlayWorld::point_near_ship(float distance) noexcept {
  const float side = field_->world_side();
  const float margin = tuning_.threats.radius;
  const Vec2 point = ship_.position + random_unit() * distance;
  return {std::clamp(point.x, margin, std::max(margin, side - margin)),
          std::clamp(point.y, margin, std::max(margin, side - margin))};
}

// --- effects and waves -------------------------------------------------------------------------

void PlayWorld::advance_effects() {
  stores_.debris.retain([](Debris& debris) { return debris.motion.advance(0.98f); });
  stores_.sparks.retain([](Spark& spark) { return spark.motion.advance(0.92f); });
  stores_.explosions.retain([](Explosion& explosion) { return explosion.advance(); });
}

// A wave: a breather (its banner), then its threats and hunters; cleared when none is left, or
// followed by the next one on top of it when it lasts too long.
void PlayWorld::advance_wave() {
  if (status_.game_over) return;
  if (pickup_ && --pickup_->ticks_left <= 0) pickup_.reset();
  if (status_.storm_ticks > 0) --status_.storm_ticks;
  if (status_.breather_ticks > 0) {
    if (--status_.breather_ticks == 0) send_wave();
    return;
  }
  if (stores_.threats.size() > 0 || stores_.hunters.size() > 0) {
    // Too slow: the next wave comes on top of this one, without a bonus or a breather.
    if (++status_.wave_ticks >= tuning_.waves.time_limit) {
      ++status_.wave;
      send_wave();
    }
    return;
  }
  // The bonus is for a wave cleared without a hit.
  status_.wave_bonus = status_.wave_hits == 0 ? tuning_.score.wave * status_.wave : 0;
  add_score(status_.wave_bonus);
  pop(ship_.position, status_.wave_bonus);
  last_.wave_cleared = status_.wave;
  const int every = tuning_.storm.pickup_every;
  if (every > 0 && status_.wave % every == 0) {
    pickup_ = Pickup{point_near_ship(rng_.uniform(120.0f, 200.0f)), tuning_.storm.pickup_ticks};
  }
  ++status_.wave;
  status_.breather_ticks = tuning_.waves.breather_ticks;
}

// The wave's threats come from all around, out of the ship's sight, each aimed at a point near
// the ship.
void PlayWorld::send_wave() {
  status_.wave_ticks = 0;
  status_.wave_hits = 0;
  const int count = threats_in_wave(tuning_, status_.wave);
  const float speed = threat_speed(tuning_, status_.wave);
  for (int i = 0; i < count; ++i) {
    const Vec2 from = point_near_ship(tuning_.threats.spawn_distance);
    // One draw per statement: the order of two draws in one expression is the compiler's.
    const Vec2 off = random_unit();
    const Vec2 aim = ship_.position + off * rng_.uniform(0.0f, tuning_.threats.aim_spread);
    const Vec2 velocity = normalized_or(aim - from, random_unit()) * speed;
    const auto kind = static_cast<std::uint8_t>(rng_.below(scene::kSpriteKinds));
    stores_.threats.spawn(from, velocity, tuning_.threats.radius, kind);
  }
  send_hunters();
}

std::uint64_t PlayWorld::state_hash() const noexcept {
  return play_state_hash(*this);
}

}  // namespace quadpool::game::play
