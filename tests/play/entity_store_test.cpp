// Tests of game/play/entity_store.hpp: budgets, removal in any order in slot order, stale
// handles, counts, and objects freed by the allocator they came from across live switches, with
// every constructor and destructor run exactly once.
#include "game/play/entity_store.hpp"

#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "common/heap_counter.hpp"
#include "engine/core/random.hpp"
#include "game/play/entities.hpp"

namespace quadpool::game::play {
namespace {

using memory::AllocatorKind;

memory::Handle<Shot> spawn_shot(EntityStore<Shot>& store, float x) {
  return store.spawn(Vec2{x, 0.0f}, Vec2{1.0f, 0.0f}, 10);
}

std::vector<float> positions(const EntityStore<Shot>& store) {
  std::vector<float> xs;
  store.for_each([&](const Shot& s) { xs.push_back(s.motion.position.x); });
  return xs;
}

TEST(EntityStore, SpawnRefusesPastTheBudgetAndCountsTheDrop) {
  EntityStore<Shot> store(3, AllocatorKind::Pool);
  for (int i = 0; i < 3; ++i) ASSERT_FALSE(spawn_shot(store, static_cast<float>(i)).is_null());
  EXPECT_TRUE(spawn_shot(store, 9.0f).is_null());
  const EntityCounts counts = store.counts();
  EXPECT_EQ(counts.live, 3u);
  EXPECT_EQ(counts.created, 3u);
  EXPECT_EQ(counts.dropped, 1u);
  EXPECT_EQ(store.tally().constructed, 3u);
}

TEST(EntityStore, RetainKeepsTheSlotOrderAndANewEntityTakesTheLastFreedSlot) {
  EntityStore<Shot> store(8, AllocatorKind::Pool);
  for (int i = 0; i < 5; ++i) spawn_shot(store, static_cast<float>(i));
  store.retain([](const Shot& s) { return s.motion.position.x != 1.0f && s.motion.position.x != 3.0f; });
  EXPECT_EQ(positions(store), (std::vector<float>{0.0f, 2.0f, 4.0f}));
  EXPECT_EQ(store.counts().destroyed, 2u);
  EXPECT_EQ(store.tally().destroyed, 2u);
  // 3's slot was freed last, so the next entity takes it: the order is the slots', whatever the
  // allocator.
  spawn_shot(store, 7.0f);
  EXPECT_EQ(positions(store), (std::vector<float>{0.0f, 2.0f, 7.0f, 4.0f}));
}

TEST(EntityStore, AHandleToADeadEntityIsStaleEvenWhenItsSlotHoldsANewOne) {
  EntityStore<Shot> store(4, AllocatorKind::Pool);
  const memory::Handle<Shot> first = spawn_shot(store, 1.0f);
  ASSERT_NE(store.get(first), nullptr);
  EXPECT_TRUE(store.destroy(first));
  const memory::Handle<Shot> second = spawn_shot(store, 2.0f);
  EXPECT_EQ(second.index(), first.index());  // the same slot ...
  EXPECT_EQ(store.get(first), nullptr);      // ... but the old handle does not reach it
  EXPECT_FALSE(store.destroy(first));
  ASSERT_NE(store.get(second), nullptr);
  EXPECT_EQ(store.get(second)->motion.position.x, 2.0f);
  EXPECT_EQ(store.counts().destroyed, 1u);
}

TEST(EntityStore, ABudgetOfZeroIsRefused) {
  EXPECT_THROW(EntityStore<Shot>(0, AllocatorKind::Pool), std::invalid_argument);
}

TEST(EntityStore, PoolModeMakesNoHeapAllocationAfterConstruction) {
  EntityStore<Debris> store(1000, AllocatorKind::Pool);
  const std::uint64_t before = heap_allocations();
  Random rng(7);
  for (int round = 0; round < 50; ++round) {
    while (store.size() < 900) store.spawn(Vec2{}, Vec2{}, 5, 1.0f);
    store.retain([&](const Debris&) { return rng.chance(0.5); });
  }
  EXPECT_EQ(heap_allocations() - before, 0u);
  EXPECT_EQ(store.pool_stats().blocks_in_use, store.size());
}

TEST(EntityStore, NewDeleteModeAllocatesEveryEntity) {
  EntityStore<Spark> store(100, AllocatorKind::NewDelete);
  const std::uint64_t before = heap_allocations();
  for (int i = 0; i < 10; ++i) store.spawn(Vec2{}, Vec2{}, 5, std::uint8_t{1});
  EXPECT_EQ(heap_allocations() - before, 10u);
  EXPECT_EQ(store.pool_stats().blocks_in_use, 0u);
}

// Random spawns and kills in any order, the allocator switched every few steps: every object is
// freed by its own allocator (the pool's checks and ASan would catch a wrong one), and
// constructors and destructors run exactly once each.
TEST(EntityStore, LiveSwitchesFreeEachObjectWhereItCameFrom) {
  const std::uint64_t seed = 20261126;
  SCOPED_TRACE("seed " + std::to_string(seed));
  Random rng(seed);
  LifeTally final_tally;
  {
    EntityStore<Explosion> store(500, AllocatorKind::Pool);
    for (int step = 0; step < 2000; ++step) {
      if (step % 7 == 0) {
        store.set_allocator(store.allocator() == AllocatorKind::Pool ? AllocatorKind::NewDelete
                                                                     : AllocatorKind::Pool);
      }
      const auto spawns = rng.below(20);
      for (std::uint64_t i = 0; i < spawns; ++i) store.spawn(Vec2{}, 3.0f, 10);
      store.retain([&](const Explosion&) { return !rng.chance(0.3); });
      const EntityCounts counts = store.counts();
      ASSERT_EQ(counts.created - counts.destroyed, counts.live);
      ASSERT_EQ(store.tally().constructed, counts.created);
      ASSERT_EQ(store.tally().destroyed, counts.destroyed);
      ASSERT_LE(store.pool_stats().blocks_in_use, counts.live);
    }
    store.clear();
    final_tally = store.tally();
    EXPECT_EQ(store.pool_stats().blocks_in_use, 0u);
  }
  EXPECT_GT(final_tally.constructed, 1000u);
  EXPECT_EQ(final_tally.constructed, final_tally.destroyed);
}

}  // namespace
}  // namespace quadpool::game::play
