// Tests of engine/memory/object_pool.hpp: placement new, explicit destructors, exception safety,
// over-aligned types and a randomised run against a model.
#include "engine/memory/object_pool.hpp"

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "engine/core/random.hpp"
#include "tests/helpers/assert_throws.hpp"
#include "tests/helpers/counted.hpp"
#include "tests/helpers/pool_counts.hpp"
#include "tests/helpers/skip.hpp"

namespace quadpool::memory {
namespace {

using test::Counted;
using test::LifetimeCounter;
using test::ThrowsWhenAsked;

struct alignas(64) CacheLine {
  std::uint64_t words[8];
};
struct alignas(256) Wide {
  char bytes[300];
};

class ObjectPoolTest : public ::testing::Test {
 protected:
  void SetUp() override { LifetimeCounter::reset(); }
};

TEST_F(ObjectPoolTest, CreateConstructsInPlaceWithTheGivenArguments) {
  ObjectPool<std::pair<int, std::string>> pool(8);
  auto* p = pool.create(7, "seven");
  EXPECT_EQ(p->first, 7);
  EXPECT_EQ(p->second, "seven");
  EXPECT_TRUE(pool.owns(p));
  pool.destroy(p);
}

TEST_F(ObjectPoolTest, DestroyRunsTheDestructorExactlyOnce) {
  ObjectPool<Counted> pool(4);
  std::vector<Counted*> objects;
  for (int i = 0; i < 10; ++i) objects.push_back(pool.create(i));
  EXPECT_EQ(LifetimeCounter::constructed, 10u);
  EXPECT_EQ(LifetimeCounter::destroyed, 0u);
  for (Counted* c : objects) pool.destroy(c);
  EXPECT_EQ(LifetimeCounter::destroyed, 10u);
  pool.destroy(nullptr);
  EXPECT_EQ(LifetimeCounter::destroyed, 10u) << "destroy(nullptr) is a no-op";
  EXPECT_EQ(pool.stats().blocks_in_use, 0u);
}

TEST_F(ObjectPoolTest, AThrowingConstructorGivesTheBlockBackAndPropagates) {
  ObjectPool<ThrowsWhenAsked> pool(2, Growth::Fixed);
  auto* a = pool.create(false);
  EXPECT_THROW(pool.create(true), std::runtime_error);
  EXPECT_EQ(pool.stats().blocks_in_use, 1u) << "the block went back";
  EXPECT_EQ(LifetimeCounter::destroyed, 0u) << "no destructor for an object never built";
  auto* b = pool.create(false);  // the block is usable: a Fixed pool of 2 has room
  EXPECT_NE(b, nullptr);
  pool.destroy(a);
  pool.destroy(b);
  EXPECT_EQ(LifetimeCounter::alive(), 0u);
}

TEST_F(ObjectPoolTest, FixedPoolThrowsBadAllocWhenFullAndTryCreateReturnsNull) {
  ObjectPool<Counted> pool(2, Growth::Fixed);
  auto* a = pool.create(1);
  auto* b = pool.create(2);
  EXPECT_THROW(pool.create(3), std::bad_alloc);
  EXPECT_EQ(pool.try_create(3), nullptr);
  EXPECT_EQ(LifetimeCounter::constructed, 2u) << "no object was built when there was no room";
  pool.destroy(a);
  pool.destroy(b);
}

TEST_F(ObjectPoolTest, OverAlignedTypesAreAligned) {
  ObjectPool<CacheLine> lines(3);
  ObjectPool<Wide> wides(3);
  std::vector<CacheLine*> l;
  std::vector<Wide*> w;
  for (int i = 0; i < 20; ++i) {
    l.push_back(lines.create());
    w.push_back(wides.create());
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(l.back()) % 64, 0u);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(w.back()) % 256, 0u);
  }
  EXPECT_EQ(lines.stats().alignment, 64u);
  EXPECT_EQ(wides.stats().alignment, 256u);
  EXPECT_EQ(wides.stats().block_size, 512u) << "300 bytes rounded up to the 256 alignment";
  for (auto* p : l) lines.destroy(p);
  for (auto* p : w) wides.destroy(p);
}

TEST_F(ObjectPoolTest, StatsFollowCreateAndDestroy) {
  ObjectPool<Counted> pool(4);
  auto* a = pool.create(1);
  auto* b = pool.create(2);
  pool.destroy(a);
  const PoolStats s = pool.stats();
  EXPECT_EQ(s.blocks_in_use, 1u);
  EXPECT_EQ(s.total_allocations, 2u);
  EXPECT_EQ(s.total_deallocations, 1u);
  EXPECT_EQ(s.high_water, 2u);
  pool.destroy(b);
}

TEST_F(ObjectPoolTest, TheFramePatternGetsTheSameObjectsBackInTheSameOrder) {
  // Create N, destroy them newest first, repeat: the pool only moves its bump pointer up and
  // down, and every frame gets the same blocks in the same address order (the quad-tree's
  // determinism and its front-to-back walk rely on this).
  ObjectPool<Counted> pool(16);
  std::vector<Counted*> first_frame, frame;
  for (int f = 0; f < 5; ++f) {
    frame.clear();
    for (int i = 0; i < 40; ++i) frame.push_back(pool.create(i));
    if (f == 0) first_frame = frame;
    EXPECT_EQ(frame, first_frame) << "frame " << f;
    for (auto it = frame.rbegin(); it != frame.rend(); ++it) pool.destroy(*it);
  }
  EXPECT_EQ(test::counts_of(pool.stats()), (test::PoolCounts{0, 200, 200, 40}));
  EXPECT_EQ(pool.stats().chunks, 3u);
  EXPECT_EQ(LifetimeCounter::alive(), 0u);
}

TEST(ObjectPoolDeathTest, DestroyingAPoolWithLiveObjectsReportsTheLeak) {
  QUADPOOL_SKIP_UNLESS(debug::kLeakCheck, "the leak check (QUADPOOL_MEMORY_LEAK_CHECK)");
  EXPECT_DEATH(
      {
        ObjectPool<Counted> pool(4);
        (void)pool.create(1);
      },
      "destroyed with 1 live block");
}

TEST(ObjectPoolDeathTest, DestroyingTwiceAborts) {
  QUADPOOL_SKIP_UNLESS(debug::kSlotState, "slot state (QUADPOOL_MEMORY_SLOT_STATE)");
  EXPECT_DEATH(
      {
        ObjectPool<int> pool(4);
        int* p = pool.create(1);
        int* q = pool.create(2);
        pool.destroy(p);
        pool.destroy(q);
        pool.destroy(p);
      },
      "double free");
}

TEST_F(ObjectPoolTest, RandomCreateDestroyMatchesAModel) {
  const std::uint64_t seed =
      test::announce_seed("ObjectPoolTest.RandomCreateDestroyMatchesAModel", 0xC0FFEE);
  Random rng(seed);
  ObjectPool<Counted> pool(1 + rng.below(100));
  std::map<Counted*, int> live;
  for (int step = 0; step < 50000; ++step) {
    if (live.empty() || rng.chance(0.5)) {
      const int value = static_cast<int>(rng.below(1u << 30));
      Counted* c = pool.create(value);
      ASSERT_TRUE(live.emplace(c, value).second) << "a live object's block was handed out again";
    } else {
      auto it = live.begin();
      std::advance(it, static_cast<std::ptrdiff_t>(rng.below(live.size())));
      ASSERT_EQ(it->first->value, it->second);
      pool.destroy(it->first);
      live.erase(it);
    }
    ASSERT_EQ(LifetimeCounter::alive(), live.size());
    ASSERT_EQ(pool.stats().blocks_in_use, live.size());
  }
  for (auto& [c, value] : live) pool.destroy(c);
  EXPECT_EQ(LifetimeCounter::alive(), 0u);
  EXPECT_EQ(LifetimeCounter::constructed, LifetimeCounter::destroyed);
}

}  // namespace
}  // namespace quadpool::memory
