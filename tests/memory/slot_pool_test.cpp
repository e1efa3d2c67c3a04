// Tests of engine/memory/slot_pool.hpp: handles that go stale, stable addresses, generation
// wrap, the allocator switch, for_each's order, the heap, and a randomised run of millions of
// operations against a model.
//
// Sections: types and basics; stale handles and generation wrap; the allocator switch and the
// heap; for_each; the model run; death tests.
#include "engine/memory/slot_pool.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#if defined(__linux__)
#include <sys/resource.h>
#include <unistd.h>
#endif

#include "common/heap_counter.hpp"
#include "engine/core/random.hpp"
#include "engine/memory/allocator_kind.hpp"
#include "engine/memory/debug.hpp"
#include "engine/memory/handle.hpp"
#include "tests/helpers/assert_throws.hpp"
#include "tests/helpers/counted.hpp"
#include "tests/helpers/skip.hpp"

namespace quadpool::memory {
namespace {

using test::Counted;
using test::LifetimeCounter;
using test::ThrowsWhenAsked;

struct alignas(128) Wide {
  char bytes[200];
};

class SlotPoolTest : public ::testing::Test {
 protected:
  void SetUp() override { LifetimeCounter::reset(); }
  void TearDown() override { EXPECT_EQ(LifetimeCounter::alive(), 0u) << "an object leaked"; }
};

// --- types and basics ---------------------------------------------------------------------------

TEST_F(SlotPoolTest, CreateConstructsInPlaceAndGetReturnsTheObject) {
  SlotPool<std::pair<int, std::string>> pool;
  const auto h = pool.create(7, "seven");
  auto* p = pool.get(h);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->first, 7);
  EXPECT_EQ(p->second, "seven");
  EXPECT_EQ(&pool.at(h), p);
  EXPECT_TRUE(pool.contains(h));
  EXPECT_EQ(pool.size(), 1u);
  EXPECT_TRUE(pool.destroy(h));
  EXPECT_TRUE(pool.empty());
}

TEST_F(SlotPoolTest, ObjectsNeverMoveWhileThePoolGrows) {
  SlotPool<Counted> pool(64);
  std::vector<std::pair<Handle<Counted>, const Counted*>> made;
  for (int i = 0; i < 1000; ++i) {
    const auto h = pool.create(i);
    made.emplace_back(h, pool.get(h));
  }
  EXPECT_EQ(pool.stats().chunks, 16u);
  for (auto [h, address] : made) EXPECT_EQ(pool.get(h), address);
  pool.clear();
}

// Each pool reserves up to 16 GiB of address space at its first chunk: a thousand pools alive
// at once hold 16 TiB of it, an eighth of a 48-bit space, and each pool's objects stay put.
TEST_F(SlotPoolTest, AThousandPoolsAliveAtOnceAllWork) {
  constexpr std::size_t kPools = 1000, kEach = 100;
  std::vector<std::unique_ptr<SlotPool<std::uint64_t>>> pools;
  std::vector<std::pair<Handle<std::uint64_t>, const std::uint64_t*>> made;
  for (std::size_t p = 0; p < kPools; ++p) {
    auto& pool = *pools.emplace_back(std::make_unique<SlotPool<std::uint64_t>>(64));
    for (std::size_t i = 0; i < kEach; ++i) {
      const auto h = pool.create(p * 1000 + i);
      made.emplace_back(h, pool.get(h));
    }
    ASSERT_EQ(pool.stats().chunks, 2u);
  }
  for (std::size_t k = 0; k < made.size(); ++k) {
    ASSERT_EQ(pools[k / kEach]->get(made[k].first), made[k].second);
    ASSERT_EQ(*made[k].second, k / kEach * 1000 + k % kEach);
  }
}

#if defined(__linux__)
// In a child process: limits the address space to what is mapped now plus 4 GiB, fills a pool
// that would like 16 GiB with 100k objects, and exits 0 when every one reads back.
[[noreturn]] void fill_a_pool_under_an_address_space_limit() {
  long pages = 0;
  if (std::FILE* statm = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(statm, "%ld", &pages) != 1) pages = 0;
    std::fclose(statm);
  }
  const auto limit =
      static_cast<rlim_t>(pages) * static_cast<rlim_t>(sysconf(_SC_PAGESIZE)) + (rlim_t{1} << 32);
  const rlimit address_space{limit, limit};
  if (pages == 0 || setrlimit(RLIMIT_AS, &address_space) != 0) std::_Exit(3);
  SlotPool<std::uint64_t> pool(64);
  std::vector<Handle<std::uint64_t>> handles;
  for (std::uint64_t i = 0; i < 100'000; ++i) handles.push_back(pool.create(i));
  for (std::uint64_t i = 0; i < 100'000; ++i) {
    if (*pool.get(handles[i]) != i) std::_Exit(4);
  }
  std::_Exit(0);
}

// Where the system gives less address space than a pool asks for, the pool reserves what it
// can get (halving its request) and works within it.
TEST(SlotPoolDeathTest, APoolUnderAnAddressSpaceLimitReservesLessAndWorks) {
  QUADPOOL_SKIP_UNLESS(!debug::kAsan, "a build without ASan (its shadow needs all the space)");
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(fill_a_pool_under_an_address_space_limit(), ::testing::ExitedWithCode(0), "");
}
#endif

TEST_F(SlotPoolTest, DestroyRunsTheDestructorExactlyOnceAndTheDestructorDestroysTheRest) {
  {
    SlotPool<Counted> pool(64);
    std::vector<Handle<Counted>> handles;
    for (int i = 0; i < 100; ++i) handles.push_back(pool.create(i));
    for (int i = 0; i < 100; i += 2) EXPECT_TRUE(pool.destroy(handles[i]));
    EXPECT_EQ(LifetimeCounter::destroyed, 50u);
  }
  EXPECT_EQ(LifetimeCounter::destroyed, 100u) << "the pool's destructor destroyed the live 50";
}

TEST_F(SlotPoolTest, AThrowingConstructorLeavesThePoolAsItWasInBothModes) {
  for (AllocatorKind kind : kAllocatorKinds) {
    SlotPool<ThrowsWhenAsked> pool(64, kind);
    const auto a = pool.create(false);
    const SlotPoolStats before = pool.stats();
    EXPECT_THROW((void)pool.create(true), std::runtime_error) << allocator_name(kind);
    const SlotPoolStats after = pool.stats();
    EXPECT_EQ(after.live, before.live);
    EXPECT_EQ(after.slots_used, before.slots_used);
    EXPECT_EQ(after.heap_live, before.heap_live);
    const auto b = pool.create(false);
    EXPECT_EQ(b.index(), 1u) << "the slot the throw did not take";
    EXPECT_TRUE(pool.destroy(a));
    EXPECT_TRUE(pool.destroy(b));
  }
}

TEST_F(SlotPoolTest, OverAlignedTypesAreAligned) {
  SlotPool<Wide> pool(64);
  std::vector<Handle<Wide>> handles;
  for (int i = 0; i < 200; ++i) {
    handles.push_back(pool.create());
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(pool.get(handles.back())) % 128, 0u);
  }
  EXPECT_EQ(pool.stats().slot_size, 384u) << "256 for the object, then its generation word";
}

TEST_F(SlotPoolTest, StatsFollowCreateDestroyAndStaleDestroys) {
  SlotPool<Counted> pool(100);
  EXPECT_EQ(pool.slots_per_chunk(), 128u) << "rounded up to a power of two";
  const auto a = pool.create(1);
  const auto b = pool.create(2);
  EXPECT_TRUE(pool.destroy(a));
  EXPECT_FALSE(pool.destroy(a));
  const SlotPoolStats s = pool.stats();
  EXPECT_EQ(s.live, 1u);
  EXPECT_EQ(s.capacity, 128u);
  EXPECT_EQ(s.chunks, 1u);
  EXPECT_EQ(s.slots_used, 2u);
  EXPECT_EQ(s.free_slots, 1u);
  EXPECT_EQ(s.total_creates, 2u);
  EXPECT_EQ(s.total_destroys, 1u);
  EXPECT_EQ(s.stale_destroys, 1u);
  EXPECT_EQ(s.heap_live, 0u);
  EXPECT_TRUE(pool.destroy(b));
}

TEST_F(SlotPoolTest, ReserveMakesRoomWithoutCreating) {
  SlotPool<Counted> pool(64);
  EXPECT_EQ(pool.stats().chunks, 0u) << "nothing allocated before the first create or reserve";
  pool.reserve(1000);
  EXPECT_GE(pool.stats().capacity, 1000u);
  EXPECT_EQ(pool.size(), 0u);
  const std::size_t chunks = pool.stats().chunks;
  pool.reserve(10);
  EXPECT_EQ(pool.stats().chunks, chunks);
}

// --- stale handles and generation wrap ----------------------------------------------------------

TEST_F(SlotPoolTest, AStaleHandleGetsNullptrNeverTheSlotsNewOccupant) {
  SlotPool<Counted> pool;
  const auto old_handle = pool.create(1);
  ASSERT_TRUE(pool.destroy(old_handle));
  const auto new_handle = pool.create(2);
  EXPECT_EQ(new_handle.index(), old_handle.index()) << "the freed slot is reused first";
  EXPECT_NE(new_handle, old_handle);
  EXPECT_EQ(pool.get(old_handle), nullptr);
  EXPECT_FALSE(pool.destroy(old_handle)) << "a stale destroy must not free the new occupant";
  ASSERT_NE(pool.get(new_handle), nullptr);
  EXPECT_EQ(pool.get(new_handle)->value, 2);
  EXPECT_TRUE(pool.destroy(new_handle));
}

TEST_F(SlotPoolTest, ADoubleDestroyReturnsFalseAndChangesNothing) {
  SlotPool<Counted> pool;
  const auto h = pool.create(1);
  EXPECT_TRUE(pool.destroy(h));
  EXPECT_FALSE(pool.destroy(h));
  EXPECT_EQ(LifetimeCounter::destroyed, 1u);
  EXPECT_EQ(pool.stats().free_slots, 1u) << "the slot is on the free stack once";
}

TEST_F(SlotPoolTest, NullForeignAndOutOfRangeHandlesAreNeverLive) {
  SlotPool<Counted> pool(64);
  const auto h = pool.create(1);
  for (Handle<Counted> bad : {Handle<Counted>{}, Handle<Counted>(h.index(), 0),
                              Handle<Counted>(h.index(), h.generation() + 2),
                              Handle<Counted>(5, 1), Handle<Counted>(1u << 30, 1)}) {
    EXPECT_EQ(pool.get(bad), nullptr);
    EXPECT_FALSE(pool.contains(bad));
    EXPECT_FALSE(pool.destroy(bad));
  }
  EXPECT_EQ(pool.stats().stale_destroys, 5u);
  SlotPool<Counted> empty;
  EXPECT_EQ(empty.get(Handle<Counted>{}), nullptr) << "a pool without chunks";
  EXPECT_TRUE(pool.destroy(h));
}

TEST_F(SlotPoolTest, ASlotIsRetiredWhenItsGenerationWouldWrap) {
  // Two counter bits: generations 1 and 3 are live ones, so a slot holds two lifetimes.
  using TinyPool = SlotPool<Counted, 2>;
  static_assert(TinyPool::kLifetimesPerSlot == 2);
  TinyPool pool(64);
  const auto first = pool.create(1);
  ASSERT_TRUE(pool.destroy(first));
  const auto second = pool.create(2);
  EXPECT_EQ(second.index(), first.index());
  ASSERT_TRUE(pool.destroy(second));
  EXPECT_EQ(pool.stats().retired_slots, 1u);
  EXPECT_EQ(pool.stats().free_slots, 0u);
  const auto third = pool.create(3);
  EXPECT_NE(third.index(), first.index()) << "a retired slot is never handed out again";
  EXPECT_EQ(pool.get(first), nullptr);
  EXPECT_EQ(pool.get(second), nullptr);
  EXPECT_FALSE(pool.destroy(second));
  EXPECT_TRUE(pool.destroy(third));
}

TEST_F(SlotPoolTest, EveryHandleOfAWrappingRunIsCaughtOnceStale) {
  // 4 counter bits: 8 lifetimes a slot. Churn one slot's worth of lifetimes on every slot and
  // keep every handle ever returned: all but the live ones must be stale, and none collides.
  SlotPool<Counted, 4> pool(64);
  std::vector<Handle<Counted>> all, live;
  for (int round = 0; round < 40; ++round) {
    for (int i = 0; i < 50; ++i) live.push_back(pool.create(i));
    for (const auto& h : live) {
      all.push_back(h);
      ASSERT_TRUE(pool.destroy(h));
    }
    live.clear();
  }
  for (const auto& h : all) {
    ASSERT_EQ(pool.get(h), nullptr);
    ASSERT_FALSE(pool.destroy(h));
  }
  EXPECT_EQ(pool.stats().retired_slots, 50u * 40u / 8u);
}

// --- the allocator switch and the heap ----------------------------------------------------------

TEST_F(SlotPoolTest, EachObjectIsFreedByTheAllocatorThatMadeIt) {
  QUADPOOL_SKIP_UNLESS(heap_counting_enabled(), "heap counting");
  SlotPool<Counted> pool(64);
  pool.reserve(64);
  const auto pooled = pool.create(1);
  pool.set_allocator(AllocatorKind::NewDelete);
  EXPECT_EQ(pool.allocator(), AllocatorKind::NewDelete);
  std::uint64_t news = heap_allocations();
  const auto heaped = pool.create(2);
  EXPECT_EQ(heap_allocations() - news, 1u) << "one new per object in NewDelete mode";
  EXPECT_EQ(pool.stats().heap_live, 1u);
  EXPECT_EQ(pool.get(heaped)->value, 2);
  pool.set_allocator(AllocatorKind::Pool);
  std::uint64_t deletes = heap_deallocations();
  EXPECT_TRUE(pool.destroy(heaped));
  EXPECT_EQ(heap_deallocations() - deletes, 1u) << "a new'd object is deleted, even in Pool mode";
  pool.set_allocator(AllocatorKind::NewDelete);
  deletes = heap_deallocations();
  EXPECT_TRUE(pool.destroy(pooled));
  EXPECT_EQ(heap_deallocations() - deletes, 0u) << "a pooled object goes back to its slot";
  EXPECT_EQ(pool.stats().heap_live, 0u);
}

TEST_F(SlotPoolTest, CreateAndDestroyMakeNoHeapAllocationAfterReserve) {
  QUADPOOL_SKIP_UNLESS(heap_counting_enabled(), "heap counting");
  SlotPool<Counted> pool(256);
  pool.reserve(1000);
  std::vector<Handle<Counted>> handles;
  handles.reserve(1000);
  Random rng(11);
  const std::uint64_t before = heap_allocations();
  for (int frame = 0; frame < 50; ++frame) {
    while (handles.size() < 1000) handles.push_back(pool.create(frame));
    for (int i = 0; i < 300; ++i) {
      const std::size_t k = rng.below(handles.size());
      ASSERT_TRUE(pool.destroy(handles[k]));
      handles[k] = handles.back();
      handles.pop_back();
    }
  }
  EXPECT_EQ(heap_allocations() - before, 0u);
  EXPECT_EQ(pool.stats().chunks, 4u);
}

// --- for_each -----------------------------------------------------------------------------------

TEST_F(SlotPoolTest, ForEachVisitsEveryLiveObjectInIndexOrderFromBothAllocators) {
  SlotPool<Counted> pool(64);
  std::vector<Handle<Counted>> handles;
  for (int i = 0; i < 300; ++i) {
    pool.set_allocator(i % 3 == 0 ? AllocatorKind::NewDelete : AllocatorKind::Pool);
    handles.push_back(pool.create(i));
  }
  for (int i = 0; i < 300; i += 7) ASSERT_TRUE(pool.destroy(handles[i]));
  std::vector<int> seen;
  std::uint32_t last_index = 0;
  pool.for_each([&](Handle<Counted> h, Counted& c) {
    EXPECT_EQ(pool.get(h), &c);
    if (!seen.empty()) {
      EXPECT_GT(h.index(), last_index);
    }
    last_index = h.index();
    seen.push_back(c.value);
  });
  std::vector<int> expected;
  for (int i = 0; i < 300; ++i) {
    if (i % 7 != 0) expected.push_back(i);
  }
  EXPECT_EQ(seen, expected);
  int sum = 0;
  std::as_const(pool).for_each([&](const Counted& c) { sum += c.value; });
  EXPECT_EQ(sum, std::accumulate(expected.begin(), expected.end(), 0));
}

// Runs a seeded sequence of creates and destroys; returns what for_each saw, in order.
std::vector<std::pair<std::uint32_t, int>> for_each_after(std::uint64_t seed, bool switching) {
  SlotPool<Counted> pool(64);
  Random rng(seed);
  Random switches(seed + 1);  // its own stream, so switching leaves the operations alone
  std::vector<Handle<Counted>> live;
  for (int step = 0; step < 20000; ++step) {
    if (switching && switches.chance(0.01)) {
      pool.set_allocator(switches.chance(0.5) ? AllocatorKind::Pool : AllocatorKind::NewDelete);
    }
    if (live.empty() || rng.chance(0.55)) {
      live.push_back(pool.create(static_cast<int>(rng.below(1000000))));
    } else {
      const std::size_t k = rng.below(live.size());
      pool.destroy(live[k]);
      live[k] = live.back();
      live.pop_back();
    }
  }
  std::vector<std::pair<std::uint32_t, int>> seen;
  pool.for_each([&](Handle<Counted> h, const Counted& c) { seen.emplace_back(h.index(), c.value); });
  return seen;
}

TEST_F(SlotPoolTest, ForEachOrderIsAPureFunctionOfTheCreatesAndDestroys) {
  const auto first = for_each_after(42, false);
  EXPECT_GT(first.size(), 1000u);
  EXPECT_EQ(for_each_after(42, false), first) << "same operations, same order";
  EXPECT_EQ(for_each_after(42, true), first)
      << "the allocator an object came from does not change where it is visited";
  EXPECT_NE(for_each_after(43, false), first);
}

// --- the model run ------------------------------------------------------------------------------

TEST_F(SlotPoolTest, MillionsOfRandomOperationsMatchAModelAndCatchEveryStaleHandle) {
  const std::uint64_t seed = test::announce_seed(
      "SlotPoolTest.MillionsOfRandomOperationsMatchAModelAndCatchEveryStaleHandle", 0x5107);
  Random rng(seed);
  // 4 counter bits (8 lifetimes a slot), so generations wrap and slots retire all the time.
  using Pool = SlotPool<Counted, 4>;
  Pool pool(64);
  struct Entry {
    Handle<Counted> handle;
    int value;
    bool heap;
  };
  std::map<std::uint32_t, Entry> live;           // by index: for_each's order
  std::map<std::uint32_t, std::uint64_t> lives;  // lifetimes each slot has begun
  std::vector<Handle<Counted>> stale;            // the most recent stale handles, a ring
  std::size_t stale_next = 0, heap_live = 0;
  std::uint64_t stale_checks = 0;
  const bool count_heap = heap_counting_enabled();
  constexpr int kSteps = 2'000'000;

  auto random_live = [&]() {
    auto it = live.lower_bound(static_cast<std::uint32_t>(rng.below(live.rbegin()->first + 1)));
    return it == live.end() ? live.begin() : it;
  };
  for (int step = 0; step < kSteps; ++step) {
    const std::uint64_t op = rng.below(1000);
    if (op < 2) {
      pool.set_allocator(pool.allocator() == AllocatorKind::Pool ? AllocatorKind::NewDelete
                                                                 : AllocatorKind::Pool);
    } else if (live.empty() || op < 400 + (live.size() < 200 ? 100 : 0)) {
      const int value = static_cast<int>(rng.below(1u << 30));
      const bool heap = pool.allocator() == AllocatorKind::NewDelete;
      const std::uint64_t news = heap_allocations();
      const std::size_t capacity = pool.stats().capacity;
      const auto h = pool.create(value);
      if (count_heap && pool.stats().capacity == capacity) {  // no chunk added
        ASSERT_EQ(heap_allocations() - news, heap ? 1u : 0u) << "step " << step;
      }
      ASSERT_FALSE(live.contains(h.index())) << "a live slot handed out again, step " << step;
      ASSERT_LT(lives[h.index()]++, Pool::kLifetimesPerSlot) << "a retired slot reused";
      live.emplace(h.index(), Entry{h, value, heap});
      heap_live += heap;
    } else if (op < 750) {
      auto it = random_live();
      const std::uint64_t deletes = heap_deallocations();
      ASSERT_TRUE(pool.destroy(it->second.handle)) << "step " << step;
      if (count_heap) {
        ASSERT_EQ(heap_deallocations() - deletes, it->second.heap ? 1u : 0u);
      }
      heap_live -= it->second.heap;
      const Handle<Counted> dead = it->second.handle;
      live.erase(it);
      if (stale.size() < 4096) {
        stale.push_back(dead);
      } else {
        stale[stale_next++ % stale.size()] = dead;
      }
    } else if (op < 900) {
      auto it = random_live();
      const Counted* c = pool.get(it->second.handle);
      ASSERT_NE(c, nullptr);
      ASSERT_EQ(c->value, it->second.value);
    } else if (!stale.empty()) {
      const Handle<Counted> h = stale[rng.below(stale.size())];
      ++stale_checks;
      ASSERT_EQ(pool.get(h), nullptr) << "a stale handle reached an object, step " << step;
      if (op < 950) {
        ASSERT_FALSE(pool.destroy(h)) << "a stale destroy succeeded, step " << step;
      }
    }
    ASSERT_EQ(LifetimeCounter::alive(), live.size());
    if (step % 20000 == 0 || step == kSteps - 1) {
      const SlotPoolStats s = pool.stats();
      ASSERT_EQ(s.live, live.size());
      ASSERT_EQ(s.heap_live, heap_live);
      std::size_t retired = 0;
      for (auto [index, count] : lives) {
        retired += count == Pool::kLifetimesPerSlot && !live.contains(index);
      }
      ASSERT_EQ(s.retired_slots, retired);
      auto expected = live.begin();
      pool.for_each([&](Handle<Counted> h, const Counted& c) {
        ASSERT_NE(expected, live.end());
        ASSERT_EQ(h, expected->second.handle);
        ASSERT_EQ(c.value, expected->second.value);
        ++expected;
      });
      ASSERT_EQ(expected, live.end()) << "for_each missed an object";
    }
  }
  const SlotPoolStats s = pool.stats();
  std::printf("[ model    ] %d steps: %llu stale handles checked, all caught; %zu slots retired, "
              "%llu creates\n",
              kSteps, static_cast<unsigned long long>(stale_checks), s.retired_slots,
              static_cast<unsigned long long>(s.total_creates));
  EXPECT_GT(s.retired_slots, 1000u) << "the run reached generation wrap many times";
  EXPECT_GT(stale_checks, 100000u);
}

// --- death tests --------------------------------------------------------------------------------

TEST(SlotPoolDeathTest, AtOnAStaleHandleAborts) {
  QUADPOOL_SKIP_WITHOUT_ASSERTS();
  EXPECT_DEATH(
      {
        SlotPool<int> pool;
        const auto h = pool.create(1);
        pool.destroy(h);
        (void)pool.create(2);  // the same slot, a new generation
        (void)pool.at(h);
      },
      "stale or null handle");
}

TEST(SlotPoolDeathTest, CreatingInsideForEachAborts) {
  QUADPOOL_SKIP_WITHOUT_ASSERTS();
  EXPECT_DEATH(
      {
        SlotPool<int> pool;
        (void)pool.create(1);
        pool.for_each([&](int&) { (void)pool.create(2); });
      },
      "inside for_each");
}

}  // namespace
}  // namespace quadpool::memory
