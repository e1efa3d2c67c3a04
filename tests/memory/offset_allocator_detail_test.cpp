// Tests of OffsetAllocator's implementation details that the allocator's own tests reach only by
// chance: the size classes of engine/memory/detail/offset_bins.hpp and the bucket overflow of the
// live table in engine/memory/detail/offset_live_table.hpp.
#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

#include <gtest/gtest.h>

#include "engine/core/random.hpp"
#include "engine/memory/detail/offset_bins.hpp"
#include "engine/memory/detail/offset_live_table.hpp"

namespace quadpool::memory::detail {
namespace {

// The definition, written the long way: exact below 2^kMantissaBits, then kMantissaBits bits of
// mantissa per octave.
std::uint32_t reference_bin(std::uint64_t size) {
  int exponent = 63;
  while ((size >> exponent) == 0) --exponent;
  if (exponent < kMantissaBits) return static_cast<std::uint32_t>(size);
  const int shift = exponent - kMantissaBits;
  const auto mantissa = static_cast<std::uint32_t>((size >> shift) - (std::uint64_t{1} << kMantissaBits));
  return (static_cast<std::uint32_t>(shift + 1) << kMantissaBits) + mantissa;
}

TEST(OffsetBins, BinOfIsTheFloatingPointBucketOfTheSize) {
  for (std::uint64_t size = 1; size < (std::uint64_t{1} << 16); ++size)
    ASSERT_EQ(bin_of(size), reference_bin(size)) << size;
  for (int exponent = 16; exponent < 64; ++exponent) {
    const std::uint64_t power = std::uint64_t{1} << exponent;
    for (const std::uint64_t size : {power - 1, power, power + 1, power + power / 3, 2 * (power - 1) + 1})
      ASSERT_EQ(bin_of(size), reference_bin(size)) << size;
  }
  EXPECT_EQ(bin_of(~std::uint64_t{0}), kBinCount - 1);
}

TEST(OffsetLiveTable, FindsEveryEntryWhenItsHomeBucketOverflows) {
  // Offsets that all hash to the first of the table's 4 buckets (the table's own Fibonacci hash,
  // top 2 bits 0), so that a bucket of 7 ways overflows into the next ones and erases in any
  // order must keep the overflow counts right.
  std::vector<std::uint64_t> offsets;
  for (std::uint64_t offset = 0; offsets.size() < 24; ++offset) {
    if (((offset * 0x9E3779B97F4A7C15ull) >> 62) == 0) offsets.push_back(offset);
  }
  auto offset_of = [&offsets](std::uint32_t node) { return offsets[node]; };

  OffsetLiveTable table;
  table.reserve(14);  // 4 buckets of 7 ways, at most half full
  std::map<std::uint32_t, bool> live;  // node (index into offsets) -> in the table
  Random rng(7);
  for (int step = 0; step < 20'000; ++step) {
    const auto node = static_cast<std::uint32_t>(rng.below(offsets.size()));
    const std::size_t slot = table.find_slot(offsets[node], offset_of);
    if (live[node]) {
      ASSERT_NE(slot, OffsetLiveTable::kNoSlot) << "step " << step;
      ASSERT_EQ(table.node_at(slot), node);
      table.erase_at(slot);
      live[node] = false;
    } else {
      ASSERT_EQ(slot, OffsetLiveTable::kNoSlot) << "step " << step;
      if (!table.has_room_for(table.size() + 1)) continue;
      table.insert(offsets[node], node);
      live[node] = true;
    }
    ASSERT_TRUE(table.overflow_counts_agree()) << "step " << step;
    for (const auto& [other, in_table] : live) {
      ASSERT_EQ(table.find(offsets[other], offset_of), in_table ? other : OffsetLiveTable::kNone)
          << "step " << step << ", node " << other;
    }
  }
  EXPECT_GT(table.size(), 7u) << "the home bucket never overflowed";

  // Growing rehashes every entry by its stored tag; the overflow counts start over.
  table.reserve(1000);
  ASSERT_TRUE(table.overflow_counts_agree());
  for (const auto& [node, in_table] : live)
    EXPECT_EQ(table.find(offsets[node], offset_of), in_table ? node : OffsetLiveTable::kNone);
}

}  // namespace
}  // namespace quadpool::memory::detail
