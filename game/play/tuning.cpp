#include "game/play/play_config.hpp"

#include <algorithm>

namespace quadpool::game::play {

namespace {

// cos and sin of 2 pi / 48, the angle between the shots of a storm's ring of 48.
constexpr float kRingCos = 0.991444861f;
constexpr float kRingSin = 0.130526192f;

// cos and sin of 0.07 rad (4 degrees a tick, a half turn in 45 ticks), written out so that no
// C library's cos or sin decides a bit of the game.
constexpr float kTurnCos = 0.997551000f;
constexpr float kTurnSin = 0.0699428473f;

// cos and sin of 1.5 degrees: a threat's turn toward the ship in one tick (a U-turn in 120).
constexpr float kThreatTurnCos = 0.999657325f;
constexpr float kThreatTurnSin = 0.026176948f;

Tuning game_tuning() noexcept {
  return Tuning{
      .ship_radius = 5.0f,
      .turn_cos = kTurnCos,
      .turn_sin = kTurnSin,
      .thrust = 0.12f,
      .drag = 0.985f,
      .max_speed = 3.2f,
      .shield = 100,
      .hit_damage = 40,
      .shield_regen_period = 20,
      .invulnerable_after_hit = 30,
      .invulnerable_after_life = 120,
      .shot_speed = 9.0f,
      .shot_radius = 1.0f,
      .shot_ticks = 50,
      .fire_period = 6,
      .volley = 1,
      .volley_cos = kRingCos,
      .volley_sin = kRingSin,
      .shots_pierce_dust = true,
      .dust_debris = 2,
      .dust_sparks = 3,
      .dust_blast_radius = 0.0f,
      .dust_respawn_distance = 420.0f,
      .threat_radius = 11.0f,
      .split_radius = 8.0f,
      .child_scale = 0.62f,
      .split_kick = 0.5f,
      .blast_radius = 45.0f,
      .threat_debris = 14,
      .threat_sparks = 28,
      .split_sparks = 10,
      .debris_ticks_min = 40,
      .debris_ticks_max = 80,
      .spark_ticks_min = 15,
      .spark_ticks_max = 35,
      .explosion_ticks = 30,
      .threat_spawn_distance = 300.0f,
      .threat_aim_spread = 50.0f,
      .threat_turn_cos = kThreatTurnCos,
      .threat_turn_sin = kThreatTurnSin,
      .threat_charge = 110.0f,
      .threat_charge_boost = 1.8f,
      .wave_threats_first = 3,
      .wave_threats_step = 1,
      .threat_speed_first = 0.9f,
      .threat_speed_step = 0.1f,
      .threat_speed_max = 3.0f,
      .breather_ticks = 150,
      .first_breather_ticks = 300,
      .wave_time_limit = 1200,
      .storm_pickup_every = 2,
      .storm_pickup_ticks = 720,
      .storm_ticks = 360,
      .storm_volley = 16,
      .storm_fire_period = 8,
      .storm_pickup_radius = 10.0f,
      .score_dust = 1,
      .score_split = 50,
      .score_burst = 100,
      .score_wave = 200,
      .ship_immortal = false,
      .budgets =
          {.shots = 512, .debris = 8192, .sparks = 16384, .explosions = 2048, .threats = 256},
  };
}

}  // namespace

Tuning tuning_for(bool storm) noexcept {
  Tuning tuning = game_tuning();
  if (!storm) return tuning;
  // A ring of shots every other tick, each stopped by the first dust it meets, bursts of 80
  // entities and blasts that break the dust within 30 units: tens of thousands of live entities
  // and thousands born a tick.
  tuning.volley = 48;
  tuning.fire_period = 2;
  tuning.shot_ticks = 90;
  tuning.shots_pierce_dust = false;
  tuning.dust_debris = 32;
  tuning.dust_sparks = 48;
  tuning.dust_blast_radius = 30.0f;
  tuning.dust_respawn_distance = 0.0f;  // anywhere: the field stays uniform under the load
  tuning.split_sparks = 16;
  tuning.spark_ticks_min = 20;
  tuning.spark_ticks_max = 40;
  tuning.storm_pickup_every = 0;
  tuning.ship_immortal = true;
  tuning.budgets = {
      .shots = 8192, .debris = 65536, .sparks = 131072, .explosions = 8192, .threats = 256};
  return tuning;
}

int threats_in_wave(const Tuning& tuning, int wave) noexcept {
  return tuning.wave_threats_first + (wave - 1) * tuning.wave_threats_step;
}

float threat_speed(const Tuning& tuning, int wave) noexcept {
  return std::min(
      tuning.threat_speed_first + static_cast<float>(wave - 1) * tuning.threat_speed_step,
      tuning.threat_speed_max);
}

}  // namespace quadpool::game::play
