#pragma once
/// EntityStores: one EntityStore per entity type of play, switched, ticked, cleared and
/// reported together, so that the allocator switch moves all of them at once.

#include <array>
#include <cstddef>
#include <cstdint>

#include "engine/memory/pool_allocator.hpp"
#include "engine/spatial/quad_tree.hpp"
#include "game/play/entities.hpp"
#include "game/play/entity_store.hpp"
#include "game/play/play_config.hpp"

namespace quadpool::game::play {

/// The entity types, in the order reports, hashes and the JSON list them.
enum class EntityType { Shots, Debris, Sparks, Explosions, Threats };
inline constexpr std::size_t kEntityTypes = 5;

/// "shots", "debris", "sparks", "explosions", "threats": the JSON's and the overlay's spelling.
const char* entity_type_name(EntityType type) noexcept;

/// What one store reports: its counts, its type's constructor and destructor calls, its pool.
struct EntityReport {
  EntityType type;
  EntityCounts counts;
  LifeTally tally;
  memory::PoolStats pool;
};

struct EntityStores {
  EntityStores(const Budgets& budgets, memory::AllocatorKind kind)
      : shots(budgets.shots, kind),
        debris(budgets.debris, kind),
        sparks(budgets.sparks, kind),
        explosions(budgets.explosions, kind),
        threats(budgets.threats, kind) {}

  EntityStore<Shot> shots;
  EntityStore<Debris> debris;
  EntityStore<Spark> sparks;
  EntityStore<Explosion> explosions;
  EntityStore<Threat> threats;

  void set_allocator(memory::AllocatorKind kind) noexcept {
    shots.set_allocator(kind);
    debris.set_allocator(kind);
    sparks.set_allocator(kind);
    explosions.set_allocator(kind);
    threats.set_allocator(kind);
  }
  void begin_tick() noexcept {
    shots.begin_tick();
    debris.begin_tick();
    sparks.begin_tick();
    explosions.begin_tick();
    threats.begin_tick();
  }
  void clear() noexcept {
    shots.clear();
    debris.clear();
    sparks.clear();
    explosions.clear();
    threats.clear();
  }
  std::size_t live() const noexcept {
    return shots.size() + debris.size() + sparks.size() + explosions.size() + threats.size();
  }
  std::array<EntityReport, kEntityTypes> reports() const noexcept {
    return {report(EntityType::Shots, shots), report(EntityType::Debris, debris),
            report(EntityType::Sparks, sparks), report(EntityType::Explosions, explosions),
            report(EntityType::Threats, threats)};
  }

 private:
  template <class T>
  static EntityReport report(EntityType type, const EntityStore<T>& store) noexcept {
    return {type, store.counts(), store.tally(), store.pool_stats()};
  }
};

}  // namespace quadpool::game::play
