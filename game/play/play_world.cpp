#include "game/play/play_world.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>

#include "game/play/play_hash.hpp"

// Sections: construction and the tick, the ship and its shots, breaking rocks, effects and
// waves.

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
  ship.shield = tuning.shield;
  ship.invulnerable_ticks = tuning.invulnerable_after_life;
  return ship;
}

}  // namespace

// --- construction and the tick -----------------------------------------------------------------

PlayWorld::PlayWorld(const PlayConfig& config)
    : config_(checked(config)),
      tuning_(tuning_for(config.storm)),
      field_(std::make_unique<game::sim::Simulation>(config.field)),
      // A stream of its own: the scene and the field's spawn tool draw from others.
      rng_(config.field.scene.seed ^ 0x6a09e667f3bcc908ull),
      stores_(tuning_.budgets, config.field.allocator) {
  ship_ = fresh_ship(centre_of(*field_), tuning_);
  status_.lives = config.lives;
  field_->remove_sprites_near(ship_.position.x, ship_.position.y, tuning_.safe_radius);
  // The first tick builds the tree over this many rocks, so its buffers never need to grow.
  rock_budget_ = field_->sprites().size();
  dead_.reserve(rock_budget_);
  kills_.reserve(rock_budget_);
  removals_.reserve(rock_budget_);
  births_.reserve(rock_budget_);
}

PlayWorld::~PlayWorld() = default;

void PlayWorld::set_allocator(memory::AllocatorKind kind) noexcept {
  field_->set_allocator(kind);
  stores_.set_allocator(kind);
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

  if (!status_.game_over) {
    fly(ship_, command, tuning_, field_->world_side());
    fire(command);
  }
  advance_shots();
  if (!status_.game_over) collide_ship();
  break_rocks();
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
  // queue_rock() kept the births within the budget.
  for (const Sprite& rock : births_) field_->add_sprite(rock);
  births_.clear();
}

void PlayWorld::restart() {
  stores_.clear();
  const std::uint64_t games = status_.games;
  const std::uint64_t kills = status_.kills;
  const std::uint64_t ticks_played = status_.ticks_played;
  status_ = GameStatus{};
  status_.lives = config_.lives;
  status_.games = games + 1;
  status_.kills = kills;
  status_.ticks_played = ticks_played;
  ship_ = fresh_ship(centre_of(*field_), tuning_);
  field_->remove_sprites_near(ship_.position.x, ship_.position.y, tuning_.safe_radius);
}

// --- the ship and its shots --------------------------------------------------------------------

void PlayWorld::fire(const InputCommand& command) {
  if (!command.fire() || ship_.cooldown > 0) return;
  ship_.cooldown = tuning_.fire_period;
  Vec2 direction = aim_direction(ship_, command);
  for (int i = 0; i < tuning_.volley; ++i) {
    const Vec2 muzzle = ship_.position + direction * (tuning_.ship_radius + 1.0f);
    stores_.shots.spawn(muzzle, direction * tuning_.shot_speed, tuning_.shot_ticks);
    direction = normalized_or(rotated(direction, tuning_.volley_cos, tuning_.volley_sin), direction);
  }
}

void PlayWorld::advance_shots() {
  const float side = field_->world_side();
  stores_.shots.retain([&](Shot& shot) {
    const Vec2 from = shot.motion.position;
    const bool alive = shot.motion.advance(1.0f);
    const Vec2 to = shot.motion.position;
    if (const std::optional<std::uint32_t> rock = first_rock_on_path(from, to, tuning_.shot_radius)) {
      kill(*rock, Cause::Shot, normalized_or(shot.motion.velocity, {1.0f, 0.0f}));
      return false;
    }
    return alive && to.x >= 0.0f && to.y >= 0.0f && to.x <= side && to.y <= side;
  });
}

std::optional<std::uint32_t> PlayWorld::first_rock_on_path(Vec2 from, Vec2 to,
                                                           float radius) const {
  const float reach = radius + kTreeMargin;
  const spatial::Aabb area{std::min(from.x, to.x) - reach, std::min(from.y, to.y) - reach,
                           std::max(from.x, to.x) + reach, std::max(from.y, to.y) + reach};
  const auto rocks = field_->sprites();
  const Vec2 path = to - from;
  const float path_sq = length_sq(path);
  std::optional<std::uint32_t> best;
  float best_t = 2.0f;
  field_->tree().query(area, [&](std::uint32_t id) {
    if (dead_[id] != 0) return;
    const Sprite& rock = rocks[id];
    const Vec2 centre{rock.x, rock.y};
    // The point of the path closest to the rock's centre, as a share t of the path.
    float t = path_sq > 0.0f ? dot(centre - from, path) / path_sq : 0.0f;
    t = std::clamp(t, 0.0f, 1.0f);
    const Vec2 closest = from + path * t;
    const float reach_sq = (rock.radius + radius) * (rock.radius + radius);
    if (length_sq(centre - closest) >= reach_sq) return;
    // The first rock along the path; the lower index on a tie, so the tree's order never counts.
    if (t < best_t || (t == best_t && id < *best)) {
      best_t = t;
      best = id;
    }
  });
  return best;
}

void PlayWorld::collide_ship() {
  if (tuning_.ship_immortal || ship_.invulnerable_ticks > 0) return;
  std::optional<std::uint32_t> hit;
  for_each_rock_near(ship_.position, tuning_.ship_radius, [&](std::uint32_t id, const Sprite&) {
    if (!hit || id < *hit) hit = id;
  });
  if (!hit) return;
  kill(*hit, Cause::Ship, {});
  ship_.shield -= tuning_.hit_damage;
  ship_.invulnerable_ticks = tuning_.invulnerable_after_hit;
  if (ship_.shield > 0) return;
  --status_.lives;
  ship_.shield = tuning_.shield;
  ship_.invulnerable_ticks = tuning_.invulnerable_after_life;
  if (status_.lives <= 0) {
    status_.lives = 0;
    status_.game_over = true;
  }
}

// --- breaking rocks ----------------------------------------------------------------------------

void PlayWorld::kill(std::uint32_t rock, Cause cause, Vec2 direction) {
  dead_[rock] = 1;
  kills_.push_back({rock, cause, direction});
}

// A game's score is final when it ends: shots still in flight and blasts still spreading break
// rocks after the ship's last life, but score nothing.
void PlayWorld::add_score(int points) noexcept {
  if (!status_.game_over) status_.score += static_cast<std::uint64_t>(points);
}

void PlayWorld::break_rocks() {
  const auto rocks = field_->sprites();
  // A blast appends kills while this runs; they are broken in the same pass (and blast nothing).
  for (std::size_t k = 0; k < kills_.size(); ++k) {
    const Kill kill = kills_[k];
    const Sprite rock = rocks[kill.rock];
    const bool big = rock.radius >= tuning_.split_radius;
    switch (kill.cause) {
      case Cause::Shot:
        add_score(big ? tuning_.score_split : tuning_.score_burst);
        if (big) {
          split(rock, kill.direction);
        } else {
          burst(rock, true);
        }
        break;
      case Cause::Blast:
        add_score(tuning_.score_blast);
        burst(rock, false);
        break;
      case Cause::Ship:
        burst(rock, false);
        break;
    }
    if (kill.cause != Cause::Ship) {
      ++status_.kills;
      ++status_.kills_this_wave;
    }
  }
  for (const Kill& kill : kills_) removals_.push_back(kill.rock);
  std::sort(removals_.begin(), removals_.end());
}

void PlayWorld::split(const Sprite& rock, Vec2 direction) {
  // Two children of the same kind, thrown sideways to the shot, one each way.
  const Vec2 side = perpendicular(direction);
  const float radius = rock.radius * tuning_.child_scale;
  for (const float sign : {1.0f, -1.0f}) {
    Sprite child = rock;
    child.radius = radius;
    child.x = rock.x + side.x * (sign * radius);
    child.y = rock.y + side.y * (sign * radius);
    child.vx = rock.vx + side.x * (sign * tuning_.split_kick);
    child.vy = rock.vy + side.y * (sign * tuning_.split_kick);
    queue_rock(child);
  }
  spray_sparks(rock, tuning_.split_sparks);
}

void PlayWorld::spray_sparks(const Sprite& rock, int count) {
  const Vec2 centre{rock.x, rock.y};
  const Vec2 drift{rock.vx, rock.vy};
  for (int i = 0; i < count; ++i) {
    const Vec2 out = random_unit();
    const auto ticks = static_cast<std::int32_t>(
        rng_.between(tuning_.spark_ticks_min, tuning_.spark_ticks_max));
    stores_.sparks.spawn(centre + out * rock.radius, drift + out * rng_.uniform(1.5f, 4.0f), ticks,
                         rock.kind);
  }
}

void PlayWorld::burst(const Sprite& rock, bool blasts) {
  const Vec2 centre{rock.x, rock.y};
  const Vec2 drift{rock.vx, rock.vy};
  for (int i = 0; i < tuning_.burst_debris; ++i) {
    const Vec2 out = random_unit();
    const auto ticks = static_cast<std::int32_t>(
        rng_.between(tuning_.debris_ticks_min, tuning_.debris_ticks_max));
    const float size = rock.radius * rng_.uniform(0.15f, 0.4f);
    stores_.debris.spawn(centre + out * (rock.radius * 0.5f), drift + out * rng_.uniform(0.3f, 1.2f),
                         ticks, size);
  }
  spray_sparks(rock, tuning_.burst_sparks);
  const float blast = blasts ? tuning_.blast_radius : 0.0f;
  stores_.explosions.spawn(centre, std::max(blast, rock.radius * 2.0f), tuning_.explosion_ticks);
  if (!blasts || blast <= 0.0f) return;
  // The blast bursts the small rocks it reaches; big ones shrug it off.
  for_each_rock_near(centre, blast, [&](std::uint32_t id, const Sprite& other) {
    if (other.radius < tuning_.split_radius) kill(id, Cause::Blast, {});
  });
}

void PlayWorld::queue_rock(const Sprite& rock) {
  // The rocks next tick: this tick's, less the dead, plus those already queued.
  const std::size_t next = field_->sprites().size() - kills_.size() + births_.size();
  if (next < rock_budget_) births_.push_back(rock);
}

Vec2 PlayWorld::random_unit() noexcept {
  // Rejection sampling from the square: uniform directions without a cos or a sin.
  for (;;) {
    const Vec2 v{rng_.uniform(-1.0f, 1.0f), rng_.uniform(-1.0f, 1.0f)};
    const float sq = length_sq(v);
    if (sq > 0.0625f && sq <= 1.0f) return normalized_or(v, {1.0f, 0.0f});
  }
}

// --- effects and waves -------------------------------------------------------------------------

void PlayWorld::advance_effects() {
  stores_.debris.retain([](Debris& debris) { return debris.motion.advance(0.98f); });
  stores_.sparks.retain([](Spark& spark) { return spark.motion.advance(0.92f); });
  stores_.explosions.retain([](Explosion& explosion) { return explosion.advance(); });
}

void PlayWorld::advance_wave() {
  const int quota = tuning_.wave_quota_base + status_.wave * tuning_.wave_quota_step;
  if (status_.game_over || status_.kills_this_wave < quota) return;
  ++status_.wave;
  status_.kills_this_wave = 0;
  // Each wave brings more rocks than the last, away from the ship, up to the rock budget.
  const game::sim::SimulationConfig& field = config_.field;
  const float side = field_->world_side();
  const int rocks = tuning_.wave_rocks_base + status_.wave * tuning_.wave_rocks_step;
  const float safe_sq = tuning_.safe_radius * tuning_.safe_radius;
  for (int i = 0; i < rocks; ++i) {
    Sprite rock{};
    rock.x = rng_.uniform(0.0f, side);
    rock.y = rng_.uniform(0.0f, side);
    const Vec2 heading = random_unit();
    const float speed = field.scene.speed * rng_.uniform(0.5f, 1.5f);
    rock.vx = heading.x * speed;
    rock.vy = heading.y * speed;
    rock.radius = rng_.uniform(field.scene.min_radius, field.scene.max_radius);
    rock.kind = static_cast<std::uint8_t>(rng_.below(scene::kSpriteKinds));
    if (length_sq(Vec2{rock.x, rock.y} - ship_.position) < safe_sq) continue;
    queue_rock(rock);
  }
}

std::uint64_t PlayWorld::state_hash() const noexcept {
  return play_state_hash(*this);
}

}  // namespace quadpool::game::play
