// Tests of engine/memory/pool_allocator.*: configuration, growth, alignment, stats, the debug
// checks (with death tests), un-bump and rewind, and randomised runs against models.
//
// Sections: helpers and basics (configuration, growth, LIFO reuse, stats, block states); un-bump
// (stats, high water, chunk crossing, rewind, the LIFO model); debug aids and death tests;
// randomised run against a model.
#include "engine/memory/pool_allocator.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <ostream>
#include <set>
#include <string>
#include <string_view>
#include <stdexcept>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "common/heap_counter.hpp"
#include "engine/core/log.hpp"
#include "engine/core/random.hpp"
#include "engine/memory/debug.hpp"
#include "tests/helpers/assert_throws.hpp"
#include "tests/helpers/pool_counts.hpp"
#include "tests/helpers/skip.hpp"

namespace quadpool::memory {

// Readable failures when chunk_block_states differ from a model.
void PrintTo(BlockState state, std::ostream* os) {
  *os << (state == BlockState::Live ? "Live" : state == BlockState::Free ? "Free" : "NeverUsed");
}

namespace {


std::uintptr_t address(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }

// Allocates every block of a pool and returns them; used to prove nothing leaked.
std::vector<void*> drain(PoolAllocator& pool) {
  std::vector<void*> blocks;
  while (void* p = pool.try_allocate()) blocks.push_back(p);
  return blocks;
}

// The closing check of a randomised test, once everything is freed: the whole capacity can be
// allocated again, as distinct blocks, without a new chunk, so nothing leaked.
void expect_whole_capacity_comes_back(PoolAllocator& pool) {
  const std::size_t capacity = pool.stats().capacity;
  std::vector<void*> all;
  for (std::size_t i = 0; i < capacity; ++i) all.push_back(pool.allocate());
  std::set<void*> distinct(all.begin(), all.end());
  EXPECT_EQ(distinct.size(), capacity);
  EXPECT_EQ(pool.stats().capacity, capacity) << "reallocating the capacity added no chunk";
  for (void* p : all) pool.deallocate(p);
}

// The pool's leak warning reaches the engine's log hook (engine/core/log.hpp) in a build whose
// leak check is off; with it on, the pool asserts instead (ObjectPoolDeathTest).
TEST(PoolAllocator, APoolDestroyedWithLiveBlocksWarnsThroughTheLogHookWhenTheLeakCheckIsOff) {
  if (debug::kLeakCheck) {
    GTEST_SKIP() << "the leak check is on in this build: it asserts instead (ObjectPoolDeathTest)";
  }
  static std::vector<std::pair<LogLevel, std::string>> received;
  received.clear();
  const LogHandler previous = set_log_handler([](LogLevel level, std::string_view message) {
    received.emplace_back(level, std::string(message));
  });
  {
    PoolAllocator pool({.block_size = 32, .blocks_per_chunk = 4});
    (void)pool.allocate();
  }
  set_log_handler(previous);
  ASSERT_EQ(received.size(), 1u);
  EXPECT_EQ(received[0].first, LogLevel::Warning);
  EXPECT_EQ(received[0].second, "pool destroyed with 1 live block(s) of 32 bytes");
}

TEST(PoolAllocator, RejectsABadConfigWithAMessageNamingTheField) {
  auto message_of = [](const PoolConfig& config) -> std::string {
    try {
      PoolAllocator pool(config);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "no exception";
  };
  EXPECT_NE(message_of({.block_size = 0, .blocks_per_chunk = 4}).find("block_size"),
            std::string::npos);
  EXPECT_NE(message_of({.block_size = 8, .blocks_per_chunk = 0}).find("blocks_per_chunk"),
            std::string::npos);
  for (std::size_t bad : {std::size_t{0}, std::size_t{3}, std::size_t{24}, std::size_t{8192}}) {
    const std::string message = message_of({.block_size = 8, .blocks_per_chunk = 4, .alignment = bad});
    EXPECT_NE(message.find("alignment"), std::string::npos) << bad;
    EXPECT_NE(message.find("4096"), std::string::npos) << "names the valid range: " << message;
  }
  EXPECT_NE(message_of({.block_size = SIZE_MAX / 4, .blocks_per_chunk = 64}).find("overflow"),
            std::string::npos);
}

TEST(PoolAllocator, RoundsTinyBlocksUpToHoldTheFreeListLink) {
  PoolAllocator pool({.block_size = 1, .blocks_per_chunk = 4, .alignment = 1});
  const PoolStats stats = pool.stats();
  EXPECT_EQ(stats.block_size, PoolAllocator::kMinBlockSize);
  EXPECT_EQ(stats.alignment, alignof(void*));
}

TEST(PoolAllocator, GrowPoolAllocatesNothingUntilFirstUse) {
  PoolAllocator pool({.block_size = 64, .blocks_per_chunk = 1 << 20});
  EXPECT_EQ(pool.stats().chunks, 0u);
  EXPECT_EQ(pool.stats().bytes_reserved, 0u);
  void* p = pool.allocate();
  EXPECT_EQ(pool.stats().chunks, 1u);
  EXPECT_EQ(pool.stats().capacity, std::size_t{1} << 20);
  pool.deallocate(p);
}

TEST(PoolAllocator, FixedPoolPreallocatesOneChunkAndRunsOut) {
  PoolAllocator pool({.block_size = 32, .blocks_per_chunk = 3, .growth = Growth::Fixed});
  EXPECT_EQ(pool.stats().chunks, 1u);
  EXPECT_EQ(pool.stats().capacity, 3u);
  std::vector<void*> blocks = drain(pool);
  EXPECT_EQ(blocks.size(), 3u);
  EXPECT_EQ(pool.try_allocate(), nullptr);
  EXPECT_THROW(pool.allocate(), std::bad_alloc);
  EXPECT_EQ(pool.stats().chunks, 1u) << "a Fixed pool never adds a chunk";
  pool.deallocate(blocks.back());
  blocks.pop_back();
  EXPECT_NE(blocks.emplace_back(pool.try_allocate()), nullptr) << "a freed block is reusable";
  for (void* p : blocks) pool.deallocate(p);
}

TEST(PoolAllocator, GrowAddsChunksAndNeverMovesALiveBlock) {
  PoolAllocator pool({.block_size = 48, .blocks_per_chunk = 5});
  std::vector<void*> blocks;
  for (int i = 0; i < 23; ++i) {
    auto* p = static_cast<unsigned char*>(pool.allocate());
    std::memset(p, i, 48);
    blocks.push_back(p);
  }
  EXPECT_EQ(pool.stats().chunks, 5u);
  EXPECT_EQ(pool.stats().capacity, 25u);
  for (int i = 0; i < 23; ++i) {
    const auto* p = static_cast<const unsigned char*>(blocks[static_cast<std::size_t>(i)]);
    EXPECT_TRUE(std::all_of(p, p + 48, [i](unsigned char c) { return c == i; })) << i;
    EXPECT_TRUE(pool.owns(p));
  }
  for (void* p : blocks) pool.deallocate(p);
}

TEST(PoolAllocator, ReusesTheMostRecentlyFreedBlockFirst) {
  PoolAllocator pool({.block_size = 16, .blocks_per_chunk = 8});
  void* a = pool.allocate();
  void* b = pool.allocate();
  void* keep = pool.allocate();  // so that no free below leaves the pool empty
  pool.deallocate(a);
  pool.deallocate(b);
  EXPECT_EQ(pool.allocate(), b);
  EXPECT_EQ(pool.allocate(), a);
  pool.deallocate(a);
  pool.deallocate(b);
  pool.deallocate(keep);
}

TEST(PoolAllocator, AFreeThatLeavesNothingLiveStartsOverFromTheFirstBlock) {
  PoolAllocator pool({.block_size = 16, .blocks_per_chunk = 3});
  std::vector<void*> blocks;
  for (int i = 0; i < 7; ++i) blocks.push_back(pool.allocate());  // 3 chunks
  for (std::size_t i : {0, 5, 2, 6, 1, 4, 3}) pool.deallocate(blocks[i]);  // no LIFO order
  EXPECT_EQ(test::counts_of(pool.stats()), (test::PoolCounts{0, 7, 7, 7}));
  std::vector<BlockState> states(3);
  for (std::size_t c = 0; c < 2; ++c) {
    pool.chunk_block_states(c, states);
    EXPECT_EQ(states, (std::vector<BlockState>(3, BlockState::Free))) << c;
  }
  pool.chunk_block_states(2, states);
  EXPECT_EQ(states, (std::vector<BlockState>{BlockState::Free, BlockState::NeverUsed,
                                             BlockState::NeverUsed}));
  // The free list is forgotten: the blocks come back in address order, chunk by chunk, and then
  // the never-used ones.
  for (std::size_t i = 0; i < 7; ++i) EXPECT_EQ(pool.allocate(), blocks[i]) << i;
  blocks.push_back(pool.allocate());
  EXPECT_EQ(test::counts_of(pool.stats()), (test::PoolCounts{8, 15, 7, 8}));
  EXPECT_EQ(pool.stats().chunks, 3u);
  for (void* p : blocks) pool.deallocate(p);
}

TEST(PoolAllocator, HandsOutDistinctBlocksThatDoNotOverlap) {
  PoolAllocator pool({.block_size = 40, .blocks_per_chunk = 7});
  std::vector<void*> blocks;
  for (int i = 0; i < 100; ++i) blocks.push_back(pool.allocate());
  std::vector<std::uintptr_t> sorted;
  for (void* p : blocks) sorted.push_back(address(p));
  std::sort(sorted.begin(), sorted.end());
  const std::size_t size = pool.stats().block_size;
  for (std::size_t i = 1; i < sorted.size(); ++i) EXPECT_GE(sorted[i] - sorted[i - 1], size);
  for (void* p : blocks) pool.deallocate(p);
}

TEST(PoolAllocator, HonoursEveryPowerOfTwoAlignmentUpTo4096) {
  for (std::size_t alignment = 1; alignment <= PoolAllocator::kMaxAlignment; alignment *= 2) {
    PoolAllocator pool({.block_size = 24, .blocks_per_chunk = 3, .alignment = alignment});
    EXPECT_GE(pool.stats().alignment, alignment);
    std::vector<void*> blocks;
    for (int i = 0; i < 10; ++i) {
      void* p = pool.allocate();
      EXPECT_EQ(address(p) % alignment, 0u) << "alignment " << alignment;
      blocks.push_back(p);
    }
    for (void* p : blocks) pool.deallocate(p);
  }
}

TEST(PoolAllocator, OwnsOnlyItsOwnBlocks) {
  PoolAllocator pool({.block_size = 32, .blocks_per_chunk = 4});
  PoolAllocator other({.block_size = 32, .blocks_per_chunk = 4});
  void* mine = pool.allocate();
  void* theirs = other.allocate();
  int on_stack = 0;
  EXPECT_TRUE(pool.owns(mine));
  EXPECT_TRUE(pool.owns(static_cast<char*>(mine) + 31));
  EXPECT_FALSE(pool.owns(theirs));
  EXPECT_FALSE(pool.owns(&on_stack));
  EXPECT_FALSE(pool.owns(nullptr));
  pool.deallocate(mine);
  other.deallocate(theirs);
}

TEST(PoolAllocator, StatsAreExactAtEveryStep) {
  PoolAllocator pool({.block_size = 64, .blocks_per_chunk = 4, .alignment = 64});
  std::vector<void*> blocks;
  for (std::size_t i = 1; i <= 9; ++i) {
    blocks.push_back(pool.allocate());
    const PoolStats s = pool.stats();
    EXPECT_EQ(s.blocks_in_use, i);
    EXPECT_EQ(s.high_water, i);
    EXPECT_EQ(s.total_allocations, i);
    EXPECT_EQ(s.chunks, (i + 3) / 4);
    EXPECT_EQ(s.capacity, s.chunks * 4);
    EXPECT_EQ(s.bytes_reserved, s.chunks * 4 * 64);
  }
  pool.deallocate(blocks[3]);
  pool.deallocate(blocks[5]);
  const PoolStats s = pool.stats();
  EXPECT_EQ(s.blocks_in_use, 7u);
  EXPECT_EQ(s.high_water, 9u);
  EXPECT_EQ(s.total_deallocations, 2u);
  EXPECT_EQ(s.block_size, 64u);
  EXPECT_EQ(s.alignment, 64u);
  pool.deallocate(nullptr);
  EXPECT_EQ(pool.stats().total_deallocations, 2u) << "deallocate(nullptr) is a no-op";
  blocks.erase(blocks.begin() + 5);
  blocks.erase(blocks.begin() + 3);
  for (void* p : blocks) pool.deallocate(p);
}

TEST(PoolAllocator, ReportsTheStateOfEveryBlockInAChunk) {
  PoolAllocator pool({.block_size = 16, .blocks_per_chunk = 6});
  void* a = pool.allocate();
  void* b = pool.allocate();
  void* c = pool.allocate();
  pool.deallocate(b);
  std::vector<BlockState> states(6);
  pool.chunk_block_states(0, states);
  EXPECT_EQ(states, (std::vector<BlockState>{BlockState::Live, BlockState::Free, BlockState::Live,
                                             BlockState::NeverUsed, BlockState::NeverUsed,
                                             BlockState::NeverUsed}));
  EXPECT_THROW(pool.chunk_block_states(1, states), std::out_of_range);
  pool.deallocate(a);
  pool.deallocate(c);
}

// --- un-bump: LIFO frees move the bump pointer back; a free leaving nothing live rewinds ----

TEST(PoolAllocator, UnbumpingKeepsEveryStatExact) {
  PoolAllocator pool({.block_size = 32, .blocks_per_chunk = 8});
  std::vector<void*> blocks;
  for (int i = 0; i < 5; ++i) blocks.push_back(pool.allocate());
  for (std::size_t freed = 1; freed <= 5; ++freed) {
    pool.deallocate(blocks[5 - freed]);  // the newest first: every free is an un-bump
    EXPECT_EQ(test::counts_of(pool.stats()), (test::PoolCounts{5 - freed, 5, freed, 5}));
  }
  // Ten more frames of the same pattern: the pool ends where it began, the totals keep counting.
  for (int frame = 0; frame < 10; ++frame) {
    for (int i = 0; i < 5; ++i) EXPECT_EQ(pool.allocate(), blocks[static_cast<std::size_t>(i)]);
    for (int i = 4; i >= 0; --i) pool.deallocate(blocks[static_cast<std::size_t>(i)]);
  }
  EXPECT_EQ(test::counts_of(pool.stats()), (test::PoolCounts{0, 55, 55, 5}));
  EXPECT_EQ(pool.stats().chunks, 1u);
}

TEST(PoolAllocator, HighWaterIsExactAfterUnbumpAndRebump) {
  PoolAllocator pool({.block_size = 16, .blocks_per_chunk = 4});
  std::vector<void*> blocks;
  for (int i = 0; i < 6; ++i) blocks.push_back(pool.allocate());  // chunk 0 full, 2 of chunk 1
  pool.deallocate(blocks[5]);
  pool.deallocate(blocks[4]);
  pool.deallocate(blocks[3]);  // un-bumped back into chunk 0
  pool.deallocate(blocks[0]);  // not the last one handed out: pushed
  EXPECT_EQ(test::counts_of(pool.stats()), (test::PoolCounts{2, 6, 4, 6}));
  EXPECT_EQ(pool.allocate(), blocks[0]) << "the free list first";
  EXPECT_EQ(pool.allocate(), blocks[3]) << "then the un-bumped blocks, in address order";
  EXPECT_EQ(pool.allocate(), blocks[4]) << "on into the next chunk";
  EXPECT_EQ(pool.stats().high_water, 6u) << "re-bumping below the high mark";
  EXPECT_EQ(pool.allocate(), blocks[5]);
  EXPECT_EQ(pool.stats().high_water, 6u);
  blocks.push_back(pool.allocate());  // a never-used block: the high mark moves on
  EXPECT_EQ(test::counts_of(pool.stats()), (test::PoolCounts{7, 11, 4, 7}));
  EXPECT_EQ(pool.stats().chunks, 2u);
  for (void* p : blocks) pool.deallocate(p);
}

TEST(PoolAllocator, UnbumpWalksBackAcrossChunksAndRebumpForwards) {
  PoolAllocator pool({.block_size = 64, .blocks_per_chunk = 2, .alignment = 64});
  std::vector<void*> blocks;
  for (int i = 0; i < 5; ++i) blocks.push_back(pool.allocate());  // 3 chunks, the last has 1
  for (std::size_t freed = 1; freed <= 5; ++freed) {
    pool.deallocate(blocks[5 - freed]);
    EXPECT_EQ(test::counts_of(pool.stats()), (test::PoolCounts{5 - freed, 5, freed, 5}));
  }
  const std::vector<BlockState> all_free{BlockState::Free, BlockState::Free};
  std::vector<BlockState> states(2);
  pool.chunk_block_states(0, states);
  EXPECT_EQ(states, all_free);
  pool.chunk_block_states(1, states);
  EXPECT_EQ(states, all_free);
  pool.chunk_block_states(2, states);
  EXPECT_EQ(states, (std::vector<BlockState>{BlockState::Free, BlockState::NeverUsed}));
  for (std::size_t i = 0; i < 5; ++i) EXPECT_EQ(pool.allocate(), blocks[i]) << i;
  blocks.push_back(pool.allocate());
  EXPECT_EQ(test::counts_of(pool.stats()), (test::PoolCounts{6, 11, 5, 6}));
  EXPECT_EQ(pool.stats().chunks, 3u) << "the un-bumped chunks were used again, none added";
  for (void* p : blocks) pool.deallocate(p);
}

TEST(PoolAllocator, ReportsUnbumpedBlocksAsFreeAndUntouchedOnesAsNeverUsed) {
  PoolAllocator pool({.block_size = 16, .blocks_per_chunk = 6});
  std::vector<void*> blocks;
  for (int i = 0; i < 4; ++i) blocks.push_back(pool.allocate());
  pool.deallocate(blocks[3]);
  pool.deallocate(blocks[2]);  // both un-bumped
  std::vector<BlockState> states(6);
  pool.chunk_block_states(0, states);
  EXPECT_EQ(states, (std::vector<BlockState>{BlockState::Live, BlockState::Live, BlockState::Free,
                                             BlockState::Free, BlockState::NeverUsed,
                                             BlockState::NeverUsed}));
  pool.deallocate(blocks[0]);  // not the newest: pushed
  pool.chunk_block_states(0, states);
  EXPECT_EQ(states, (std::vector<BlockState>{BlockState::Free, BlockState::Live, BlockState::Free,
                                             BlockState::Free, BlockState::NeverUsed,
                                             BlockState::NeverUsed}));
  pool.deallocate(blocks[1]);  // the free list is not empty: pushed, not un-bumped
  pool.chunk_block_states(0, states);
  EXPECT_EQ(states, (std::vector<BlockState>{BlockState::Free, BlockState::Free, BlockState::Free,
                                             BlockState::Free, BlockState::NeverUsed,
                                             BlockState::NeverUsed}));
  EXPECT_EQ(test::counts_of(pool.stats()), (test::PoolCounts{0, 4, 4, 4}));
}

// A model of the pool as it was before un-bump: one LIFO stack of freed blocks in front of the
// never-used ones, plus the rewind: when nothing is live, the stack becomes every block ever used
// with the first one on top. The pool must hand out exactly the block the model names, in every
// sequence.
// Blocks are numbered in the order they were first handed out, which is chunk by chunk and slot
// by slot, so the model also knows every block's chunk and slot.
struct LifoModel {
  explicit LifoModel(std::size_t blocks_per_chunk) : per_chunk(blocks_per_chunk) {}
  std::size_t per_chunk;
  std::map<std::uintptr_t, std::size_t> first_use;  // block -> its number
  std::vector<std::uintptr_t> freed;                // the top is back()
  std::set<std::uintptr_t> live;
  std::uint64_t allocations = 0, deallocations = 0;
  std::size_t high_water = 0;

  // Checks `p`, just allocated, against the model and records it.
  void on_allocate(std::uintptr_t p) {
    if (!freed.empty()) {
      ASSERT_EQ(p, freed.back()) << "not the most recently freed block";
      freed.pop_back();
    } else {
      ASSERT_EQ(first_use.count(p), 0u) << "the free list is empty, so a never-used block";
      first_use.emplace(p, first_use.size());
    }
    live.insert(p);
    ++allocations;
    high_water = std::max(high_water, live.size());
  }
  void on_deallocate(std::uintptr_t p) {
    live.erase(p);
    freed.push_back(p);
    ++deallocations;
    if (live.empty()) {
      // The pool starts over from its first block: every block ever used, in first-use order.
      freed.assign(first_use.size(), 0);
      for (const auto& [block, number] : first_use) freed[freed.size() - 1 - number] = block;
    }
  }
  std::vector<BlockState> chunk_states(std::size_t chunk) const {
    std::vector<BlockState> states(per_chunk, BlockState::NeverUsed);
    for (const auto& [p, number] : first_use) {
      if (number / per_chunk != chunk) continue;
      states[number % per_chunk] = live.count(p) != 0 ? BlockState::Live : BlockState::Free;
    }
    return states;
  }
};

TEST(PoolAllocator, MixedLifoAndShuffledFreesMatchALifoModel) {
  const std::uint64_t seed =
      test::announce_seed("PoolAllocator.MixedLifoAndShuffledFreesMatchALifoModel", 0xB0B);
  Random rng(seed);
  for (int round = 0; round < 30; ++round) {
    const std::size_t per_chunk = 1 + rng.below(40);
    SCOPED_TRACE(::testing::Message() << "round " << round << " per_chunk " << per_chunk);
    PoolAllocator pool({.block_size = 8 + rng.below(100), .blocks_per_chunk = per_chunk});
    LifoModel model(per_chunk);
    std::vector<std::uintptr_t> order;  // live blocks in allocation order
    for (int phase = 0; phase < 40; ++phase) {
      // A burst of allocations, then frees: the newest first (the frame pattern), a random one,
      // or the oldest first.
      const std::size_t allocations = rng.below(3 * per_chunk);
      for (std::size_t i = 0; i < allocations; ++i) {
        const auto p = address(pool.allocate());
        ASSERT_NO_FATAL_FAILURE(model.on_allocate(p));
        order.push_back(p);
      }
      const std::size_t frees = rng.below(order.size() + 1);
      const std::uint64_t kind = rng.below(3);
      for (std::size_t i = 0; i < frees; ++i) {
        std::size_t at = order.size() - 1;
        if (kind == 1) at = rng.below(order.size());
        if (kind == 2) at = 0;
        const std::uintptr_t p = order[at];
        order.erase(order.begin() + static_cast<std::ptrdiff_t>(at));
        pool.deallocate(reinterpret_cast<void*>(p));
        model.on_deallocate(p);
      }
      const PoolStats s = pool.stats();
      ASSERT_EQ(test::counts_of(s), (test::PoolCounts{model.live.size(), model.allocations,
                                                      model.deallocations, model.high_water}));
      ASSERT_EQ(s.chunks, (model.first_use.size() + per_chunk - 1) / per_chunk);
      std::vector<BlockState> states(per_chunk);
      for (std::size_t c = 0; c < s.chunks; ++c) {
        pool.chunk_block_states(c, states);
        ASSERT_EQ(states, model.chunk_states(c)) << "chunk " << c << " after phase " << phase;
      }
    }
    for (std::uintptr_t p : order) pool.deallocate(reinterpret_cast<void*>(p));
    expect_whole_capacity_comes_back(pool);
  }
}

TEST(PoolAllocator, MakesNoHeapAllocationOnceItHasItsChunks) {
  PoolAllocator pool({.block_size = 64, .blocks_per_chunk = 256});
  std::vector<void*> blocks;
  blocks.reserve(1000);
  for (int i = 0; i < 1000; ++i) blocks.push_back(pool.allocate());
  for (void* p : blocks) pool.deallocate(p);
  blocks.clear();
  const std::uint64_t before = heap_allocations();
  for (int frame = 0; frame < 10; ++frame) {
    for (int i = 0; i < 1000; ++i) blocks.push_back(pool.allocate());
    for (void* p : blocks) pool.deallocate(p);
    blocks.clear();
  }
  EXPECT_EQ(heap_allocations() - before, 0u);
}

// --- debug aids: only meaningful when the build has them ----------------------------------------

TEST(PoolAllocator, FillsFreshAndFreedBlocksWithPatternsInCheckedBuilds) {
  QUADPOOL_SKIP_UNLESS(debug::kFill && !debug::kAsan, "the fill pattern (QUADPOOL_MEMORY_FILL, or ASan poisons instead)");
  PoolAllocator pool({.block_size = 64, .blocks_per_chunk = 4, .alignment = 8});
  auto* p = static_cast<unsigned char*>(pool.allocate());
  EXPECT_TRUE(std::all_of(p, p + 64, [](unsigned char c) { return c == debug::kFreshFill; }));
  pool.deallocate(p);
  // The first bytes hold the free-list links; everything after them carries the freed pattern.
  EXPECT_TRUE(std::all_of(p + PoolAllocator::kMinBlockSize, p + 64,
                          [](unsigned char c) { return c == debug::kFreedFill; }));
}

// deallocate() is noexcept, so its asserts cannot be tested with a throwing handler: the death
// tests below check each message against the real abort.
TEST(PoolAllocatorDeathTest, DoubleFreeAborts) {
  QUADPOOL_SKIP_UNLESS(debug::kSlotState, "slot state (QUADPOOL_MEMORY_SLOT_STATE)");
  EXPECT_DEATH(
      {
        PoolAllocator pool({.block_size = 32, .blocks_per_chunk = 4});
        void* p = pool.allocate();
        void* q = pool.allocate();
        pool.deallocate(p);
        pool.deallocate(q);
        pool.deallocate(p);
      },
      "double free");
}

TEST(PoolAllocatorDeathTest, DoubleFreeOfAnUnbumpedBlockAborts) {
  QUADPOOL_SKIP_UNLESS(debug::kSlotState, "slot state (QUADPOOL_MEMORY_SLOT_STATE)");
  EXPECT_DEATH(
      {
        PoolAllocator pool({.block_size = 32, .blocks_per_chunk = 4});
        void* p = pool.allocate();
        void* q = pool.allocate();
        (void)p;
        pool.deallocate(q);  // un-bumped
        pool.deallocate(q);
      },
      "double free");
}

TEST(PoolAllocatorDeathTest, ForeignPointerAborts) {
  QUADPOOL_SKIP_UNLESS(debug::kPointerChecks, "the pointer checks (QUADPOOL_MEMORY_POINTER_CHECKS)");
  EXPECT_DEATH(
      {
        PoolAllocator pool({.block_size = 32, .blocks_per_chunk = 4});
        PoolAllocator other({.block_size = 32, .blocks_per_chunk = 4});
        void* p = other.allocate();
        pool.deallocate(p);
      },
      "does not belong to this pool");
}

TEST(PoolAllocatorDeathTest, StackPointerAborts) {
  QUADPOOL_SKIP_UNLESS(debug::kPointerChecks, "the pointer checks (QUADPOOL_MEMORY_POINTER_CHECKS)");
  EXPECT_DEATH(
      {
        PoolAllocator pool({.block_size = 32, .blocks_per_chunk = 4});
        void* keep = pool.allocate();
        (void)keep;
        alignas(32) char on_stack[32];
        pool.deallocate(on_stack);
      },
      "does not belong to this pool");
}

TEST(PoolAllocatorDeathTest, MisalignedPointerInsideAChunkAborts) {
  QUADPOOL_SKIP_UNLESS(debug::kPointerChecks, "the pointer checks (QUADPOOL_MEMORY_POINTER_CHECKS)");
  EXPECT_DEATH(
      {
        PoolAllocator pool({.block_size = 32, .blocks_per_chunk = 4});
        auto* p = static_cast<char*>(pool.allocate());
        pool.deallocate(p + 8);
      },
      "misaligned");
}

TEST(PoolAllocatorDeathTest, FreeOfANeverAllocatedBlockAborts) {
  QUADPOOL_SKIP_UNLESS(debug::kSlotState, "slot state (QUADPOOL_MEMORY_SLOT_STATE)");
  EXPECT_DEATH(
      {
        PoolAllocator pool({.block_size = 32, .blocks_per_chunk = 4});
        auto* p = static_cast<char*>(pool.allocate());
        pool.deallocate(p + pool.stats().block_size);
      },
      "never allocated");
}

TEST(PoolAllocatorDeathTest, DestroyingAPoolWithLiveBlocksReportsTheLeakCount) {
  QUADPOOL_SKIP_UNLESS(debug::kLeakCheck, "the leak check (QUADPOOL_MEMORY_LEAK_CHECK)");
  EXPECT_DEATH(
      {
        PoolAllocator pool({.block_size = 32, .blocks_per_chunk = 4});
        (void)pool.allocate();
        (void)pool.allocate();
        (void)pool.allocate();
      },
      "destroyed with 3 live block");
}

#if defined(QUADPOOL_HAS_ASAN)
TEST(PoolAllocatorDeathTest, UseAfterFreeInsideThePoolIsReportedByAsan) {
  EXPECT_DEATH(
      {
        PoolAllocator pool({.block_size = 64, .blocks_per_chunk = 4});
        auto* p = static_cast<volatile char*>(pool.allocate());
        void* keep = pool.allocate();
        (void)keep;
        pool.deallocate(const_cast<char*>(p));
        p[20] = 1;
      },
      "use-after-poison");
}

TEST(PoolAllocatorDeathTest, UnbumpedBlocksArePoisonedUnderAsan) {
  EXPECT_DEATH(
      {
        PoolAllocator pool({.block_size = 64, .blocks_per_chunk = 4});
        void* keep = pool.allocate();
        (void)keep;
        auto* p = static_cast<volatile char*>(pool.allocate());
        pool.deallocate(const_cast<char*>(p));  // un-bumped, not pushed
        p[20] = 1;
      },
      "use-after-poison");
}

TEST(PoolAllocatorDeathTest, NeverUsedBlocksArePoisonedUnderAsan) {
  EXPECT_DEATH(
      {
        PoolAllocator pool({.block_size = 64, .blocks_per_chunk = 4});
        auto* p = static_cast<volatile char*>(pool.allocate());
        p[64 + 3] = 1;  // the next block, never handed out
      },
      "use-after-poison");
}
#endif

// --- randomised run against a model --------------------------------------------------------------

TEST(PoolAllocator, RandomSequencesMatchAModel) {
  const std::uint64_t seed = test::announce_seed("PoolAllocator.RandomSequencesMatchAModel", 0x9001);
  Random rng(seed);
  for (int round = 0; round < 20; ++round) {
    const std::size_t alignment = std::size_t{1} << rng.below(9);  // 1 .. 256
    const std::size_t requested = 1 + rng.below(200);
    const std::size_t per_chunk = 1 + rng.below(64);
    const Growth growth = rng.chance(0.3) ? Growth::Fixed : Growth::Grow;
    SCOPED_TRACE(::testing::Message() << "round " << round << " size " << requested << " align "
                                      << alignment << " per_chunk " << per_chunk);
    PoolAllocator pool({.block_size = requested,
                        .blocks_per_chunk = per_chunk,
                        .alignment = alignment,
                        .growth = growth});
    const std::size_t size = pool.stats().block_size;
    std::map<std::uintptr_t, unsigned char> live;  // block -> the byte it was filled with
    std::uint64_t allocs = 0, frees = 0;
    std::size_t high_water = 0;
    for (int step = 0; step < 4000; ++step) {
      const bool do_allocate = live.empty() || rng.chance(0.55);
      if (do_allocate) {
        void* p = pool.try_allocate();
        if (growth == Growth::Fixed && live.size() == per_chunk) {
          ASSERT_EQ(p, nullptr) << "a full Fixed pool returns nullptr";
          continue;
        }
        ASSERT_NE(p, nullptr);
        const std::uintptr_t a = address(p);
        ASSERT_EQ(a % alignment, 0u);
        ASSERT_TRUE(pool.owns(p));
        // No overlap with any live block: check the neighbours in address order.
        auto next = live.lower_bound(a);
        if (next != live.end()) {
          ASSERT_GE(next->first, a + size);
        }
        if (next != live.begin()) {
          ASSERT_LE(std::prev(next)->first + size, a);
        }
        const auto fill = static_cast<unsigned char>(rng.below(256));
        std::memset(p, fill, size);
        live.emplace(a, fill);
        ++allocs;
        high_water = std::max(high_water, live.size());
      } else {
        auto it = live.begin();
        std::advance(it, static_cast<std::ptrdiff_t>(rng.below(live.size())));
        const auto* p = reinterpret_cast<unsigned char*>(it->first);
        const unsigned char fill = it->second;
        ASSERT_TRUE(std::all_of(p, p + size, [fill](unsigned char c) { return c == fill; }))
            << "a live block's contents changed";
        pool.deallocate(reinterpret_cast<void*>(it->first));
        live.erase(it);
        ++frees;
      }
      const PoolStats s = pool.stats();
      ASSERT_EQ(s.blocks_in_use, live.size());
      ASSERT_EQ(s.total_allocations, allocs);
      ASSERT_EQ(s.total_deallocations, frees);
      ASSERT_EQ(s.high_water, high_water);
      ASSERT_EQ(s.capacity, s.chunks * per_chunk);
      ASSERT_GE(s.capacity, live.size());
    }
    for (const auto& [a, fill] : live) pool.deallocate(reinterpret_cast<void*>(a));
    expect_whole_capacity_comes_back(pool);
  }
}

}  // namespace
}  // namespace quadpool::memory
