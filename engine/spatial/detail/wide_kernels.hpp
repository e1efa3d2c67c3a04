#pragma once
// The QuadTree's 8-wide kernels (AVX2), chosen at run time, so that a build for the x86-64
// baseline (SSE2 only) still uses them on a CPU that has AVX2: the cell codes of the sort and of
// the build's partitions, and the box tests inside a leaf. Only quad_tree.hpp's templates and
// quad_tree.cpp use these, and only wide_kernels.cpp is compiled for AVX2 (function by function,
// with target attributes).
//
// Each gives the same result as its 4-wide counterpart, bit for bit and in the same order, so
// the tree, its pairs, their order and the game's hashes do not depend on the CPU.
//
// The leaf kernel fills words whose set bits, walked in order, are the leaf's pairs in exactly
// the order the 4-wide loop (for_each_overlap2) reports them: pure arithmetic on the boxes, with
// no callback inside the loop. quad_tree.hpp's templates walk the bits; the kernel for two
// leaves fills one mask per row for the pairs between them. A kernel that calls back, as the
// 4-wide ones do, was not an option: a function that uses AVX instructions must be compiled for
// AVX, and so must every function it is inlined into, which would make the whole traversal and
// the caller's callback AVX code.

#include <bit>
#include <cstdint>

#include <span>
#include <vector>

#include "engine/spatial/aabb.hpp"
#include "engine/spatial/detail/box_columns.hpp"
#include "engine/spatial/detail/cell_codes.hpp"

namespace quadpool::spatial::detail {

/// The longest run a mask can describe: leaves with more boxes take the 4-wide path.
inline constexpr std::uint32_t kMaskWidth = 64;

#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
inline constexpr bool kWideKernelsBuilt = true;
#else
inline constexpr bool kWideKernelsBuilt = false;  // the 4-wide kernels serve every CPU
#endif

/// True when the 8-wide kernels may run: they are built for this compiler and target, the CPU
/// and the operating system support AVX2, and the environment variable QUADPOOL_DISABLE_AVX is
/// unset, empty or "0" (any other value keeps the SSE2 kernels, to compare the two or to rule
/// the wide ones out). Decided once per process, by detect_wide_kernels(); inline, because the
/// pair search asks once per leaf and per pair of leaves.
bool detect_wide_kernels() noexcept;
inline bool wide_kernels_enabled() noexcept {
  static const bool enabled = detect_wide_kernels();
  return enabled;
}

/// Calls emit(w, bit) for every set bit of words[0 .. count), word by word, low bits first.
/// Every word must be non-zero, and words[count] set (it is loaded, then dropped). The walk
/// moves from one word to the next without a branch, so that it costs one branch per bit, not
/// one more per word: in the pair kernels, which word holds the next hit cannot be predicted.
template <class Emit>
void for_each_set_bit(const std::uint64_t* words, std::uint32_t count, Emit&& emit) {
  if (count == 0) return;
  std::uint32_t w = 0;
  std::uint64_t m = words[0];
  do {
    emit(w, static_cast<std::uint32_t>(std::countr_zero(m)));
    m &= m - 1;
    const std::uint32_t done = m == 0 ? 1u : 0u;
    w += done;
    const std::uint64_t next = words[w];
    m = done != 0 ? next : m;
  } while (w < count);
}

/// The words of a leaf's overlaps that one walk over their set bits turns into the leaf's pairs
/// in the order of the 4-wide loop (for_each_overlap2: rows r and r + 1 together, their own pair
/// first, then the columns from r + 2 in blocks of four, row r's hits in a block before row
/// r + 1's).
inline constexpr std::uint32_t kLeafWordsPerRowPair = 3;
/// Where the columns of a row pair's third word start, past the row pair's first row.
inline constexpr std::uint32_t kLeafHighColumns = 34;

/// For a leaf's run [first, end) of `boxes`, end - first <= kMaskWidth, the overlaps of its
/// boxes (closed, as overlaps()) as kLeafWordsPerRowPair words per pair of rows r, r + 1
/// (r = 0, 2, 4, ... while r + 1 < end - first), from words[3 * (r / 2)]:
/// - the first: bit 0 set when boxes first + r and first + r + 1 overlap, the other bits 0;
/// - the second and third: the columns from r + 2 in blocks of four, block k in byte k of the
///   second word (k < 8) or byte k - 8 of the third. A byte's low half is row r's overlaps with
///   the block's four columns, its high half row r + 1's (bit b of a half for column
///   r + 2 + 4k + b); columns at or past end - first are 0.
/// So bit t of a row pair's word stands for row r + (t >> 2 & 1) and column
/// c0 + 4 * (t >> 3) + (t & 3), where c0 is r + 1, r + 2 or r + kLeafHighColumns. Writes
/// kLeafWordsPerRowPair * ((end - first) / 2) words. Call only when wide_kernels_enabled().
void leaf_overlap_words(ColumnsView boxes, std::uint32_t first, std::uint32_t end,
                        std::uint64_t* words) noexcept;

/// The overlaps between two leaves' runs a = [a_first, a_end) and b = [b_first, b_end) of
/// `boxes`, each at most kMaskWidth boxes, where every overlap lies inside `shared` (the
/// intersection of the leaves' bounds). b's boxes that reach into `shared` become the columns,
/// their slots in increasing order in b_slots (which needs kMaskWidth + 8 entries: whole blocks
/// of eight are written); each of a's boxes that reaches into `shared` and overlaps at least one
/// column becomes a row: its slot in a_slots[r], in increasing order, and in masks[r] bit c set
/// when it overlaps column c. Returns the number of rows. Call only when wide_kernels_enabled().
std::uint32_t leaf_pair_masks(ColumnsView boxes, std::uint32_t a_first, std::uint32_t a_end,
                              std::uint32_t b_first, std::uint32_t b_end, const Aabb& shared,
                              std::uint32_t* a_slots, std::uint64_t* masks,
                              std::uint32_t* b_slots) noexcept;

/// cell_codes() for boxes [0, n), n the largest multiple of 8 <= boxes.size(), eight at a time:
/// the same codes and the same `rejected` ids. Returns n, for cell_codes() to finish from there.
/// Call only when wide_kernels_enabled().
std::uint32_t cell_codes_wide(std::span<const Aabb> boxes, const CellGrid& grid,
                              std::uint32_t* codes, std::vector<std::uint32_t>& rejected);

/// cell_codes_of_columns() for the well-formed boxes [first, n) of `columns` into codes[first,
/// n), n the last place from which fewer than 8 boxes remain before `end`, eight at a time.
/// Returns n, for cell_codes_of_columns() to finish from there. Call only when
/// wide_kernels_enabled().
std::uint32_t cell_codes_of_columns_wide(ColumnsView columns, std::uint32_t first,
                                         std::uint32_t end, const CellGrid& grid,
                                         std::uint32_t* codes) noexcept;

}  // namespace quadpool::spatial::detail
