#include "game/play/play_hash.hpp"

#include <bit>
#include <cstddef>

#include "engine/memory/slot_pool.hpp"
#include "game/play/play_world.hpp"
#include "game/sim/simulation.hpp"

namespace quadpool::game::play {

namespace {

class Fnv1a {
 public:
  void mix(std::uint64_t value, int bytes) noexcept {
    for (int i = 0; i < bytes; ++i) {
      hash_ ^= (value >> (8 * i)) & 0xffu;
      hash_ *= 0x100000001b3ull;
    }
  }
  void mix(float value) noexcept { mix(std::bit_cast<std::uint32_t>(value), 4); }
  void mix(Vec2 value) noexcept {
    mix(value.x);
    mix(value.y);
  }
  void mix_int(std::int64_t value) noexcept { mix(static_cast<std::uint64_t>(value), 8); }
  void mix(const Motion& motion) noexcept {
    mix(motion.position);
    mix(motion.velocity);
    mix_int(motion.ticks_left);
  }
  std::uint64_t value() const noexcept { return hash_; }

 private:
  std::uint64_t hash_ = 0xcbf29ce484222325ull;
};

void mix_entities(Fnv1a& h, const EntityStores& stores) noexcept {
  h.mix(stores.shots.size(), 8);
  stores.shots.for_each([&](const Shot& shot) { h.mix(shot.motion); });
  h.mix(stores.debris.size(), 8);
  stores.debris.for_each([&](const Debris& debris) {
    h.mix(debris.motion);
    h.mix(debris.size);
  });
  h.mix(stores.sparks.size(), 8);
  stores.sparks.for_each([&](const Spark& spark) {
    h.mix(spark.motion);
    h.mix(spark.hue, 1);
  });
  h.mix(stores.explosions.size(), 8);
  stores.explosions.for_each([&](const Explosion& explosion) {
    h.mix(explosion.centre);
    h.mix(explosion.max_radius);
    h.mix_int(explosion.ticks_left);
    h.mix_int(explosion.lifetime);
  });
  h.mix(stores.threats.size(), 8);
  stores.threats.for_each([&](const Threat& threat) {
    h.mix(threat.motion.position);
    h.mix(threat.motion.velocity);
    h.mix(threat.radius);
    h.mix(threat.kind, 1);
  });
  h.mix(stores.hunters.size(), 8);
  stores.hunters.for_each([&](memory::Handle<Hunter> handle, const Hunter& hunter) {
    h.mix(handle.index(), 4);
    h.mix(hunter.motion.position);
    h.mix(hunter.motion.velocity);
    h.mix_int(hunter.hits_left);
  });
  h.mix(stores.missiles.size(), 8);
  stores.missiles.for_each([&](const Missile& missile) {
    h.mix(missile.motion);
    // The target's slot and generation: which hunter it is locked onto, not where it lives.
    h.mix(missile.target.index(), 4);
    h.mix(missile.target.generation() & memory::SlotPool<Hunter>::kCounterMask, 4);
  });
}

}  // namespace

std::uint64_t play_state_hash(const PlayWorld& world) noexcept {
  Fnv1a h;
  h.mix(world.field().state_hash(), 8);
  const Ship& ship = world.ship();
  h.mix(ship.position);
  h.mix(ship.velocity);
  h.mix(ship.heading);
  for (const int value :
       {ship.shield, ship.invulnerable_ticks, ship.cooldown, ship.missile_cooldown}) {
    h.mix_int(value);
  }
  h.mix(ship.regen_clock, 4);
  const GameStatus& status = world.status();
  h.mix(status.score, 8);
  for (const int value : {status.wave, status.lives, status.breather_ticks, status.wave_ticks,
                          status.wave_hits, status.wave_bonus, status.storm_ticks}) {
    h.mix_int(value);
  }
  h.mix(status.kills, 8);
  h.mix(status.stale_handles_seen, 8);
  h.mix(status.ticks_played, 8);
  h.mix(status.games, 8);
  h.mix(status.game_over ? 1u : 0u, 1);
  mix_entities(h, world.entities());
  h.mix(world.pickup() ? 1u : 0u, 1);
  if (const std::optional<Pickup>& pickup = world.pickup()) {
    h.mix(pickup->position);
    h.mix_int(pickup->ticks_left);
  }
  h.mix(world.pending_removals().size(), 8);
  for (const std::uint32_t index : world.pending_removals()) h.mix(index, 4);
  // The rocks to come, with the field's own hash of sprites.
  h.mix(game::sim::state_hash(world.pending_rocks()), 8);
  h.mix(game::sim::state_hash(world.owed_rocks()), 8);
  return h.value();
}

}  // namespace quadpool::game::play
