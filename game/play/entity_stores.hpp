#pragma once
/// EntityStores: one EntityStore per entity type of play, switched, ticked, cleared and
/// reported together, so that the allocator switch moves all of them at once.

#include <array>
#include <cstddef>
#include <cstdint>

#include "engine/memory/pool_allocator.hpp"
#include "game/play/entities.hpp"
#include "game/play/entity_store.hpp"
#include "game/play/play_config.hpp"

namespace quadpool::game::play {

/// The entity types, in the order reports, hashes and the JSON list them.
enum class EntityType { Shots, Debris, Sparks, Explosions, Threats, Hunters, Missiles };
inline constexpr std::size_t kEntityTypes = 7;

/// "shots", "debris", "sparks", "explosions", "threats", "hunters", "missiles": the JSON's and
/// the overlay's spelling.
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
        threats(budgets.threats, kind),
        hunters(budgets.hunters, kind),
        missiles(budgets.missiles, kind) {}

  EntityStore<Shot> shots;
  EntityStore<Debris> debris;
  EntityStore<Spark> sparks;
  EntityStore<Explosion> explosions;
  EntityStore<Threat> threats;
  EntityStore<Hunter> hunters;
  EntityStore<Missile> missiles;

  /// Calls f(EntityType, store) for every store, in EntityType order.
  template <class F>
  void visit(F&& f) {
    visit_impl(*this, f);
  }
  template <class F>
  void visit(F&& f) const {
    visit_impl(*this, f);
  }

  void set_allocator(memory::AllocatorKind kind) noexcept {
    visit([&](EntityType, auto& store) { store.set_allocator(kind); });
  }
  void begin_tick() noexcept {
    visit([](EntityType, auto& store) { store.begin_tick(); });
  }
  void clear() noexcept {
    visit([](EntityType, auto& store) { store.clear(); });
  }
  std::size_t live() const noexcept {
    std::size_t live = 0;
    visit([&](EntityType, const auto& store) { live += store.size(); });
    return live;
  }
  std::array<EntityReport, kEntityTypes> reports() const noexcept {
    std::array<EntityReport, kEntityTypes> reports{};
    visit([&](EntityType type, const auto& store) {
      reports[static_cast<std::size_t>(type)] = {type, store.counts(), store.tally(),
                                                 store.pool_stats()};
    });
    return reports;
  }

 private:
  template <class Self, class F>
  static void visit_impl(Self& self, F& f) {
    f(EntityType::Shots, self.shots);
    f(EntityType::Debris, self.debris);
    f(EntityType::Sparks, self.sparks);
    f(EntityType::Explosions, self.explosions);
    f(EntityType::Threats, self.threats);
    f(EntityType::Hunters, self.hunters);
    f(EntityType::Missiles, self.missiles);
  }
};

}  // namespace quadpool::game::play
