// Tests of engine/memory/offset_allocator.*: best fit and its tie rule, alignment padding, the
// four merge cases of a free, extend, the deferred (per-frame) variant, the misuse asserts (death
// tests) and a differential run of 10^6 random operations against a reference model.
//
// Every test that keeps its allocator alive ends with the closing check: free everything, then
// the whole capacity must come back as one allocation at offset 0.
//
// Sections: helpers, basics, best fit, free: the four merge cases, extend, value semantics,
// differential test (and the fuzz corpus replay), DeferredOffsetAllocator, misuse: death tests.
#include "engine/memory/offset_allocator.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "common/heap_counter.hpp"
#include "engine/core/random.hpp"
#include "tests/helpers/assert_throws.hpp"
#include "tests/helpers/skip.hpp"
#include "tests/helpers/offset_allocator_model.hpp"

namespace quadpool::memory {
namespace {

// --- helpers -----------------------------------------------------------------------------------

using Block = std::pair<std::uint64_t, std::uint64_t>;  // offset, size

// An allocation's range, to compare without its handle.
Block block_of(const OffsetAllocation& allocation) { return {allocation.offset, allocation.size}; }

std::vector<Block> free_blocks(const OffsetAllocator& allocator) {
  std::vector<Block> blocks;
  allocator.for_each_free_block(
      [&blocks](std::uint64_t offset, std::uint64_t size) { blocks.emplace_back(offset, size); });
  return blocks;
}

// Frees `range` by its handle or by its offset and size.
void free_by(OffsetAllocator& allocator, const OffsetAllocation& range, bool by_handle) {
  if (by_handle) {
    allocator.free(range);
  } else {
    allocator.free(range.offset, range.size);
  }
}

// The closing check. The caller has freed everything it allocated.
void expect_whole_capacity_comes_back(OffsetAllocator& allocator) {
  allocator.validate();
  ASSERT_EQ(allocator.free_size(), allocator.capacity()) << "something is still allocated";
  const OffsetAllocation whole = allocator.allocate(allocator.capacity());
  EXPECT_EQ(block_of(whole), (Block{0, allocator.capacity()}));
  EXPECT_EQ(allocator.free_size(), 0u);
  allocator.free(whole.offset, whole.size);
  allocator.validate();
}

void expect_whole_capacity_comes_back(DeferredOffsetAllocator& deferred) {
  EXPECT_EQ(deferred.stale_size(), 0u);
  const std::uint64_t capacity = deferred.allocator().capacity();
  const OffsetAllocation whole = deferred.allocate(capacity);
  EXPECT_EQ(block_of(whole), (Block{0, capacity}));
  deferred.free_now(whole);
  deferred.allocator().validate();
}

// Carves a fresh `allocator` so that its free blocks are exactly `holes` (sorted, not touching
// each other or the end): allocates the whole capacity in consecutive pieces, then frees the
// holes in reverse offset order. Returns the live pieces.
std::vector<OffsetAllocation> carve(OffsetAllocator& allocator, const std::vector<Block>& holes) {
  std::vector<OffsetAllocation> live, hole_ranges;
  std::uint64_t cursor = 0;
  for (const Block& hole : holes) {
    if (hole.first > cursor) live.push_back(allocator.allocate(hole.first - cursor));
    hole_ranges.push_back(allocator.allocate(hole.second));
    cursor = hole.first + hole.second;
  }
  if (allocator.capacity() > cursor)
    live.push_back(allocator.allocate(allocator.capacity() - cursor));
  for (auto it = hole_ranges.rbegin(); it != hole_ranges.rend(); ++it)
    allocator.free(it->offset, it->size);
  EXPECT_EQ(free_blocks(allocator), holes);
  return live;
}

void free_all(OffsetAllocator& allocator, const std::vector<OffsetAllocation>& live) {
  for (const OffsetAllocation& a : live) allocator.free(a.offset, a.size);
}

// --- basics ------------------------------------------------------------------------------------

TEST(OffsetAllocator, ANewAllocatorIsOneFreeBlockCoveringTheCapacity) {
  OffsetAllocator allocator(1000);
  EXPECT_EQ(allocator.capacity(), 1000u);
  EXPECT_EQ(allocator.free_size(), 1000u);
  EXPECT_EQ(allocator.largest_free_block(), 1000u);
  EXPECT_EQ(allocator.free_block_count(), 1u);
  EXPECT_EQ(free_blocks(allocator), (std::vector<Block>{{0, 1000}}));
  expect_whole_capacity_comes_back(allocator);
}

TEST(OffsetAllocator, AZeroCapacityAllocatorHasNoFreeBlocksAndFailsEveryAllocation) {
  OffsetAllocator allocator(0);
  EXPECT_EQ(allocator.free_block_count(), 0u);
  EXPECT_EQ(allocator.largest_free_block(), 0u);
  EXPECT_EQ(block_of(allocator.allocate(1)), (Block{kNoSpace, 0}));
  allocator.validate();
  allocator.extend(64);
  expect_whole_capacity_comes_back(allocator);
}

TEST(OffsetAllocator, ConsecutiveAllocationsArePackedFromOffsetZero) {
  OffsetAllocator allocator(100);
  std::vector<OffsetAllocation> live;
  for (std::uint64_t i = 0; i < 10; ++i) {
    live.push_back(allocator.allocate(10));
    EXPECT_EQ(block_of(live.back()), (Block{i * 10, 10}));
  }
  EXPECT_EQ(allocator.free_size(), 0u);
  EXPECT_EQ(allocator.free_block_count(), 0u);
  EXPECT_EQ(block_of(allocator.allocate(1)), (Block{kNoSpace, 0}));
  free_all(allocator, live);
  expect_whole_capacity_comes_back(allocator);
}

TEST(OffsetAllocator, SizeZeroReturnsNoSpaceAndChangesNothing) {
  OffsetAllocator allocator(100);
  EXPECT_EQ(block_of(allocator.allocate(0)), (Block{kNoSpace, 0}));
  EXPECT_EQ(block_of(allocator.allocate(0, 64)), (Block{kNoSpace, 0}));
  EXPECT_EQ(allocator.free_size(), 100u);
  expect_whole_capacity_comes_back(allocator);
}

TEST(OffsetAllocator, ARequestLargerThanEveryBlockReturnsNoSpaceAndChangesNothing) {
  OffsetAllocator allocator(100);
  const auto live = carve(allocator, {{10, 20}, {50, 30}});
  EXPECT_EQ(block_of(allocator.allocate(31)), (Block{kNoSpace, 0}));
  EXPECT_EQ(block_of(allocator.allocate(std::numeric_limits<std::uint64_t>::max())),
            (Block{kNoSpace, 0}));
  EXPECT_EQ(free_blocks(allocator), (std::vector<Block>{{10, 20}, {50, 30}}));
  free_all(allocator, live);
  expect_whole_capacity_comes_back(allocator);
}

TEST(OffsetAllocator, AnAlignmentThatIsNotAPowerOfTwoThrowsInvalidArgument) {
  OffsetAllocator allocator(100);
  for (std::uint64_t bad : {std::uint64_t{0}, std::uint64_t{3}, std::uint64_t{6}, std::uint64_t{24},
                            std::uint64_t{100}}) {
    try {
      allocator.allocate(8, bad);
      ADD_FAILURE() << "alignment " << bad << " was accepted";
    } catch (const std::invalid_argument& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find("alignment " + std::to_string(bad)), std::string::npos) << message;
      EXPECT_NE(message.find("power of two"), std::string::npos) << message;
    }
  }
  EXPECT_EQ(allocator.free_size(), 100u);
  expect_whole_capacity_comes_back(allocator);
}

// --- best fit ----------------------------------------------------------------------------------

TEST(OffsetAllocator, BestFitTakesTheSmallestBlockThatFits) {
  OffsetAllocator allocator(100);
  auto live = carve(allocator, {{0, 30}, {40, 12}, {60, 20}});
  const OffsetAllocation a = allocator.allocate(11);
  EXPECT_EQ(a.offset, 40u) << "the 12-byte block is the smallest that holds 11 bytes";
  const OffsetAllocation b = allocator.allocate(13);
  EXPECT_EQ(b.offset, 60u) << "then the 20-byte block";
  live.push_back(a);
  live.push_back(b);
  free_all(allocator, live);
  expect_whole_capacity_comes_back(allocator);
}

TEST(OffsetAllocator, BestFitBreaksTiesTowardTheLowestOffset) {
  OffsetAllocator allocator(100);
  auto live = carve(allocator, {{5, 10}, {30, 10}, {60, 10}, {80, 15}});
  // carve() frees the holes from the highest offset down, so free order cannot explain this.
  EXPECT_EQ(allocator.allocate(10).offset, 5u);
  EXPECT_EQ(allocator.allocate(7).offset, 30u);
  EXPECT_EQ(allocator.allocate(10).offset, 60u);
  live.push_back({5, 10});
  live.push_back({30, 7});
  live.push_back({60, 10});
  free_all(allocator, live);
  expect_whole_capacity_comes_back(allocator);
}

TEST(OffsetAllocator, BestFitBreaksTiesPastTheBlockThatArrivedFirstInABin) {
  // 20 holes of 16 bytes and 20 of 600 or 601 bytes (one bin holds both sizes). carve() frees
  // them from the highest offset down, so the first of each bin to arrive, its inline entry, is
  // its highest offset, and the lower ones wait on the pending list until a search sorts them
  // into the treap (the smallest becoming the inline entry): the tie rule has to look past the
  // block that arrived first.
  std::vector<Block> holes;
  std::uint64_t cursor = 0;
  for (int i = 0; i < 20; ++i, cursor += 24) holes.push_back({cursor, 16});
  for (int i = 0; i < 20; ++i, cursor += 608) holes.push_back({cursor, i < 10 ? 601 : 600});
  OffsetAllocator allocator(cursor + 8);
  auto live = carve(allocator, holes);
  for (int i = 0; i < 20; ++i) {
    const OffsetAllocation a = allocator.allocate(16);
    EXPECT_EQ(a.offset, holes[static_cast<std::size_t>(i)].first) << i;
    live.push_back(a);
  }
  // The 600-byte holes first (the smaller size), lowest offset first, then the 601-byte ones.
  for (int i = 0; i < 20; ++i) {
    const OffsetAllocation a = allocator.allocate(600);
    EXPECT_EQ(a.offset, holes[static_cast<std::size_t>(20 + (i + 10) % 20)].first) << i;
    live.push_back(a);
    allocator.validate();
  }
  free_all(allocator, live);
  expect_whole_capacity_comes_back(allocator);
}

TEST(OffsetAllocator, LargestFreeBlockLooksAtTheInlineEntryAndTheSortedBlocksOfTheLastBin) {
  // 600 and 601 share a bin. carve() frees from the highest offset down, so the 601-byte hole
  // becomes the bin's inline entry and the 600-byte ones wait on the pending list; an aligned
  // request sorts the bin, which makes the lowest 600-byte hole the inline entry and puts the
  // 601-byte one into the treap. Before and after, the largest block is found.
  const std::vector<Block> holes{{0, 600}, {608, 600}, {1216, 600}, {1824, 601}};
  OffsetAllocator allocator(1824 + 608);
  auto live = carve(allocator, holes);
  EXPECT_EQ(allocator.largest_free_block(), 601u);
  live.push_back(allocator.allocate(600, 8));
  EXPECT_EQ(live.back().offset, 0u);
  EXPECT_EQ(allocator.largest_free_block(), 601u);
  free_all(allocator, live);
  expect_whole_capacity_comes_back(allocator);
}

TEST(OffsetAllocator, BinsOfBlocksTooLargeForAnInlineEntryKeepTheirOrder) {
  // Blocks of 2^32 bytes or more never take a bin's inline entry; their bins keep every block in
  // the pending list or the treap. Eleven holes of 2^33 + 2 * (i % 3) bytes (one bin), freed from
  // the highest offset down, then taken back smallest first, lowest offset first among equals.
  const std::uint64_t big = std::uint64_t{1} << 33;
  std::vector<Block> holes;
  std::uint64_t cursor = 0;
  for (std::uint64_t i = 0; i < 11; ++i, cursor += big + 64)
    holes.push_back({cursor, big + 2 * (i % 3)});
  OffsetAllocator allocator(cursor);
  auto live = carve(allocator, holes);
  allocator.validate();
  EXPECT_EQ(allocator.largest_free_block(), big + 4);
  std::vector<Block> expected = holes;
  std::stable_sort(expected.begin(), expected.end(),
                   [](const Block& a, const Block& b) { return a.second < b.second; });
  for (const Block& hole : expected) {
    const OffsetAllocation a = allocator.allocate(big);
    EXPECT_EQ(a.offset, hole.first);
    EXPECT_EQ(a.size, big);
    live.push_back(a);
    allocator.validate();
  }
  free_all(allocator, live);
  expect_whole_capacity_comes_back(allocator);
}

TEST(OffsetAllocator, BestFitSkipsASmallerBlockThatPaddingMakesTooSmall) {
  OffsetAllocator allocator(100);
  // 10 bytes at offset 1: big enough for 8 bytes, but not at a multiple of 8 (padding 7).
  auto live = carve(allocator, {{1, 10}, {30, 12}, {50, 40}});
  const OffsetAllocation a = allocator.allocate(8, 8);
  EXPECT_EQ(block_of(a), (Block{32, 8})) << "the 12-byte block at 30 holds 8 bytes at 32";
  // The 10-byte block still serves an unaligned request.
  const OffsetAllocation b = allocator.allocate(8);
  EXPECT_EQ(block_of(b), (Block{1, 8}));
  live.push_back(a);
  live.push_back(b);
  free_all(allocator, live);
  expect_whole_capacity_comes_back(allocator);
}

TEST(OffsetAllocator, AlignmentPaddingStaysFreeAsItsOwnBlock) {
  OffsetAllocator allocator(256);
  const OffsetAllocation first = allocator.allocate(3);
  const OffsetAllocation aligned = allocator.allocate(16, 64);
  EXPECT_EQ(block_of(aligned), (Block{64, 16}));
  EXPECT_EQ(free_blocks(allocator), (std::vector<Block>{{3, 61}, {80, 176}}));
  EXPECT_EQ(allocator.free_size(), 256u - 3 - 16) << "free_size counts the padding as free";
  // The padding is usable: a request that fits it goes there (it is the smaller block).
  const OffsetAllocation in_padding = allocator.allocate(60);
  EXPECT_EQ(in_padding.offset, 3u);
  allocator.free(in_padding.offset, in_padding.size);
  allocator.free(aligned.offset, aligned.size);
  EXPECT_EQ(free_blocks(allocator), (std::vector<Block>{{3, 253}}));
  allocator.free(first.offset, first.size);
  expect_whole_capacity_comes_back(allocator);
}

TEST(OffsetAllocator, AnAllocationThatFillsItsBlockAfterPaddingLeavesOnlyThePadding) {
  OffsetAllocator allocator(100);
  auto live = carve(allocator, {{5, 27}});
  const OffsetAllocation a = allocator.allocate(24, 8);
  EXPECT_EQ(block_of(a), (Block{8, 24}));
  EXPECT_EQ(free_blocks(allocator), (std::vector<Block>{{5, 3}}));
  live.push_back(a);
  free_all(allocator, live);
  expect_whole_capacity_comes_back(allocator);
}

TEST(OffsetAllocator, HugeAlignmentsAndSizesNearTwoToThe64DoNotOverflow) {
  OffsetAllocator allocator(std::numeric_limits<std::uint64_t>::max());
  const OffsetAllocation one = allocator.allocate(1);
  EXPECT_EQ(block_of(one), (Block{0, 1}));
  const std::uint64_t top = std::uint64_t{1} << 63;
  const OffsetAllocation high = allocator.allocate(top - 1, top);
  EXPECT_EQ(block_of(high), (Block{top, top - 1})) << "ends exactly at 2^64 - 1";
  EXPECT_EQ(block_of(allocator.allocate(2, top)), (Block{kNoSpace, 0}));
  EXPECT_EQ(block_of(allocator.allocate(top, 1)), (Block{kNoSpace, 0}));
  EXPECT_THROW(allocator.extend(1), std::invalid_argument);
  allocator.free(one.offset, one.size);
  allocator.free(high.offset, high.size);
  expect_whole_capacity_comes_back(allocator);
}

// --- free: the four merge cases ----------------------------------------------------------------

// Five live 10-byte pieces covering [0, 50), freed by index.
struct FivePieces {
  OffsetAllocator allocator{50};
  std::vector<OffsetAllocation> live;

  FivePieces() {
    for (int i = 0; i < 5; ++i) live.push_back(allocator.allocate(10));
  }
  void free(std::initializer_list<std::size_t> indices) {
    for (const std::size_t i : indices) {
      allocator.free(live[i].offset, live[i].size);
      live[i] = {kNoSpace, 0};
    }
  }
  void free_the_rest_and_close() {
    for (const OffsetAllocation& piece : live) {
      if (piece.offset != kNoSpace) allocator.free(piece.offset, piece.size);
    }
    expect_whole_capacity_comes_back(allocator);
  }
};

TEST(OffsetAllocator, AFreeBetweenLiveRangesBecomesANewBlock) {
  FivePieces pieces;
  pieces.free({1, 3});
  EXPECT_EQ(free_blocks(pieces.allocator), (std::vector<Block>{{10, 10}, {30, 10}}));
  pieces.free_the_rest_and_close();
}

TEST(OffsetAllocator, AFreeRightAfterAFreeBlockMergesIntoIt) {
  FivePieces pieces;
  pieces.free({1, 2});
  EXPECT_EQ(free_blocks(pieces.allocator), (std::vector<Block>{{10, 20}}));
  pieces.free_the_rest_and_close();
}

TEST(OffsetAllocator, AFreeRightBeforeAFreeBlockMergesIntoIt) {
  FivePieces pieces;
  pieces.free({2, 1});
  EXPECT_EQ(free_blocks(pieces.allocator), (std::vector<Block>{{10, 20}}));
  EXPECT_EQ(pieces.allocator.largest_free_block(), 20u);
  pieces.free_the_rest_and_close();
}

TEST(OffsetAllocator, AFreeBetweenTwoFreeBlocksMergesAllThree) {
  FivePieces pieces;
  pieces.free({1, 3});
  pieces.free({2});
  EXPECT_EQ(free_blocks(pieces.allocator), (std::vector<Block>{{10, 30}}));
  EXPECT_EQ(pieces.allocator.free_block_count(), 1u);
  pieces.free_the_rest_and_close();
}

// --- extend ------------------------------------------------------------------------------------

TEST(OffsetAllocator, ExtendGrowsAFreeBlockThatEndsAtTheCapacity) {
  OffsetAllocator allocator(100);
  const OffsetAllocation a = allocator.allocate(60);
  allocator.extend(50);
  EXPECT_EQ(allocator.capacity(), 150u);
  EXPECT_EQ(free_blocks(allocator), (std::vector<Block>{{60, 90}}));
  allocator.extend(0);
  EXPECT_EQ(allocator.capacity(), 150u);
  allocator.free(a.offset, a.size);
  expect_whole_capacity_comes_back(allocator);
}

TEST(OffsetAllocator, ExtendAddsABlockWhenTheEndIsLive) {
  OffsetAllocator allocator(100);
  const OffsetAllocation a = allocator.allocate(100);
  allocator.extend(28);
  EXPECT_EQ(free_blocks(allocator), (std::vector<Block>{{100, 28}}));
  EXPECT_EQ(block_of(allocator.allocate(28)), (Block{100, 28}));
  allocator.free(100, 28);
  allocator.free(a.offset, a.size);
  EXPECT_EQ(allocator.free_block_count(), 1u) << "the old and the new space merge";
  expect_whole_capacity_comes_back(allocator);
}

TEST(OffsetAllocator, ExtendPastTwoToThe64ThrowsAndNamesTheLimit) {
  OffsetAllocator allocator(std::numeric_limits<std::uint64_t>::max() - 10);
  try {
    allocator.extend(11);
    ADD_FAILURE() << "extend overflowed silently";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("2^64 - 1"), std::string::npos) << e.what();
  }
  allocator.extend(10);
  EXPECT_EQ(allocator.capacity(), std::numeric_limits<std::uint64_t>::max());
  expect_whole_capacity_comes_back(allocator);
}

// --- value semantics ---------------------------------------------------------------------------

TEST(OffsetAllocator, ACopyIsIndependentOfItsOriginal) {
  OffsetAllocator original(100);
  const OffsetAllocation a = original.allocate(40);
  OffsetAllocator copy = original;
  const OffsetAllocation b = copy.allocate(10);
  EXPECT_EQ(original.free_size(), 60u);
  EXPECT_EQ(copy.free_size(), 50u);
  OffsetAllocator moved = std::move(copy);
  moved.validate();
  moved.free(b.offset, b.size);
  moved.free(a.offset, a.size);
  original.free(a.offset, a.size);
  expect_whole_capacity_comes_back(moved);
  expect_whole_capacity_comes_back(original);
}

// --- handles -----------------------------------------------------------------------------------

TEST(OffsetAllocator, AFreeByHandleMergesLikeAFreeByOffset) {
  OffsetAllocator allocator(100);
  const OffsetAllocation a = allocator.allocate(10);
  const OffsetAllocation b = allocator.allocate(20);
  const OffsetAllocation c = allocator.allocate(30);
  allocator.free(b);  // between two live ranges: a block of its own
  EXPECT_EQ(free_blocks(allocator), (std::vector<Block>{{10, 20}, {60, 40}}));
  allocator.free(c);  // merges with both free neighbours
  EXPECT_EQ(free_blocks(allocator), (std::vector<Block>{{10, 90}}));
  allocator.validate();
  allocator.free(a);
  expect_whole_capacity_comes_back(allocator);
}

TEST(OffsetAllocator, HandlesStillFreeAfterAFreeByOffsetBuildsTheLiveTable) {
  OffsetAllocator allocator(1000);
  std::vector<OffsetAllocation> live;
  for (int i = 0; i < 20; ++i) live.push_back(allocator.allocate(10 + i));
  allocator.free(live[3].offset, live[3].size);  // builds the table from the 20 live ranges
  const OffsetAllocation later = allocator.allocate(5);
  allocator.validate();
  for (std::size_t i = 0; i < live.size(); ++i) {
    if (i == 3) continue;
    free_by(allocator, live[i], i % 2 == 0);
    allocator.validate();
  }
  allocator.free(later.offset, later.size);  // entered into the table by allocate
  expect_whole_capacity_comes_back(allocator);
}

TEST(OffsetAllocator, AHandleFreesItsRangeInACopyOfTheAllocator) {
  OffsetAllocator original(100);
  const OffsetAllocation a = original.allocate(40);
  OffsetAllocator copy = original;
  copy.free(a);
  original.free(a);
  expect_whole_capacity_comes_back(copy);
  expect_whole_capacity_comes_back(original);
}

// Release builds keep only the node in a handle, and check what costs no extra load: that the
// node is a live block at the allocation's offset.
TEST(OffsetAllocator, WithoutAssertsAFreeByABadHandleIsIgnored) {
  QUADPOOL_SKIP_UNLESS(!kAssertsEnabled, "ignoring a bad free (asserts off)");
  OffsetAllocator allocator(100);
  const OffsetAllocation a = allocator.allocate(10);
  const OffsetAllocation b = allocator.allocate(20);
  allocator.free(a);
  allocator.free(a);                             // double free
  allocator.free(OffsetAllocation{10, 20});      // no handle
  allocator.free(allocator.allocate(1000));      // a failed allocation
  allocator.free(OffsetAllocation{0, 20, b.handle});  // b's handle, another offset
  allocator.validate();
  EXPECT_EQ(allocator.free_size(), 80u);
  allocator.free(b);
  expect_whole_capacity_comes_back(allocator);
}

// --- differential test -------------------------------------------------------------------------

struct RandomChoices {
  Random& random;
  std::uint64_t below(std::uint64_t bound) { return random.below(bound); }
};

// Runs `steps` random operations of `run`, then its closing check. Returns "" when the allocator
// agreed with the model throughout, else the step and the first disagreement.
std::string run_episode(test::OffsetAllocatorDifferential& run, RandomChoices& choices,
                        int steps) {
  for (int step = 0; step < steps; ++step) {
    std::string error;
    try {
      error = run.step(choices);
    } catch (const test::AssertionError& e) {
      error = std::string("assert: ") + e.what();
    }
    if (!error.empty()) return "step " + std::to_string(step) + ": " + error;
  }
  const std::string error = run.finish();
  return error.empty() ? "" : "closing check: " + error;
}

// 10^6 operations in 10 episodes on small capacities, so that the linear model stays cheap and
// the allocator runs into failures, fragmentation and large alignments often. Every step
// compares success, offset, every free block, the sizes and the stale bytes, and runs validate().
TEST(OffsetAllocator, MatchesAReferenceModelOverAMillionRandomOperations) {
  const test::ScopedThrowingAsserts
      throwing;  // a failed validate() reports its step instead of dying
  const unsigned long long seed = test::announce_seed("OffsetAllocator differential", 20261121);
  Random random(seed);
  RandomChoices choices{random};
  constexpr int kEpisodes = 10;
  constexpr int kStepsPerEpisode = 100'000;
  test::OffsetAllocatorDifferential::Counts total;
  for (int episode = 0; episode < kEpisodes; ++episode) {
    // Even episodes free by handle only, odd ones by handle or by offset.
    const test::FreeBy free_by =
        episode % 2 == 0 ? test::FreeBy::kHandle : test::FreeBy::kHandleOrOffset;
    test::OffsetAllocatorDifferential run(1 + random.below(4096), 8192, 1, free_by);
    ASSERT_EQ(run_episode(run, choices, kStepsPerEpisode), "")
        << "episode " << episode << ", seed " << seed;
    const auto& c = run.counts();
    total.allocations += c.allocations;
    total.failed_allocations += c.failed_allocations;
    total.aligned_allocations += c.aligned_allocations;
    total.frees += c.frees;
    total.offset_frees += c.offset_frees;
    total.deferred_frees += c.deferred_frees;
    total.releases += c.releases;
    total.extends += c.extends;
  }
  std::printf(
      "[ counts   ] %llu allocations (%llu aligned), %llu failed, %llu frees (%llu by offset), "
      "%llu deferred frees, %llu releases, %llu extends\n",
      static_cast<unsigned long long>(total.allocations),
      static_cast<unsigned long long>(total.aligned_allocations),
      static_cast<unsigned long long>(total.failed_allocations),
      static_cast<unsigned long long>(total.frees),
      static_cast<unsigned long long>(total.offset_frees),
      static_cast<unsigned long long>(total.deferred_frees),
      static_cast<unsigned long long>(total.releases),
      static_cast<unsigned long long>(total.extends));
  // The mix must really exercise every operation, or the comparison proves little.
  EXPECT_GT(total.failed_allocations, 10'000u);
  EXPECT_GT(total.aligned_allocations, 10'000u);
  EXPECT_GT(total.deferred_frees, 10'000u);
  EXPECT_GT(total.offset_frees, 10'000u);
  EXPECT_GT(total.frees - total.offset_frees, 10'000u);
  EXPECT_GT(total.extends, 100u);
}

// Log-uniform sizes in [16, 4096), as the OffsetFit benchmark draws them: every octave equally
// likely, so the free space fills with slivers and blocks of every size class.
std::uint64_t log_uniform_size(Random& random) {
  return static_cast<std::uint64_t>(16.0 * std::exp2(8.0 * random.unit_double()));
}

// One request in 4 of a few common sizes: many free blocks of equal size crowd the same bins,
// which then hold more blocks than a search scans, and the tie rule decides among them.
std::uint64_t mixed_size(Random& random) {
  constexpr std::uint64_t kCommon[] = {32, 48, 64, 256};
  return random.below(4) == 0 ? kCommon[random.below(4)] : log_uniform_size(random);
}

// The differential test above runs on small spaces; this one runs the benchmark's workload (2000
// live ranges in 1.02 times their expected bytes, so allocations fail often) with common sizes
// mixed in, where bins hold many blocks, are sorted lazily and are scanned, and checks every
// offset against brute-force best fit: the size classes must not change a single answer.
TEST(OffsetAllocator, MatchesAReferenceModelOnRangesOfGigabytes) {
  // The same mix with every size, alignment and extension in units of 2^30 bytes: ranges from
  // 1 GB to 4 TB, on both sides of 2^32 bytes, where bins keep their blocks without an inline
  // entry and sizes no longer fit 32 bits.
  const test::ScopedThrowingAsserts throwing;
  const unsigned long long seed =
      test::announce_seed("OffsetAllocator differential in gigabytes", 20261123);
  Random random(seed);
  RandomChoices choices{random};
  constexpr std::uint64_t kUnit = std::uint64_t{1} << 30;
  test::OffsetAllocatorDifferential::Counts total;
  for (int episode = 0; episode < 4; ++episode) {
    test::OffsetAllocatorDifferential run(kUnit * (1 + random.below(4096)), kUnit * 8192, kUnit);
    ASSERT_EQ(run_episode(run, choices, 25'000), "") << "episode " << episode << ", seed " << seed;
    total.allocations += run.counts().allocations;
    total.aligned_allocations += run.counts().aligned_allocations;
  }
  EXPECT_GT(total.allocations, 20'000u);
  EXPECT_GT(total.aligned_allocations, 5'000u);
}

// Run once freeing by handle, once by offset and size: the two frees must leave the same blocks.
TEST(OffsetAllocator, ReturnsTheModelsOffsetsOnTheBenchmarkWorkload) {
  const unsigned long long seed = test::announce_seed("OffsetAllocator churn", 20261122);
  for (const bool by_handle : {true, false}) {
  SCOPED_TRACE(by_handle ? "freeing by handle" : "freeing by offset");
  Random random(seed);
  constexpr std::size_t kLive = 2000;
  constexpr std::size_t kSteps = 20 * kLive;
  // 1.02 times the expected live bytes: the mean of mixed_size() is 3/4 of the log-uniform mean
  // plus 1/4 of the common sizes' mean, 100.
  const double mean_size = 0.75 * 4080.0 / std::log(256.0) + 0.25 * 100.0;
  const auto capacity = static_cast<std::uint64_t>(1.02 * kLive * mean_size);
  OffsetAllocator allocator(capacity);
  test::OffsetAllocatorModel model(capacity);
  std::vector<OffsetAllocation> live(kLive, OffsetAllocation{kNoSpace, 0});
  std::uint64_t failed = 0, aligned = 0;
  for (std::size_t step = 0; step < kLive + kSteps; ++step) {
    // The first kLive steps fill the slots in order, then random slots are freed and refilled.
    OffsetAllocation& slot = live[step < kLive ? step : random.below(kLive)];
    if (slot.offset != kNoSpace) {
      free_by(allocator, slot, by_handle);
      ASSERT_TRUE(model.vacate({slot.offset, slot.size}));
    }
    const std::uint64_t size = mixed_size(random);
    // One allocation in 8 asks for an alignment from 2 to 256.
    const std::uint64_t alignment =
        random.below(8) == 0 ? std::uint64_t{2} << random.below(8) : std::uint64_t{1};
    slot = allocator.allocate(size, alignment);
    ASSERT_EQ(slot.offset, model.best_fit(size, alignment))
        << "step " << step << ", size " << size << ", alignment " << alignment << ", seed "
        << seed;
    if (slot.offset == kNoSpace) {
      ++failed;
    } else {
      ASSERT_TRUE(model.occupy({slot.offset, slot.size}));
      aligned += alignment > 1;
    }
    if (step % 4096 == 0) allocator.validate();
  }
  std::printf("[ counts   ] %llu failed allocations, %llu aligned ones, %zu free blocks\n",
              static_cast<unsigned long long>(failed), static_cast<unsigned long long>(aligned),
              allocator.free_block_count());
  EXPECT_GT(failed, 100u) << "the space was meant to be tight";
  EXPECT_GT(aligned, 1000u);
  for (const OffsetAllocation& range : live) {
    if (range.offset != kNoSpace) free_by(allocator, range, by_handle);
  }
  expect_whole_capacity_comes_back(allocator);
  }
}

TEST(OffsetAllocator, ASteadyChurnMakesNoHeapAllocations) {
  for (const bool by_handle : {true, false}) {
  SCOPED_TRACE(by_handle ? "freeing by handle" : "freeing by offset");
  constexpr std::size_t kLive = 5000;
  OffsetAllocator allocator(static_cast<std::uint64_t>(1.10 * kLive * 4080.0 / std::log(256.0)));
  Random random(11);
  std::vector<OffsetAllocation> live(kLive, OffsetAllocation{kNoSpace, 0});
  auto churn = [&](std::size_t steps) {
    for (std::size_t i = 0; i < steps; ++i) {
      OffsetAllocation& slot = live[random.below(kLive)];
      if (slot.offset != kNoSpace) free_by(allocator, slot, by_handle);
      slot = allocator.allocate(log_uniform_size(random), random.below(4) == 0 ? 16 : 1);
    }
  };
  churn(20 * kLive);  // the arrays reach their high-water mark
  const std::uint64_t heap_before = heap_allocations();
  churn(20 * kLive);
  EXPECT_EQ(heap_allocations() - heap_before, 0u)
      << "allocate and free in steady state must not touch the heap";
  for (const OffsetAllocation& range : live) {
    if (range.offset != kNoSpace) free_by(allocator, range, by_handle);
  }
  expect_whole_capacity_comes_back(allocator);
  }
}

// The fuzz target's committed seeds, replayed through the same driver in every test build (the
// fuzz build needs clang and libFuzzer; this needs neither).
TEST(OffsetAllocator, ReplaysEveryCommittedFuzzInputWithoutADisagreement) {
  const test::ScopedThrowingAsserts throwing;
  const std::filesystem::path corpus = std::filesystem::path(QUADPOOL_SOURCE_DIR) / "tests" / "fuzz" /
                                       "corpus" / "offset_allocator";
  // A missing corpus is a broken checkout, not a reason to pass.
  ASSERT_TRUE(std::filesystem::is_directory(corpus)) << "no fuzz corpus at " << corpus;
  std::size_t replayed = 0;
  for (const auto& entry : std::filesystem::directory_iterator(corpus)) {
    std::ifstream file(entry.path(), std::ios::binary);
    const std::vector<char> bytes((std::istreambuf_iterator<char>(file)),
                                  std::istreambuf_iterator<char>());
    std::string error;
    try {
      error = test::run_offset_allocator_input(reinterpret_cast<const std::uint8_t*>(bytes.data()),
                                               bytes.size());
    } catch (const test::AssertionError& e) {
      error = std::string("assert: ") + e.what();
    }
    EXPECT_EQ(error, "") << entry.path();
    ++replayed;
  }
  EXPECT_GE(replayed, 10u) << "the committed corpus at " << corpus << " looks truncated";
}

// --- DeferredOffsetAllocator -------------------------------------------------------------------

TEST(DeferredOffsetAllocator, AFreedRangeIsNotReusedUntilItsFrameCompletes) {
  DeferredOffsetAllocator stream(100);
  const OffsetAllocation a = stream.allocate(100);
  stream.free(a, 5);
  EXPECT_EQ(stream.stale_size(), 100u);
  EXPECT_EQ(block_of(stream.allocate(1)), (Block{kNoSpace, 0}));
  stream.release_completed_frames(5);  // frames 0..4 done: frame 5 may still be reading
  EXPECT_EQ(block_of(stream.allocate(1)), (Block{kNoSpace, 0}));
  stream.release_completed_frames(6);
  EXPECT_EQ(stream.stale_size(), 0u);
  expect_whole_capacity_comes_back(stream);
}

TEST(DeferredOffsetAllocator, ReleasesEveryFrameBelowTheCompletedCountAndNoOther) {
  DeferredOffsetAllocator stream(100);
  std::vector<OffsetAllocation> ranges;
  for (int i = 0; i < 5; ++i) ranges.push_back(stream.allocate(10));
  for (std::uint64_t frame = 0; frame < 5; ++frame) stream.free(ranges[frame], frame);
  EXPECT_EQ(stream.stale_count(), 5u);
  stream.release_completed_frames(3);
  EXPECT_EQ(stream.stale_count(), 2u);
  EXPECT_EQ(stream.stale_size(), 20u);
  EXPECT_EQ(free_blocks(stream.allocator()), (std::vector<Block>{{0, 30}, {50, 50}}));
  stream.release_completed_frames(2);  // going back changes nothing
  EXPECT_EQ(stream.stale_count(), 2u);
  stream.release_completed_frames(5);
  EXPECT_EQ(stream.stale_count(), 0u);
  expect_whole_capacity_comes_back(stream);
}

TEST(DeferredOffsetAllocator, FreesNamingAnEarlierFrameAreReleasedWithThatFrame) {
  DeferredOffsetAllocator stream(100);
  const OffsetAllocation a = stream.allocate(10), b = stream.allocate(10), c = stream.allocate(10);
  stream.free(a, 7);
  stream.free(b, 3);  // out of order
  stream.free(c, 7);
  stream.release_completed_frames(4);
  EXPECT_EQ(stream.stale_size(), 20u);
  EXPECT_EQ(free_blocks(stream.allocator()), (std::vector<Block>{{10, 10}, {30, 70}}));
  stream.release_completed_frames(8);
  expect_whole_capacity_comes_back(stream);
}

TEST(DeferredOffsetAllocator, FreeNowReturnsARangeAtOnce) {
  DeferredOffsetAllocator stream(64);
  const OffsetAllocation a = stream.allocate(64);
  stream.free_now(a);
  EXPECT_EQ(stream.stale_size(), 0u);
  EXPECT_EQ(stream.allocator().free_size(), 64u);
  expect_whole_capacity_comes_back(stream);
}

TEST(DeferredOffsetAllocator, ASteadyFrameLoopMakesNoHeapAllocations) {
  DeferredOffsetAllocator stream(4 << 20);
  Random random(7);
  std::vector<OffsetAllocation> frame_ranges;
  frame_ranges.reserve(256);
  std::uint64_t heap_before = 0;
  constexpr std::uint64_t kWarmUpFrames = 200, kFrames = 400, kFramesInFlight = 3;
  for (std::uint64_t frame = 0; frame < kFrames; ++frame) {
    if (frame == kWarmUpFrames) heap_before = heap_allocations();
    frame_ranges.clear();
    const std::uint64_t count = 50 + random.below(150);
    for (std::uint64_t i = 0; i < count; ++i) {
      const OffsetAllocation range = stream.allocate(64 + random.below(2048), 16);
      ASSERT_NE(range.offset, kNoSpace) << "frame " << frame;
      frame_ranges.push_back(range);
    }
    for (const OffsetAllocation& range : frame_ranges) stream.free(range, frame);
    // Frames frame, frame - 1 and frame - 2 may still be read; all before them have completed.
    if (frame + 1 >= kFramesInFlight) stream.release_completed_frames(frame + 1 - kFramesInFlight);
  }
  EXPECT_EQ(heap_allocations() - heap_before, 0u)
      << "a frame loop in steady state must not touch the heap";
  stream.release_completed_frames(kFrames);
  expect_whole_capacity_comes_back(stream);
}

// --- misuse: death tests -----------------------------------------------------------------------
// The default handler logs the message and aborts; each test checks the message.

class OffsetAllocatorDeathTest : public ::testing::Test {
 protected:
  void SetUp() override {
    QUADPOOL_SKIP_WITHOUT_ASSERTS();
  }
};

TEST_F(OffsetAllocatorDeathTest, AFreeOutsideTheCapacityAborts) {
  EXPECT_DEATH(
      {
        OffsetAllocator allocator(100);
        allocator.allocate(100);
        allocator.free(90, 20);
      },
      "outside the capacity \\[0, 100\\)");
  EXPECT_DEATH(
      {
        OffsetAllocator allocator(100);
        allocator.free(std::numeric_limits<std::uint64_t>::max() - 1, 2);
      },
      "outside the capacity");
}

TEST_F(OffsetAllocatorDeathTest, ADoubleFreeAborts) {
  EXPECT_DEATH(
      {
        OffsetAllocator allocator(100);
        const OffsetAllocation a = allocator.allocate(10);
        allocator.allocate(10);
        allocator.free(a.offset, a.size);
        allocator.free(a.offset, a.size);
      },
      "double free.*overlaps the free block \\[0, 10\\)");
}

TEST_F(OffsetAllocatorDeathTest, AFreeThatPartlyOverlapsAFreeBlockAborts) {
  EXPECT_DEATH(
      {
        OffsetAllocator allocator(100);
        allocator.allocate(50);
        allocator.free(40, 20);  // [50, 100) is free
      },
      "double free.*\\[50, 100\\)");
  EXPECT_DEATH(
      {
        OffsetAllocator allocator(100);
        const OffsetAllocation a = allocator.allocate(50);
        allocator.allocate(50);
        allocator.free(a.offset, a.size);
        allocator.free(45, 10);  // [0, 50) is free
      },
      "double free.*\\[0, 50\\)");
}

TEST_F(OffsetAllocatorDeathTest, AFreeOfARangeThatWasNeverAllocatedAborts) {
  EXPECT_DEATH(
      {
        OffsetAllocator allocator(100);
        allocator.allocate(100);
        allocator.free(10, 20);  // inside a live range, overlapping no free block
      },
      "no live range starts at 10");
}

TEST_F(OffsetAllocatorDeathTest, AFreeWithAnotherSizeThanAllocatedAborts) {
  EXPECT_DEATH(
      {
        OffsetAllocator allocator(100);
        allocator.allocate(100);
        allocator.free(0, 40);
      },
      "allocated at 0 has 100 bytes");
}

TEST_F(OffsetAllocatorDeathTest, AFreeOfSizeZeroAborts) {
  EXPECT_DEATH(
      {
        OffsetAllocator allocator(100);
        allocator.allocate(10);
        allocator.free(0, 0);
      },
      "size 0");
}

TEST_F(OffsetAllocatorDeathTest, FreeingAFailedAllocationAborts) {
  EXPECT_DEATH(
      {
        OffsetAllocator allocator(100);
        const OffsetAllocation failed = allocator.allocate(1000);
        allocator.free(failed.offset, 1000);
      },
      "kNoSpace");
}

TEST_F(OffsetAllocatorDeathTest, ADoubleFreeByHandleAborts) {
  EXPECT_DEATH(
      {
        OffsetAllocator allocator(100);
        const OffsetAllocation a = allocator.allocate(10);
        allocator.allocate(10);
        allocator.free(a);
        allocator.free(a);
      },
      "double free, the range was freed already");
}

TEST_F(OffsetAllocatorDeathTest, AStaleHandleAborts) {
  EXPECT_DEATH(
      {
        OffsetAllocator allocator(100);
        const OffsetAllocation a = allocator.allocate(10);
        allocator.free(a);
        const OffsetAllocation b = allocator.allocate(10);  // the same block, the same offset
        if (b.offset != a.offset || b.handle.node != a.handle.node) std::abort();
        allocator.free(a);
      },
      "stale handle");
}

TEST_F(OffsetAllocatorDeathTest, AHandleFromAnotherAllocatorAborts) {
  EXPECT_DEATH(
      {
        OffsetAllocator mine(100);
        OffsetAllocator other(100);
        const OffsetAllocation a = other.allocate(10);
        mine.allocate(10);
        mine.free(a);
      },
      "another allocator");
}

TEST_F(OffsetAllocatorDeathTest, AHandleWithAChangedRangeAborts) {
  EXPECT_DEATH(
      {
        OffsetAllocator allocator(100);
        OffsetAllocation a = allocator.allocate(10);
        a.size = 5;
        allocator.free(a);
      },
      "the handle names the range \\[0, \\+10\\)");
}

TEST_F(OffsetAllocatorDeathTest, AnAllocationWithoutAHandleAborts) {
  EXPECT_DEATH(
      {
        OffsetAllocator allocator(100);
        allocator.allocate(10);
        allocator.free(OffsetAllocation{0, 10});
      },
      "no handle");
  EXPECT_DEATH(
      {
        OffsetAllocator allocator(100);
        allocator.free(allocator.allocate(1000));
      },
      "kNoSpace");
}

TEST_F(OffsetAllocatorDeathTest, ADeferredFreeOfAStaleHandleAbortsAtOnce) {
  EXPECT_DEATH(
      {
        DeferredOffsetAllocator stream(100);
        const OffsetAllocation a = stream.allocate(10);
        stream.free_now(a);
        stream.allocate(10);
        stream.free(a, 0);
      },
      "stale handle");
}

TEST_F(OffsetAllocatorDeathTest, ARangeDeferredTwiceAbortsWhenReleased) {
  EXPECT_DEATH(
      {
        DeferredOffsetAllocator stream(100);
        const OffsetAllocation a = stream.allocate(10);
        stream.allocate(90);
        stream.free(a, 0);
        stream.free(a, 1);
        stream.release_completed_frames(2);
      },
      "double free");
}

}  // namespace
}  // namespace quadpool::memory
