// The QuadTree's 8-wide kernels (detail/wide_kernels.hpp) against their plain definitions: a
// leaf's words walked against the 4-wide loop's pairs in order, the leaf-pair masks bit by bit
// against overlaps(), the cell codes (of boxes and of columns) against cell_code() one
// box at a time. The kernels only run on a CPU with AVX2; the whole tree's pairs and their order
// are checked against the 4-wide path by running the spatial tests and the game's pinned hash a
// second time with QUADPOOL_DISABLE_AVX=1 (tests/CMakeLists.txt).
#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "engine/core/random.hpp"
#include "engine/spatial/aabb.hpp"
#include "engine/spatial/detail/wide_kernels.hpp"
#include "tests/helpers/assert_throws.hpp"

namespace quadpool::spatial::detail {
namespace {

// Corners on a coarse grid, so that touching edges, equal boxes and zero-size boxes are common;
// now and then an infinite box, which overlaps every box (and would overlap the empty padding
// boxes past a run, were they not masked off).
Aabb random_box(Random& rng) {
  constexpr float inf = std::numeric_limits<float>::infinity();
  if (rng.chance(0.02)) return {-inf, -inf, inf, inf};
  const auto x = static_cast<float>(rng.below(12)), y = static_cast<float>(rng.below(12));
  return {x, y, x + static_cast<float>(rng.below(4)), y + static_cast<float>(rng.below(4))};
}

#define QUADPOOL_SKIP_WITHOUT_WIDE_KERNELS()                                   \
  if (!wide_kernels_enabled()) {                                               \
    GTEST_SKIP() << "no 8-wide kernels here: not built for this compiler or "  \
                    "target, no AVX2 on this CPU, or QUADPOOL_DISABLE_AVX set"; \
  }

// The pairs of a leaf's run in the 4-wide loop's order (for_each_overlap2, as
// QuadTree::pairs_within_leaf calls it): rows r and r + 1 together, their own pair first, then
// the columns from r + 2 in blocks of four, row r's hits in a block before row r + 1's.
std::vector<std::pair<std::uint32_t, std::uint32_t>> four_wide_order(const BoxColumns& columns,
                                                                     std::uint32_t first,
                                                                     std::uint32_t end) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  const auto hit = [&](std::uint32_t i, std::uint32_t j) {
    if (overlaps(columns.get(i), columns.get(j))) pairs.emplace_back(i, j);
  };
  for (std::uint32_t r = first; r + 1 < end; r += 2) {
    hit(r, r + 1);
    for (std::uint32_t block = r + 2; block < end; block += 4) {
      for (std::uint32_t c = block; c < std::min(end, block + 4); ++c) hit(r, c);
      for (std::uint32_t c = block; c < std::min(end, block + 4); ++c) hit(r + 1, c);
    }
  }
  return pairs;
}

TEST(WideKernels, ALeafsWordsWalkedInOrderAreItsPairsInTheFourWideOrder) {
  QUADPOOL_SKIP_WITHOUT_WIDE_KERNELS();
  Random rng(test::announce_seed(
      "WideKernels.ALeafsWordsWalkedInOrderAreItsPairsInTheFourWideOrder", 2026));
  for (int trial = 0; trial < 3000; ++trial) {
    // A run inside a longer array: the boxes before and after it must not show in the words.
    const auto first = static_cast<std::uint32_t>(rng.below(20));
    const auto count = static_cast<std::uint32_t>(rng.below(kMaskWidth + 1));
    const std::uint32_t end = first + count;
    BoxColumns columns;
    columns.resize(end + static_cast<std::uint32_t>(rng.below(12)));
    for (std::uint32_t i = 0; i + BoxColumns::kPadding < columns.min_x.size(); ++i) {
      columns.set(i, random_box(rng));
    }
    constexpr std::uint64_t kUntouched = 0x5a5a5a5a5a5a5a5aull;
    const std::uint32_t written = kLeafWordsPerRowPair * (count / 2);
    std::vector<std::uint64_t> words(kLeafWordsPerRowPair * kMaskWidth / 2 + 1, kUntouched);
    leaf_overlap_words(view_of(columns), first, end, words.data());
    // Walked as leaf_overlap_words documents: word by word, low bits first.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> walked;
    for (std::uint32_t w = 0; w < written; ++w) {
      const std::uint32_t r = first + 2 * (w / kLeafWordsPerRowPair);
      const std::uint32_t part = w % kLeafWordsPerRowPair;
      ASSERT_FALSE(part == 0 && words[w] > 1u) << "trial " << trial << ": word " << w;
      const std::uint32_t column0 = part == 0 ? r + 1 : part == 1 ? r + 2 : r + kLeafHighColumns;
      for (std::uint64_t m = words[w]; m != 0; m &= m - 1) {
        const auto t = static_cast<std::uint32_t>(std::countr_zero(m));
        walked.emplace_back(r + ((t >> 2) & 1u), column0 + 4 * (t >> 3) + (t & 3u));
      }
    }
    ASSERT_EQ(walked, four_wide_order(columns, first, end))
        << "trial " << trial << ", run [" << first << ", " << end << ")";
    for (std::size_t w = written; w < words.size(); ++w) {
      ASSERT_EQ(words[w], kUntouched) << "trial " << trial << ": word " << w << " was written";
    }
  }
}

// leaf_pair_masks() on runs [a_first, a_end) and [b_first, b_end) against the definition: the
// columns are `expected_b` (b's boxes that reach into `shared`, in order); the rows are a's boxes
// that reach into it and overlap at least one column, with their masks.
void expect_leaf_pair(const BoxColumns& columns, std::uint32_t a_first, std::uint32_t a_end,
                      std::uint32_t b_first, std::uint32_t b_end, const Aabb& shared,
                      const std::vector<std::uint32_t>& expected_b) {
  std::vector<std::uint32_t> expected_a;
  std::vector<std::uint64_t> expected_masks;
  for (std::uint32_t i = a_first; i < a_end; ++i) {
    if (!overlaps(columns.get(i), shared)) continue;
    std::uint64_t mask = 0;
    for (std::size_t c = 0; c < expected_b.size(); ++c) {
      if (overlaps(columns.get(i), columns.get(expected_b[c]))) mask |= std::uint64_t{1} << c;
    }
    if (mask == 0) continue;
    expected_a.push_back(i);
    expected_masks.push_back(mask);
  }
  std::uint32_t a_slots[kMaskWidth], b_slots[kMaskWidth + 8];
  std::uint64_t masks[kMaskWidth];
  const std::uint32_t rows = leaf_pair_masks(view_of(columns), a_first, a_end, b_first, b_end,
                                             shared, a_slots, masks, b_slots);
  ASSERT_EQ(std::vector<std::uint32_t>(a_slots, a_slots + rows), expected_a);
  ASSERT_EQ(std::vector<std::uint64_t>(masks, masks + rows), expected_masks);
  if (rows > 0) {  // the columns are defined when there is a row that names them
    ASSERT_EQ(std::vector<std::uint32_t>(b_slots, b_slots + expected_b.size()), expected_b);
  }
}

TEST(WideKernels, ALeafPairGivesEveryOverlapInsideTheSharedAreaInOrder) {
  QUADPOOL_SKIP_WITHOUT_WIDE_KERNELS();
  Random rng(test::announce_seed(
      "WideKernels.ALeafPairGivesEveryOverlapInsideTheSharedAreaInOrder", 2026));
  for (int trial = 0; trial < 3000; ++trial) {
    // Two runs of up to 64 boxes, one after the other in a longer array, and a random area.
    const auto a_first = static_cast<std::uint32_t>(rng.below(10));
    const std::uint32_t a_end = a_first + static_cast<std::uint32_t>(rng.below(kMaskWidth + 1));
    const std::uint32_t b_first = a_end + static_cast<std::uint32_t>(rng.below(10));
    const std::uint32_t b_end = b_first + static_cast<std::uint32_t>(rng.below(kMaskWidth + 1));
    BoxColumns columns;
    columns.resize(b_end + static_cast<std::uint32_t>(rng.below(12)));
    for (std::uint32_t i = 0; i + BoxColumns::kPadding < columns.min_x.size(); ++i) {
      columns.set(i, random_box(rng));
    }
    const Aabb shared = rng.chance(0.1) ? Aabb{0, 0, 20, 20} : random_box(rng);
    std::vector<std::uint32_t> expected_b;
    for (std::uint32_t j = b_first; j < b_end; ++j) {
      if (overlaps(columns.get(j), shared)) expected_b.push_back(j);
    }
    ASSERT_NO_FATAL_FAILURE(
        expect_leaf_pair(columns, a_first, a_end, b_first, b_end, shared, expected_b))
        << "trial " << trial;
  }
}

// leaf_pair_masks() packs at most eight columns in registers and more in memory: exactly k of
// b's boxes reach into the area, k from 1 to 16, scattered over b's blocks of eight, so that
// both ways see columns gathered from one block and from several.
TEST(WideKernels, ALeafPairGivesTheSameMasksForFewAndManyColumns) {
  QUADPOOL_SKIP_WITHOUT_WIDE_KERNELS();
  Random rng(
      test::announce_seed("WideKernels.ALeafPairGivesTheSameMasksForFewAndManyColumns", 2026));
  const Aabb shared{0, 0, 10, 10};
  for (int trial = 0; trial < 3000; ++trial) {
    const auto a_first = static_cast<std::uint32_t>(rng.below(10));
    const std::uint32_t a_end = a_first + 1 + static_cast<std::uint32_t>(rng.below(kMaskWidth));
    const std::uint32_t b_first = a_end + static_cast<std::uint32_t>(rng.below(10));
    const std::uint32_t b_count = 16 + static_cast<std::uint32_t>(rng.below(kMaskWidth - 15));
    const std::uint32_t b_end = b_first + b_count;
    BoxColumns columns;
    columns.resize(b_end + static_cast<std::uint32_t>(rng.below(12)));
    // Boxes outside the area everywhere, then boxes inside it for a's run and k of b's.
    for (std::uint32_t i = 0; i + BoxColumns::kPadding < columns.min_x.size(); ++i) {
      const auto x = static_cast<float>(20 + rng.below(8));
      columns.set(i, {x, x, x + 2, x + 2});
    }
    const auto inside = [&] {
      const auto x = static_cast<float>(rng.below(9)), y = static_cast<float>(rng.below(9));
      return Aabb{x, y, x + static_cast<float>(rng.below(3)), y + static_cast<float>(rng.below(3))};
    };
    for (std::uint32_t i = a_first; i < a_end; ++i) {
      if (rng.chance(0.5)) columns.set(i, inside());
    }
    const auto k = 1 + static_cast<std::uint32_t>(rng.below(16));
    std::vector<std::uint32_t> expected_b;
    for (std::uint32_t j = b_first; j < b_end; ++j) expected_b.push_back(j);
    for (std::uint32_t n = b_count; n > 1; --n) {  // a random k of them, in increasing order
      std::swap(expected_b[n - 1], expected_b[static_cast<std::uint32_t>(rng.below(n))]);
    }
    expected_b.resize(k);
    std::sort(expected_b.begin(), expected_b.end());
    for (const std::uint32_t j : expected_b) columns.set(j, inside());
    ASSERT_NO_FATAL_FAILURE(
        expect_leaf_pair(columns, a_first, a_end, b_first, b_end, shared, expected_b))
        << "trial " << trial << ", " << k << " columns";
  }
}

TEST(WideKernels, CellCodesAreThoseOfTheOneByOneDefinition) {
  QUADPOOL_SKIP_WITHOUT_WIDE_KERNELS();
  Random rng(test::announce_seed("WideKernels.CellCodesAreThoseOfTheOneByOneDefinition", 2026));
  constexpr float inf = std::numeric_limits<float>::infinity();
  constexpr float nan = std::numeric_limits<float>::quiet_NaN();
  const CellGrid grid{{-50, 10, 950, 510}, 256.0f / 1000.0f, 256.0f / 500.0f, 256};
  for (int trial = 0; trial < 200; ++trial) {
    // Boxes inside, across and outside the world, huge, infinite, zero-size, and now and then
    // one that must be rejected (NaN, or min > max), which sends its block of eight one by one.
    std::vector<Aabb> boxes(rng.below(300));
    for (Aabb& b : boxes) {
      const float x = rng.uniform(-200, 1200), y = rng.uniform(-100, 700);
      b = {x, y, x + rng.uniform(0, 30), y + rng.uniform(0, 30)};
      if (rng.chance(0.02)) b = {-inf, -inf, inf, inf};
      if (rng.chance(0.02)) b = {x, y, x, y};
      if (rng.chance(0.01)) b.max_y = nan;
      if (rng.chance(0.01)) b.min_x = b.max_x + 1;
    }
    std::vector<std::uint32_t> codes(boxes.size(), 0xFFFFFFFFu), rejected;
    const std::uint32_t done = cell_codes_wide(boxes, grid, codes.data(), rejected);
    ASSERT_EQ(done, boxes.size() / 8 * 8);
    std::vector<std::uint32_t> expected_rejected;
    for (std::uint32_t i = 0; i < done; ++i) {
      if (!well_formed(boxes[i])) {
        expected_rejected.push_back(i);
        ASSERT_EQ(codes[i], 0u) << "trial " << trial << ", rejected box " << i;
      } else {
        ASSERT_EQ(codes[i], cell_code(boxes[i], grid)) << "trial " << trial << ", box " << i;
      }
    }
    ASSERT_EQ(rejected, expected_rejected) << "trial " << trial;
    for (std::size_t i = done; i < boxes.size(); ++i) {
      ASSERT_EQ(codes[i], 0xFFFFFFFFu) << "trial " << trial << ": box " << i << " was written";
    }
  }
}

// The build takes the codes of a run from its columns: eight at a time from the run's first
// box, the rest four at a time and one by one (cell_codes_of_columns()), each one cell_code()'s.
TEST(WideKernels, CellCodesOfColumnsAreThoseOfTheOneByOneDefinition) {
  QUADPOOL_SKIP_WITHOUT_WIDE_KERNELS();
  Random rng(
      test::announce_seed("WideKernels.CellCodesOfColumnsAreThoseOfTheOneByOneDefinition", 2026));
  constexpr float inf = std::numeric_limits<float>::infinity();
  const CellGrid grid{{-50, 10, 950, 510}, 256.0f / 1000.0f, 256.0f / 500.0f, 256};
  for (int trial = 0; trial < 200; ++trial) {
    const auto count = static_cast<std::uint32_t>(rng.below(300));
    BoxColumns columns;
    columns.resize(count);
    for (std::uint32_t i = 0; i < count; ++i) {
      const float x = rng.uniform(-200, 1200), y = rng.uniform(-100, 700);
      Aabb b{x, y, x + rng.uniform(0, 30), y + rng.uniform(0, 30)};
      if (rng.chance(0.02)) b = {-inf, -inf, inf, inf};
      if (rng.chance(0.02)) b = {x, y, x, y};
      columns.set(i, b);
    }
    const auto first = static_cast<std::uint32_t>(rng.below(count + 1));
    std::vector<std::uint32_t> codes(count, 0xFFFFFFFFu);
    const std::uint32_t done =
        cell_codes_of_columns_wide(view_of(columns), first, count, grid, codes.data());
    ASSERT_EQ(done, first + (count - first) / 8 * 8);
    for (std::uint32_t i = 0; i < count; ++i) {
      const std::uint32_t expected =
          i >= first && i < done ? cell_code(columns.get(i), grid) : 0xFFFFFFFFu;
      ASSERT_EQ(codes[i], expected) << "trial " << trial << ", box " << i;
    }
    cell_codes_of_columns(columns.min_x.data(), columns.min_y.data(), columns.max_x.data(),
                          columns.max_y.data(), done, count, grid, codes.data());
    for (std::uint32_t i = first; i < count; ++i) {
      ASSERT_EQ(codes[i], cell_code(columns.get(i), grid)) << "trial " << trial << ", box " << i;
    }
  }
}

}  // namespace
}  // namespace quadpool::spatial::detail
