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
  std::size_t shots, debris, sparks, explosions, threats;
};

/// The finest ring of shots: the storm's. A ring of n shots turns by kRingShots / n steps of
/// Tuning::volley_cos and volley_sin from one shot to the next.
inline constexpr int kRingShots = 48;

/// The rules' numbers. Distances in world units, speeds in world units per tick, times in ticks.
///
/// Two kinds of rock: the field's thousands of sprites are dust, harmless scenery that shots
/// break (and, when shots_pierce_dust, fly on through); the threats are a few large rocks a wave
/// sends at the ship, drawn apart from the dust, which split when shot and cost shield when they
/// reach the ship.
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
  int volley;  // shots per trigger pull: 1, or a ring of this many (a divisor of kRingShots)
  float volley_cos, volley_sin;  // a turn of 1 / kRingShots of a circle
  bool shots_pierce_dust;        // a shot breaks the dust on its path and flies on
  // Dust: what a shot or a blast does to the field's sprites.
  int dust_debris, dust_sparks;
  float dust_blast_radius;  // a dust rock broken by a shot bursts the dust within this (0: none)
  float dust_respawn_distance;  // broken dust comes back at least this far from the ship
  // Threats.
  float threat_radius;  // a wave's threats start this big
  float split_radius;   // a threat at least this big splits in two, a smaller one bursts
  float child_scale;    // a split child's radius, as a share of its parent's
  float split_kick;     // the children's sideways speed
  float blast_radius;   // a burst threat's blast breaks the dust within this distance
  int threat_debris, threat_sparks, split_sparks;
  int debris_ticks_min, debris_ticks_max, spark_ticks_min, spark_ticks_max, explosion_ticks;
  float threat_spawn_distance;             // threats start this far from the ship, aimed near it
  float threat_aim_spread;                 // ... at a point up to this far from it
  float threat_turn_cos, threat_turn_sin;  // each tick a threat farther than threat_charge from
  float threat_charge;        // the ship turns toward it by this rotation (constants, as the ship's
                              // steering), then charges straight: one that missed comes round again
  float threat_charge_boost;  // a charging threat moves this many times its speed
  // Waves: wave n sends wave_threats_first + (n - 1) * wave_threats_step threats at
  // min(threat_speed_first + (n - 1) * threat_speed_step, threat_speed_max); each wave waits
  // breather_ticks (the first game's first, first_breather_ticks) before its threats come.
  int wave_threats_first, wave_threats_step;
  float threat_speed_first, threat_speed_step, threat_speed_max;
  int breather_ticks, first_breather_ticks;
  int wave_time_limit;  // a wave not cleared in this many ticks has the next come on top of it
  // The storm power-up: dropped after every storm_pickup_every-th wave, it waits
  // storm_pickup_ticks to be flown over, then fires rings of storm_volley shots every
  // storm_fire_period ticks for storm_ticks.
  int storm_pickup_every, storm_pickup_ticks, storm_ticks, storm_volley, storm_fire_period;
  float storm_pickup_radius;
  // Score.
  int score_dust, score_split, score_burst;
  int score_wave;      // score_wave * n for clearing wave n without a hit
  bool ship_immortal;  // storm: the ship cannot be hurt, so the load never stops
  Budgets budgets;
};

/// The threats wave `wave` (1-based) sends, and their speed.
int threats_in_wave(const Tuning& tuning, int wave) noexcept;
float threat_speed(const Tuning& tuning, int wave) noexcept;

struct PlayConfig {
  /// The field: its sprites are the dust. Broken dust comes back away from the ship, so the
  /// field never holds more sprites than it starts with and the tree's buffers never grow past
  /// their first tick.
  game::sim::SimulationConfig field;
  bool storm = false;  ///< the stress setting: volleys, big bursts, wide blasts, large pools
  int lives = 3;       ///< 1..9
};

/// The fewest and most lives a game starts with.
inline constexpr int kMinLives = 1, kMaxLives = 9;

/// The rules' numbers for `storm` off (the game) or on (the stress setting).
Tuning tuning_for(bool storm) noexcept;

}  // namespace quadpool::game::play
