#pragma once
/// EntityStore<T>: the live entities of one type, and where their memory comes from.
///
/// - Pool mode: an ObjectPool<T> of exactly `budget` objects in one chunk, allocated when the
///   store is made (Growth::Fixed), so creating and destroying entities never touches the heap.
/// - NewDelete mode: `new T` and `delete` per entity.
/// The mode can change at any time (set_allocator): objects made before the switch stay where
/// they are and are freed by the allocator they came from (the pool knows its own blocks:
/// ObjectPool::owns, O(1) with one chunk); objects made after come from the new one.
///
/// Live entities are a dense vector of pointers, iterated in order and removed by swapping the
/// last one in (O(1), any order: entities die in no particular order, never LIFO). The order is
/// a pure function of the creates and removes, so it is deterministic and hashable.
///
/// The budget caps the live count in both modes (the same cap, so both play the same game):
/// spawn() at the cap returns nullptr and counts a drop. The pointer vector is reserved to the
/// budget, so in Pool mode a store makes no heap allocation after construction.
///
/// Not thread-safe.

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

#include "engine/memory/allocator_kind.hpp"
#include "engine/memory/object_pool.hpp"
#include "engine/memory/pool_allocator.hpp"
#include "game/play/entities.hpp"

namespace quadpool::game::play {

/// Counts of one store. Plain data.
struct EntityCounts {
  std::uint64_t created_tick = 0;    ///< since the last begin_tick()
  std::uint64_t destroyed_tick = 0;  ///< since the last begin_tick()
  std::uint64_t created = 0;         ///< in total
  std::uint64_t destroyed = 0;       ///< in total
  std::uint64_t dropped = 0;         ///< spawns refused at the budget, in total
  std::size_t live = 0;
  std::size_t budget = 0;
};

template <class T>
class EntityStore {
 public:
  /// Throws std::invalid_argument when budget is 0; std::bad_alloc when the pool's chunk cannot
  /// be had.
  EntityStore(std::size_t budget, memory::AllocatorKind kind)
      : pool_(checked(budget), memory::Growth::Fixed), kind_(kind), budget_(budget) {
    live_.reserve(budget);
  }
  /// Destroys every live entity, each with the allocator it came from.
  ~EntityStore() { clear(); }
  EntityStore(const EntityStore&) = delete;
  EntityStore& operator=(const EntityStore&) = delete;

  /// Constructs T(tally, args...) with the current allocator and appends it to live(); nullptr
  /// (and one more drop) when `budget` entities are live.
  template <class... Args>
  T* spawn(Args&&... args) {
    if (live_.size() >= budget_) {
      ++dropped_;
      return nullptr;
    }
    T* object = kind_ == memory::AllocatorKind::Pool
                    ? pool_.create(tally_, std::forward<Args>(args)...)
                    : new T(tally_, std::forward<Args>(args)...);
    live_.push_back(object);
    ++created_tick_;
    ++created_;
    return object;
  }

  /// Calls keep(T&) on every live entity in order and destroys those it returns false for. The
  /// last entity moves into a destroyed one's place and is visited next. O(live).
  template <class Keep>
  void retain(Keep&& keep) {
    std::size_t i = 0;
    while (i < live_.size()) {
      if (keep(*live_[i])) {
        ++i;
      } else {
        destroy_at(i);
      }
    }
  }

  /// Destroys live()[index]; the last entity takes its place. O(1).
  void destroy_at(std::size_t index) noexcept {
    release(live_[index]);
    live_[index] = live_.back();
    live_.pop_back();
    ++destroyed_tick_;
    ++destroyed_;
  }

  /// Destroys every live entity, in order.
  void clear() noexcept {
    for (T* object : live_) release(object);
    destroyed_tick_ += live_.size();
    destroyed_ += live_.size();
    live_.clear();
  }

  /// The allocator of every entity spawned from now on.
  void set_allocator(memory::AllocatorKind kind) noexcept { kind_ = kind; }
  memory::AllocatorKind allocator() const noexcept { return kind_; }

  /// Starts a tick: zeroes the per-tick counts.
  void begin_tick() noexcept { created_tick_ = destroyed_tick_ = 0; }

  std::span<T* const> live() const noexcept { return live_; }
  std::size_t size() const noexcept { return live_.size(); }
  std::size_t budget() const noexcept { return budget_; }
  EntityCounts counts() const noexcept {
    return {created_tick_, destroyed_tick_, created_, destroyed_, dropped_, live_.size(), budget_};
  }
  /// Constructor and destructor calls of T so far (T's own count, not the store's).
  const LifeTally& tally() const noexcept { return tally_; }
  memory::PoolStats pool_stats() const noexcept { return pool_.stats(); }

 private:
  static std::size_t checked(std::size_t budget) {
    if (budget == 0) throw std::invalid_argument("EntityStore: the budget must be at least 1");
    return budget;
  }
  // Whichever allocator made it frees it: a switch leaves objects of both kinds alive.
  void release(T* object) noexcept {
    if (pool_.owns(object)) {
      pool_.destroy(object);
    } else {
      delete object;
    }
  }

  LifeTally tally_;  // first: it must outlive pool_ and every object that points to it
  memory::ObjectPool<T> pool_;
  std::vector<T*> live_;
  memory::AllocatorKind kind_;
  std::size_t budget_;
  std::uint64_t created_tick_ = 0, destroyed_tick_ = 0, created_ = 0, destroyed_ = 0;
  std::uint64_t dropped_ = 0;
};

}  // namespace quadpool::game::play
