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

// cos and sin of 6 degrees: a missile's turn in one tick (a U-turn in 30).
constexpr float kMissileTurnCos = 0.994521895f;
constexpr float kMissileTurnSin = 0.104528463f;

// The game's rules, one group at a time (the storm changes some of them: tuning_for).
constexpr Tuning::Ship kShip{.radius = 5.0f,
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
                             .immortal = false};

constexpr Tuning::Shots kShots{.speed = 9.0f,
                               .radius = 1.0f,
                               .ticks = 50,
                               .fire_period = 6,
                               .volley = 1,
                               .volley_cos = kRingCos,
                               .volley_sin = kRingSin,
                               .pierce_dust = true};

constexpr Tuning::Dust kDust{
    .debris = 2, .sparks = 3, .blast_radius = 0.0f, .respawn_distance = 420.0f};

constexpr Tuning::Threats kThreats{.radius = 11.0f,
                                   .split_radius = 8.0f,
                                   .child_scale = 0.62f,
                                   .split_kick = 0.5f,
                                   .blast_radius = 45.0f,
                                   .debris = 14,
                                   .sparks = 28,
                                   .split_sparks = 10,
                                   .spawn_distance = 300.0f,
                                   .aim_spread = 50.0f,
                                   .turn_cos = kThreatTurnCos,
                                   .turn_sin = kThreatTurnSin,
                                   .charge = 110.0f,
                                   .charge_boost = 1.8f};

constexpr Tuning::Effects kEffects{.debris_ticks_min = 40,
                                   .debris_ticks_max = 80,
                                   .spark_ticks_min = 15,
                                   .spark_ticks_max = 35,
                                   .explosion_ticks = 30};

constexpr Tuning::Waves kWaves{.threats_first = 3,
                               .threats_step = 1,
                               .speed_first = 0.9f,
                               .speed_step = 0.1f,
                               .speed_max = 3.0f,
                               .breather_ticks = 150,
                               .first_breather_ticks = 300,
                               .time_limit = 1200};

constexpr Tuning::Storm kStorm{.pickup_every = 2,
                               .pickup_ticks = 720,
                               .ticks = 360,
                               .volley = 16,
                               .fire_period = 8,
                               .pickup_radius = 10.0f};

constexpr Tuning::Hunters kHunters{
    .first_wave = 3, .every = 2, .hits = 3, .radius = 7.0f, .thrust = 0.05f, .max_speed = 2.2f};

constexpr Tuning::Missiles kMissiles{.speed = 5.0f,
                                     .turn_cos = kMissileTurnCos,
                                     .turn_sin = kMissileTurnSin,
                                     .ticks = 150,
                                     .period = 180};

constexpr Tuning::Score kScore{.dust = 1, .split = 50, .burst = 100, .hunter = 150, .wave = 200};

Tuning game_tuning() noexcept {
  return Tuning{
      .ship = kShip,
      .shots = kShots,
      .dust = kDust,
      .threats = kThreats,
      .effects = kEffects,
      .waves = kWaves,
      .storm = kStorm,
      .hunters = kHunters,
      .missiles = kMissiles,
      .score = kScore,
      .budgets = {.shots = 512,
                  .debris = 8192,
                  .sparks = 16384,
                  .explosions = 2048,
                  .threats = 256,
                  .hunters = 64,
                  .missiles = 64},
  };
}

}  // namespace

Tuning tuning_for(bool storm) noexcept {
  Tuning tuning = game_tuning();
  if (!storm) return tuning;
  // A ring of shots every other tick, each stopped by the first dust it meets, bursts of 80
  // entities and blasts that break the dust within 30 units: tens of thousands of live entities
  // and thousands born a tick.
  tuning.shots.volley = 48;
  tuning.shots.fire_period = 2;
  tuning.shots.ticks = 90;
  tuning.shots.pierce_dust = false;
  tuning.dust.debris = 32;
  tuning.dust.sparks = 48;
  tuning.dust.blast_radius = 30.0f;
  tuning.dust.respawn_distance = 0.0f;  // anywhere: the field stays uniform under the load
  tuning.threats.split_sparks = 16;
  tuning.effects.spark_ticks_min = 20;
  tuning.effects.spark_ticks_max = 40;
  tuning.storm.pickup_every = 0;
  tuning.ship.immortal = true;
  tuning.budgets = {.shots = 8192,
                    .debris = 65536,
                    .sparks = 131072,
                    .explosions = 8192,
                    .threats = 256,
                    .hunters = 64,
                    .missiles = 64};
  return tuning;
}

int threats_in_wave(const Tuning& tuning, int wave) noexcept {
  return tuning.waves.threats_first + (wave - 1) * tuning.waves.threats_step;
}

int hunters_in_wave(const Tuning& tuning, int wave) noexcept {
  if (wave < tuning.hunters.first_wave) return 0;
  return (wave - tuning.hunters.first_wave) / tuning.hunters.every + 1;
}

float threat_speed(const Tuning& tuning, int wave) noexcept {
  return std::min(tuning.waves.speed_first + static_cast<float>(wave - 1) * tuning.waves.speed_step,
                  tuning.waves.speed_max);
}

}  // namespace quadpool::game::play
