#include "game/play/play_config.hpp"

namespace quadpool::game::play {

namespace {

// cos and sin of 2 pi / 48, the angle between the shots of a storm's ring of 48.
constexpr float kRingCos = 0.991444861f;
constexpr float kRingSin = 0.130526192f;

// cos and sin of 0.07 rad (4 degrees a tick, a half turn in 45 ticks), written out so that no
// C library's cos or sin decides a bit of the game.
constexpr float kTurnCos = 0.997551000f;
constexpr float kTurnSin = 0.0699428473f;

Tuning game_tuning() noexcept {
  return Tuning{
      .ship_radius = 5.0f,
      .turn_cos = kTurnCos,
      .turn_sin = kTurnSin,
      .thrust = 0.12f,
      .drag = 0.985f,
      .max_speed = 4.0f,
      .shield = 100,
      .hit_damage = 40,
      .shield_regen_period = 20,
      .invulnerable_after_hit = 20,
      .invulnerable_after_life = 120,
      .shot_speed = 9.0f,
      .shot_radius = 1.0f,
      .shot_ticks = 60,
      .fire_period = 5,
      .volley = 1,
      .volley_cos = kRingCos,
      .volley_sin = kRingSin,
      .split_radius = 4.0f,
      .child_scale = 0.62f,
      .split_kick = 0.4f,
      .blast_radius = 10.0f,
      .burst_debris = 8,
      .burst_sparks = 12,
      .split_sparks = 6,
      .debris_ticks_min = 45,
      .debris_ticks_max = 90,
      .spark_ticks_min = 15,
      .spark_ticks_max = 35,
      .explosion_ticks = 24,
      .score_split = 20,
      .score_burst = 50,
      .score_blast = 10,
      .wave_quota_base = 10,
      .wave_quota_step = 5,
      .wave_rocks_base = 20,
      .wave_rocks_step = 15,
      .safe_radius = 120.0f,
      .ship_immortal = false,
      .budgets = {.shots = 256, .debris = 4096, .sparks = 8192, .explosions = 512},
  };
}

}  // namespace

Tuning tuning_for(bool storm) noexcept {
  Tuning tuning = game_tuning();
  if (!storm) return tuning;
  // A ring of shots every other tick, bursts of 80 entities and blasts that burst every small
  // rock within 30 units: tens of thousands of live entities and thousands born a tick.
  tuning.volley = 48;
  tuning.fire_period = 2;
  tuning.shot_ticks = 90;
  tuning.blast_radius = 30.0f;
  tuning.burst_debris = 32;
  tuning.burst_sparks = 48;
  tuning.split_sparks = 16;
  tuning.debris_ticks_min = 40;
  tuning.debris_ticks_max = 80;
  tuning.spark_ticks_min = 20;
  tuning.spark_ticks_max = 40;
  tuning.wave_quota_base = 200;
  tuning.wave_quota_step = 0;
  tuning.wave_rocks_base = 400;
  tuning.wave_rocks_step = 0;
  tuning.ship_immortal = true;
  tuning.budgets = {.shots = 8192, .debris = 65536, .sparks = 131072, .explosions = 8192};
  return tuning;
}

}  // namespace quadpool::game::play
