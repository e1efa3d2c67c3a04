#pragma once
/// PlayConfig: how a game starts (the field, the storm flag, the lives) and Tuning, the rules'
/// numbers, which follow from the storm flag. A replay file stores the PlayConfig; the Tuning
/// is a pure function of it, so a replay needs nothing else.

#include <cstddef>
#include <cstdint>

#include "game/sim/simulation.hpp"

namespace quadpool::game::play {

/// The most live entities of each type (the pools' sizes: allocated up front, never grown).
struct Budgets {
  std::size_t shots, debris, sparks, explosions;
};

/// The rules' numbers. Distances in world units, speeds in world units per tick, times in ticks.
struct Tuning {
  // The ship.
  float ship_radius;
  float turn_cos, turn_sin;  // one tick of steering: the rotation's cosine and sine, as constants
  float thrust, drag, max_speed;
  int shield, hit_damage, shield_regen_period;  // shield points; one point back per period
  int invulnerable_after_hit, invulnerable_after_life;
  // Shots.
  float shot_speed, shot_radius;
  int shot_ticks, fire_period;
  int volley;  // shots per trigger pull: 1, or a ring of this many in storm
  float volley_cos, volley_sin;  // the turn from one shot of a ring to the next
  // Rocks.
  float split_radius;   // a rock at least this big splits in two, a smaller one bursts
  float child_scale;    // a split child's radius, as a share of its parent's
  float split_kick;     // the children's sideways speed
  float blast_radius;   // an explosion bursts the small rocks within this distance
  int burst_debris, burst_sparks, split_sparks;
  int debris_ticks_min, debris_ticks_max, spark_ticks_min, spark_ticks_max, explosion_ticks;
  // Score.
  int score_split, score_burst, score_blast;
  // Waves: a wave is cleared after wave_quota_base + wave * wave_quota_step kills; the next one
  // brings wave_rocks_base + wave * wave_rocks_step rocks, at least safe_radius from the ship.
  int wave_quota_base, wave_quota_step, wave_rocks_base, wave_rocks_step;
  float safe_radius;
  bool ship_immortal;  // storm: the ship cannot be hurt, so the load never stops
  Budgets budgets;
};

struct PlayConfig {
  /// The field: its sprites are the rocks. The rock budget (the most rocks a wave can hold) is
  /// the rocks left after the ship's safe disc is cleared at the start, so the tree and its
  /// buffers never grow past their first tick.
  game::sim::SimulationConfig field;
  bool storm = false;  ///< the stress setting: volleys, big bursts, wide blasts, large pools
  int lives = 3;       ///< 1..9
};

/// The fewest and most lives a game starts with.
inline constexpr int kMinLives = 1, kMaxLives = 9;

/// The rules' numbers for `storm` off (the game) or on (the stress setting).
Tuning tuning_for(bool storm) noexcept;

}  // namespace quadpool::game::play
