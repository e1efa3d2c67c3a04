#pragma once
/// EntityStore<T>: the live entities of one type, where their memory comes from, and the
/// handles other entities hold to them.
///
/// A thin layer over memory::SlotPool<T> that adds what the game needs on top:
/// - a budget, the same in both allocator modes so that both play the same game: spawn() at
///   the budget returns a null handle and counts a drop;
/// - per-tick counts and the type's constructor and destructor tally.
/// The pool is reserved to the budget when the store is made, so in Pool mode spawning and
/// destroying entities never touches the heap; in NewDelete mode each entity is `new T`. The
/// mode can change at any time: objects made before the switch are freed by the allocator that
/// made them (the slot pool keeps that per slot).
///
/// Entities are visited in slot order (for_each), a pure function of the spawns and destroys,
/// so it is deterministic and hashable. Other entities refer to one by its Handle<T>: get()
/// returns nullptr once it died, never the entity that took its slot.
///
/// Not thread-safe.

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

#include "engine/memory/allocator_kind.hpp"
#include "engine/memory/handle.hpp"
#include "engine/memory/pool_allocator.hpp"
#include "engine/memory/slot_pool.hpp"
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
  using Handle = memory::Handle<T>;

  /// Throws std::invalid_argument when budget is 0; std::bad_alloc when the pool's chunk cannot
  /// be had.
  EntityStore(std::size_t budget, memory::AllocatorKind kind)
      : pool_(checked(budget), kind), budget_(budget) {
    pool_.reserve(budget);
    doomed_.reserve(budget);
  }
  /// Destroys every live entity, each with the allocator it came from.
  ~EntityStore() { clear(); }
  EntityStore(const EntityStore&) = delete;
  EntityStore& operator=(const EntityStore&) = delete;

  /// Constructs T(tally, args...) with the current allocator; a null handle (and one more
  /// drop) when `budget` entities are live.
  template <class... Args>
  Handle spawn(Args&&... args) {
    if (pool_.size() >= budget_) {
      ++dropped_;
      return {};
    }
    ++created_tick_;
    ++created_;
    return pool_.create(tally_, std::forward<Args>(args)...);
  }

  /// The live entity `h` names; nullptr once it died (or for a null handle).
  T* get(Handle h) noexcept { return pool_.get(h); }
  const T* get(Handle h) const noexcept { return pool_.get(h); }

  /// Destroys the entity `h` names; false when it is already dead.
  bool destroy(Handle h) noexcept {
    if (!pool_.destroy(h)) return false;
    ++destroyed_tick_;
    ++destroyed_;
    return true;
  }

  /// Calls keep(T&) on every live entity in slot order, then destroys those it returned false
  /// for, in the same order. keep() must not spawn into this store. O(slots used / 64 + live).
  template <class Keep>
  void retain(Keep&& keep) {
    doomed_.clear();
    pool_.for_each([&](Handle h, T& entity) {
      if (!keep(entity)) doomed_.push_back(h);
    });
    for (const Handle h : doomed_) destroy(h);
  }

  /// Calls f(T&), or f(Handle, T&), for every live entity in slot order.
  template <class F>
  void for_each(F&& f) {
    pool_.for_each(f);
  }
  template <class F>
  void for_each(F&& f) const {
    pool_.for_each(f);
  }

  /// Destroys every live entity, in slot order.
  void clear() noexcept {
    const std::size_t live = pool_.size();
    pool_.clear();
    destroyed_tick_ += live;
    destroyed_ += live;
  }

  /// The allocator of every entity spawned from now on.
  void set_allocator(memory::AllocatorKind kind) noexcept { pool_.set_allocator(kind); }
  memory::AllocatorKind allocator() const noexcept { return pool_.allocator(); }

  /// Starts a tick: zeroes the per-tick counts.
  void begin_tick() noexcept { created_tick_ = destroyed_tick_ = 0; }

  std::size_t size() const noexcept { return pool_.size(); }
  std::size_t budget() const noexcept { return budget_; }
  EntityCounts counts() const noexcept {
    return {created_tick_, destroyed_tick_, created_, destroyed_, dropped_, pool_.size(), budget_};
  }
  /// Constructor and destructor calls of T so far (T's own count, not the store's).
  const LifeTally& tally() const noexcept { return tally_; }
  /// The slot pool in the terms of the other pools: a block is a slot, in use when it holds a
  /// pooled entity (an entity from `new` holds a slot for its pointer and is not counted).
  memory::PoolStats pool_stats() const noexcept {
    const memory::SlotPoolStats s = pool_.stats();
    return {.block_size = s.slot_size,
            .alignment = alignof(T),
            .blocks_in_use = s.live - s.heap_live,
            .capacity = s.capacity,
            .chunks = s.chunks,
            .high_water = s.slots_used,
            .total_allocations = s.total_creates,
            .total_deallocations = s.total_destroys,
            .bytes_reserved = s.capacity * s.slot_size};
  }
  /// The slot pool's own stats (stale destroys, retired slots, ...).
  memory::SlotPoolStats slot_stats() const noexcept { return pool_.stats(); }

 private:
  static std::size_t checked(std::size_t budget) {
    if (budget == 0) throw std::invalid_argument("EntityStore: the budget must be at least 1");
    return budget;
  }

  LifeTally tally_;  // first: it must outlive pool_ and every object that points to it
  memory::SlotPool<T> pool_;
  std::vector<Handle> doomed_;  // retain()'s scratch, reserved to the budget
  std::size_t budget_;
  std::uint64_t created_tick_ = 0, destroyed_tick_ = 0, created_ = 0, destroyed_ = 0;
  std::uint64_t dropped_ = 0;
};

}  // namespace quadpool::game::play
