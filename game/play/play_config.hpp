#pragma once
/// PlayConfig: how a game starts (the field, the storm flag, the lives) and Tuning, the rules'
/// numbers, which follow from the storm flag. A replay file stores the PlayConfig; the Tuning
/// is a pure function of it, so a replay needs nothing else.

#include <cstddef>
#include <cstdint>
#include <optional>

#include "game/sim/simulation.hpp"

namespace quadpool::game::play {

/// The most live entities of each type (the pools' sizes: allocated up front, never grown).
struct Budgets {
  std::size_t shots, debris, sparks, explosions, threats, hunters, missiles;
};

/// The finest ring of shots: the storm's. A ring of n shots turns by kRingShots / n steps of
/// Tuning::Shots::volley_cos and volley_sin from one shot to the next.
inline constexpr int kRingShots = 48;

/// The rules' numbers. Distances in world units, speeds in world units per tick, times in ticks.
///
/// Two kinds of rock: the field's thousands of sprites are dust, harmless scenery that shots
/// break (and, when shots.pierce_dust, fly on through); the threats are a few large rocks a wave
/// sends at the ship, drawn apart from the dust, which split when shot and cost shield when they
/// reach the ship.
struct Tuning {
  struct Ship {
    float radius;
    float turn_cos, turn_sin;  // one tick of steering: the rotation's cosine and sine, as constants
    float thrust, drag, max_speed;
    int shield, hit_damage, shield_regen_period;  // shield points; one point back per period
    int invulnerable_after_hit, invulnerable_after_life;
    bool immortal;  // storm: the ship cannot be hurt, so the load never stops
  };
  struct Shots {
    float speed, radius;
    int ticks, fire_period;
    int volley;  // shots per trigger pull: 1, or a ring of this many (a divisor of kRingShots)
    float volley_cos, volley_sin;  // a turn of 1 / kRingShots of a circle
    bool pierce_dust;              // a shot breaks the dust on its path and flies on
  };
  /// What a shot or a blast does to the field's sprites.
  struct Dust {
    int debris, sparks;
    float blast_radius;      // a dust rock broken by a shot bursts the dust within this (0: none)
    float respawn_distance;  // broken dust comes back at least this far from the ship
  };
  struct Threats {
    float radius;        // a wave's threats start this big
    float split_radius;  // a threat at least this big splits in two, a smaller one bursts
    float child_scale;   // a split child's radius, as a share of its parent's
    float split_kick;    // the children's sideways speed
    float blast_radius;  // a burst threat's blast breaks the dust within this distance
    int debris, sparks, split_sparks;
    float spawn_distance;      // threats start this far from the ship, aimed near it
    float aim_spread;          // ... at a point up to this far from it
    float turn_cos, turn_sin;  // each tick a threat farther than `charge` from the ship turns
    float charge;              // toward it by this rotation (constants, as the ship's steering),
                               // then charges straight: one that missed comes round again
    float charge_boost;        // a charging threat moves this many times its speed
  };
  /// How long the bursts' pieces live.
  struct Effects {
    int debris_ticks_min, debris_ticks_max, spark_ticks_min, spark_ticks_max, explosion_ticks;
  };
  /// Wave n sends threats_first + (n - 1) * threats_step threats at
  /// min(speed_first + (n - 1) * speed_step, speed_max); each wave waits breather_ticks (the
  /// first game's first, first_breather_ticks) before its threats come.
  struct Waves {
    int threats_first, threats_step;
    float speed_first, speed_step, speed_max;
    int breather_ticks, first_breather_ticks;
    int time_limit;  // a wave not cleared in this many ticks has the next come on top of it
  };
  /// The storm power-up: dropped after every pickup_every-th wave, it waits pickup_ticks to be
  /// flown over, then fires rings of `volley` shots every fire_period ticks for `ticks`.
  struct Storm {
    int pickup_every, pickup_ticks, ticks, volley, fire_period;
    float pickup_radius;
  };
  /// Enemy ships. Wave n sends (n - first_wave) / every + 1 of them from wave first_wave on,
  /// with the threats. A hunter thrusts toward where the ship will be (`thrust` a tick, up to
  /// max_speed), takes `hits` shots or one missile, and rams the ship as a threat does.
  struct Hunters {
    int first_wave, every, hits;
    float radius, thrust, max_speed;
  };
  /// One missile per `period` ticks while the missile button is held. A missile locks onto the
  /// hunter nearest the ship and turns toward it by (turn_cos, turn_sin) a tick at `speed`, for
  /// `ticks`; when its hunter dies first it locks onto the nearest one.
  struct Missiles {
    float speed, turn_cos, turn_sin;
    int ticks, period;
  };
  struct Score {
    int dust, split, burst, hunter;
    int wave;  // wave * n for clearing wave n without a hit
  };

  Ship ship;
  Shots shots;
  Dust dust;
  Threats threats;
  Effects effects;
  Waves waves;
  Storm storm;
  Hunters hunters;
  Missiles missiles;
  Score score;
  Budgets budgets;
};

/// The threats wave `wave` (1-based) sends, and their speed.
int threats_in_wave(const Tuning& tuning, int wave) noexcept;
float threat_speed(const Tuning& tuning, int wave) noexcept;
/// The hunters wave `wave` sends: none before Tuning::Hunters::first_wave.
int hunters_in_wave(const Tuning& tuning, int wave) noexcept;

struct PlayConfig {
  /// The field: its sprites are the dust. Broken dust comes back away from the ship, so the
  /// field never holds more sprites than it starts with and the tree's buffers never grow past
  /// their first tick.
  game::sim::SimulationConfig field;
  bool storm = false;  ///< the stress setting: volleys, big bursts, wide blasts, large pools
  int lives = 3;       ///< 1..9
  /// The rules' numbers; empty: tuning_for(storm). For tests and variants of the rules: a
  /// replay file does not record them.
  std::optional<Tuning> tuning;
};

/// The fewest and most lives a game starts with.
inline constexpr int kMinLives = 1, kMaxLives = 9;

/// The rules' numbers for `storm` off (the game) or on (the stress setting).
Tuning tuning_for(bool storm) noexcept;

}  // namespace quadpool::game::play
