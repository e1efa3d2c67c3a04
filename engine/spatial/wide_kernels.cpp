// The AVX2 kernels of detail/wide_kernels.hpp. Only the functions marked target("avx2") contain
// AVX instructions; the rest of the library stays at the compiler's baseline.
#include "engine/spatial/detail/wide_kernels.hpp"

#include <array>
#include <bit>
#include <cstdlib>
#include <limits>
#include <string_view>

#if defined(__GNUC__) || defined(__clang__)
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif
#endif

namespace quadpool::spatial::detail {

#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))

namespace {

// Bits [0, n) set, n <= 64.
constexpr std::uint64_t low_bits(std::uint32_t n) noexcept {
  return n >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
}

bool avx_allowed_by_environment() noexcept {
  const char* value = std::getenv("QUADPOOL_DISABLE_AVX");
  return value == nullptr || *value == '\0' || std::string_view(value) == "0";
}

// For each 8-bit mask, the indices of its set bits in increasing order, then zeros: the lane
// order that moves a block's hits to its front.
constexpr std::array<std::array<std::uint8_t, 8>, 256> make_pack_order() noexcept {
  std::array<std::array<std::uint8_t, 8>, 256> table{};
  for (std::uint32_t mask = 0; mask < 256; ++mask) {
    std::uint32_t k = 0;
    for (std::uint8_t bit = 0; bit < 8; ++bit) {
      if ((mask >> bit) & 1u) table[mask][k++] = bit;
    }
  }
  return table;
}
alignas(64) constexpr std::array<std::array<std::uint8_t, 8>, 256> kPackOrder = make_pack_order();

// For m columns, the bits of a row pair's second and third words (leaf_overlap_words) that stand
// for its columns 0 to m - 1, both rows': column c is bit c % 4 and c % 4 + 4 of byte c / 4 of
// the two words taken as one 128-bit value.
constexpr std::array<std::array<std::uint64_t, 2>, kMaskWidth + 1>
make_row_pair_columns() noexcept {
  std::array<std::array<std::uint64_t, 2>, kMaskWidth + 1> table{};
  for (std::uint32_t m = 0; m <= kMaskWidth; ++m) {
    for (std::uint32_t c = 0; c < m; ++c) {
      const std::uint32_t bit = 8 * (c / 4) + c % 4;  // row r's; row r + 1's is 4 above
      table[m][bit / 64] |= (std::uint64_t{0x11} << (bit % 64));
    }
  }
  return table;
}
alignas(64) constexpr std::array<std::array<std::uint64_t, 2>, kMaskWidth + 1> kRowPairColumns =
    make_row_pair_columns();

// The blocks of eight bits of a 64-bit mask that hold a set bit, lowest first: each block's
// offset (a multiple of eight) and its eight bits.
struct HitBlock {
  std::uint32_t offset, bits;
};
inline HitBlock pop_hit_block(std::uint64_t& mask) noexcept {
  const std::uint32_t offset = static_cast<std::uint32_t>(std::countr_zero(mask)) & ~7u;
  const auto bits = static_cast<std::uint32_t>((mask >> offset) & 0xFFu);
  mask &= ~(std::uint64_t{0xFF} << offset);
  return {offset, bits};
}

// One box broadcast to eight lanes per coordinate.
struct Box8 {
  __m256 min_x, min_y, max_x, max_y;
};

[[gnu::target("avx2")]] inline Box8 broadcast(ColumnsView boxes, std::uint32_t i) noexcept {
  return {_mm256_broadcast_ss(boxes.min_x + i), _mm256_broadcast_ss(boxes.min_y + i),
          _mm256_broadcast_ss(boxes.max_x + i), _mm256_broadcast_ss(boxes.max_y + i)};
}

[[gnu::target("avx2")]] inline Box8 broadcast_box(const Aabb& b) noexcept {
  return {_mm256_set1_ps(b.min_x), _mm256_set1_ps(b.min_y), _mm256_set1_ps(b.max_x),
          _mm256_set1_ps(b.max_y)};
}

// Lane k all ones when `box` overlaps the box x0/x1/y0/y1 hold in lane k, else all zeros.
[[gnu::target("avx2")]] inline __m256 overlap_lanes(const Box8& box, __m256 x0, __m256 x1,
                                                    __m256 y0, __m256 y1) noexcept {
  const __m256 x = _mm256_and_ps(_mm256_cmp_ps(x0, box.max_x, _CMP_LE_OQ),
                                 _mm256_cmp_ps(box.min_x, x1, _CMP_LE_OQ));
  const __m256 y = _mm256_and_ps(_mm256_cmp_ps(y0, box.max_y, _CMP_LE_OQ),
                                 _mm256_cmp_ps(box.min_y, y1, _CMP_LE_OQ));
  return _mm256_and_ps(x, y);
}

// Bit k set when `box` overlaps the eight boxes x0/x1/y0/y1 hold in lane k.
[[gnu::target("avx2")]] inline std::uint64_t hits(const Box8& box, __m256 x0, __m256 x1, __m256 y0,
                                                  __m256 y1) noexcept {
  return static_cast<std::uint32_t>(_mm256_movemask_ps(overlap_lanes(box, x0, x1, y0, y1)));
}

// Bit k set when `box` overlaps box j + k of `columns`.
[[gnu::target("avx2")]] inline std::uint64_t hits(const Box8& box, ColumnsView columns,
                                                  std::uint32_t j) noexcept {
  return hits(box, _mm256_loadu_ps(columns.min_x + j), _mm256_loadu_ps(columns.max_x + j),
              _mm256_loadu_ps(columns.min_y + j), _mm256_loadu_ps(columns.max_y + j));
}

// One row against columns [from, end) of `columns`, eight at a time. Bit (j - base) of the mask
// stands for column j; lanes past `end` may be set.
[[gnu::target("avx2")]] inline std::uint64_t row_mask(const Box8& box, ColumnsView columns,
                                                      std::uint32_t from, std::uint32_t end,
                                                      std::uint32_t base) noexcept {
  std::uint64_t mask = 0;
  for (std::uint32_t j = from; j < end; j += 8) mask |= hits(box, columns, j) << (j - base);
  return mask;
}

// cells_of4() of cell_codes.hpp for eight boxes' axes: the same operations in the same order.
// (Running cells_of4() and spread_bits4() on the two halves instead gave up most of the gain:
// the build took 65 against 57.5 us on `streams` at 10k sprites.)
[[gnu::target("avx2")]] inline __m256i cells_of8(__m256 lo, __m256 hi, float world_lo,
                                                 float world_hi, float scale,
                                                 std::uint32_t cells) noexcept {
  const __m256 w_lo = _mm256_set1_ps(world_lo), w_hi = _mm256_set1_ps(world_hi);
  const __m256 half = _mm256_set1_ps(0.5f);
  lo = _mm256_min_ps(_mm256_max_ps(lo, w_lo), w_hi);
  hi = _mm256_min_ps(_mm256_max_ps(hi, w_lo), w_hi);
  __m256 t = _mm256_sub_ps(_mm256_add_ps(_mm256_mul_ps(half, lo), _mm256_mul_ps(half, hi)), w_lo);
  t = _mm256_mul_ps(t, _mm256_set1_ps(scale));
  t = _mm256_min_ps(_mm256_max_ps(t, _mm256_setzero_ps()),
                    _mm256_set1_ps(static_cast<float>(cells - 1)));
  return _mm256_cvttps_epi32(t);
}

[[gnu::target("avx2")]] inline __m256i spread_bits8(__m256i v) noexcept {
  v = _mm256_and_si256(v, _mm256_set1_epi32(0x0000FFFF));
  v = _mm256_and_si256(_mm256_or_si256(v, _mm256_slli_epi32(v, 8)), _mm256_set1_epi32(0x00FF00FF));
  v = _mm256_and_si256(_mm256_or_si256(v, _mm256_slli_epi32(v, 4)), _mm256_set1_epi32(0x0F0F0F0F));
  v = _mm256_and_si256(_mm256_or_si256(v, _mm256_slli_epi32(v, 2)), _mm256_set1_epi32(0x33333333));
  v = _mm256_and_si256(_mm256_or_si256(v, _mm256_slli_epi32(v, 1)), _mm256_set1_epi32(0x55555555));
  return v;
}

// Box `low`'s four floats in the low half, `high`'s in the high half.
[[gnu::target("avx2")]] inline __m256 two_boxes(const Aabb& low, const Aabb& high) noexcept {
  return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(&low.min_x)),
                              _mm_loadu_ps(&high.min_x), 1);
}

// The codes of boxes b[0..8) into codes[0..8); false (nothing written) when one of them is not
// well_formed().
[[gnu::target("avx2")]] inline bool cell_codes8(const Aabb* b, const CellGrid& g,
                                                std::uint32_t* codes) noexcept {
  static_assert(sizeof(Aabb) == 4 * sizeof(float), "an Aabb is four packed floats");
  // Box k in the low half and box k + 4 in the high half of row k, then a 4x4 transpose in
  // each half: lane k of each result is box k's coordinate.
  const __m256 r0 = two_boxes(b[0], b[4]), r1 = two_boxes(b[1], b[5]);
  const __m256 r2 = two_boxes(b[2], b[6]), r3 = two_boxes(b[3], b[7]);
  const __m256 lo01 = _mm256_unpacklo_ps(r0, r1), lo23 = _mm256_unpacklo_ps(r2, r3);
  const __m256 hi01 = _mm256_unpackhi_ps(r0, r1), hi23 = _mm256_unpackhi_ps(r2, r3);
  const __m256 min_x = _mm256_shuffle_ps(lo01, lo23, 0x44);
  const __m256 min_y = _mm256_shuffle_ps(lo01, lo23, 0xEE);
  const __m256 max_x = _mm256_shuffle_ps(hi01, hi23, 0x44);
  const __m256 max_y = _mm256_shuffle_ps(hi01, hi23, 0xEE);
  const __m256 ok = _mm256_and_ps(_mm256_cmp_ps(min_x, max_x, _CMP_LE_OQ),
                                  _mm256_cmp_ps(min_y, max_y, _CMP_LE_OQ));
  if (_mm256_movemask_ps(ok) != 0xFF) return false;
  const __m256i x = cells_of8(min_x, max_x, g.world.min_x, g.world.max_x, g.scale_x, g.cells);
  const __m256i y = cells_of8(min_y, max_y, g.world.min_y, g.world.max_y, g.scale_y, g.cells);
  const __m256i code = _mm256_or_si256(spread_bits8(x), _mm256_slli_epi32(spread_bits8(y), 1));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(codes), code);
  return true;
}

}  // namespace

bool detect_wide_kernels() noexcept {
  __builtin_cpu_init();  // needed before __builtin_cpu_supports in code that may run early
  return __builtin_cpu_supports("avx2") && avx_allowed_by_environment();
}

[[gnu::target("avx2")]] void leaf_overlap_words(ColumnsView boxes, std::uint32_t first,
                                                std::uint32_t end, std::uint64_t* words) noexcept {
  for (std::uint32_t i = first; i + 1 < end; i += 2, words += kLeafWordsPerRowPair) {
    const std::uint32_t k = i + 1;
    // The row pair's own pair without a branch (`&`, not `&&`): whether it overlaps is as good
    // as random.
    const bool own_pair = (boxes.min_x[k] <= boxes.max_x[i]) & (boxes.min_x[i] <= boxes.max_x[k]) &
                          (boxes.min_y[k] <= boxes.max_y[i]) & (boxes.min_y[i] <= boxes.max_y[k]);
    const Box8 a = broadcast(boxes, i), b = broadcast(boxes, k);
    // Each block of eight columns gives 16 bits: its first four columns' byte (row i's hits in
    // the low half, row k's in the high half), then its last four's. The two rows' lanes swap
    // across the 128-bit halves so that one movemask gives each byte.
    // The lanes past the run's end are compared too (the columns are padded) and masked off
    // once, after the loop, not in every block.
    std::uint64_t low_columns = 0, high_columns = 0;
    for (std::uint32_t j = i + 2, block = 0; j < end; j += 8, ++block) {
      const __m256 x0 = _mm256_loadu_ps(boxes.min_x + j), x1 = _mm256_loadu_ps(boxes.max_x + j);
      const __m256 y0 = _mm256_loadu_ps(boxes.min_y + j), y1 = _mm256_loadu_ps(boxes.max_y + j);
      const __m256 row_a = overlap_lanes(a, x0, x1, y0, y1);
      const __m256 row_b = overlap_lanes(b, x0, x1, y0, y1);
      const auto first_four = static_cast<std::uint64_t>(
          _mm256_movemask_ps(_mm256_permute2f128_ps(row_a, row_b, 0x20)));
      const auto last_four = static_cast<std::uint64_t>(
          _mm256_movemask_ps(_mm256_permute2f128_ps(row_a, row_b, 0x31)));
      const std::uint64_t bits = (first_four | last_four << 8) << (16 * (block & 3u));
      if (block < 4) {
        low_columns |= bits;
      } else {
        high_columns |= bits;
      }
    }
    const std::array<std::uint64_t, 2>& in_run = kRowPairColumns[end - i - 2];
    words[0] = own_pair ? 1u : 0u;
    words[1] = low_columns & in_run[0];
    words[2] = high_columns & in_run[1];
  }
}

[[gnu::target("avx2")]] std::uint32_t leaf_pair_masks(ColumnsView boxes, std::uint32_t a_first,
                                                      std::uint32_t a_end, std::uint32_t b_first,
                                                      std::uint32_t b_end, const Aabb& shared,
                                                      std::uint32_t* a_slots, std::uint64_t* masks,
                                                      std::uint32_t* b_slots) noexcept {
  const Box8 area = broadcast_box(shared);
  // Which of b's boxes, then which of a's, reach into `shared`: a few near the leaves' shared
  // edge, often none (then there is no pair, and a's are not looked at).
  const std::uint64_t in_b =
      row_mask(area, boxes, b_first, b_end, b_first) & low_bits(b_end - b_first);
  if (in_b == 0) return 0;
  std::uint64_t in_a = row_mask(area, boxes, a_first, a_end, a_first) & low_bits(a_end - a_first);
  if (in_a == 0) return 0;
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  if (std::popcount(in_b) <= 8) {
    // The usual case, a few boxes near the shared edge: the columns fit one register each, so
    // they are packed in registers. Packed in memory instead, the rows' first loads span several
    // of the packing's overlapping stores, which cannot be forwarded to them: each row waited
    // for the stores to retire. Each block's hits, moved to the front of its lanes, rotate up
    // to the lanes from `columns` on; the lanes past the last column hold stale boxes, which
    // low_bits(columns) masks off.
    __m256 x0 = _mm256_setzero_ps(), x1 = x0, y0 = x0, y1 = x0;
    __m256i slots = _mm256_setzero_si256();
    std::uint32_t columns = 0;
    for (std::uint64_t blocks = in_b; blocks != 0;) {
      const auto [offset, hit] = pop_hit_block(blocks);
      const std::uint32_t j = b_first + offset;
      const __m256i at = _mm256_set1_epi32(static_cast<int>(columns));
      // Lane k takes the block's hit k - columns, for k >= columns; the lanes below keep theirs.
      const __m256i order = _mm256_permutevar8x32_epi32(
          _mm256_cvtepu8_epi32(
              _mm_loadl_epi64(reinterpret_cast<const __m128i*>(kPackOrder[hit].data()))),
          _mm256_and_si256(_mm256_sub_epi32(lane, at), _mm256_set1_epi32(7)));
      const __m256i keep = _mm256_cmpgt_epi32(at, lane);
      const __m256 keep_ps = _mm256_castsi256_ps(keep);
      x0 = _mm256_blendv_ps(_mm256_permutevar8x32_ps(_mm256_loadu_ps(boxes.min_x + j), order), x0,
                            keep_ps);
      x1 = _mm256_blendv_ps(_mm256_permutevar8x32_ps(_mm256_loadu_ps(boxes.max_x + j), order), x1,
                            keep_ps);
      y0 = _mm256_blendv_ps(_mm256_permutevar8x32_ps(_mm256_loadu_ps(boxes.min_y + j), order), y0,
                            keep_ps);
      y1 = _mm256_blendv_ps(_mm256_permutevar8x32_ps(_mm256_loadu_ps(boxes.max_y + j), order), y1,
                            keep_ps);
      slots = _mm256_blendv_epi8(
          _mm256_permutevar8x32_epi32(
              _mm256_add_epi32(lane, _mm256_set1_epi32(static_cast<int>(j))), order),
          slots, keep);
      columns += static_cast<std::uint32_t>(std::popcount(hit));
    }
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(b_slots), slots);
    const std::uint64_t in_columns = low_bits(columns);
    std::uint32_t rows = 0;
    for (; in_a != 0; in_a &= in_a - 1) {
      const std::uint32_t i = a_first + static_cast<std::uint32_t>(std::countr_zero(in_a));
      const std::uint64_t mask = hits(broadcast(boxes, i), x0, x1, y0, y1) & in_columns;
      a_slots[rows] = i;  // kept only when the row has a hit: no branch to guess
      masks[rows] = mask;
      rows += mask != 0 ? 1u : 0u;
    }
    return rows;
  }
  // Otherwise b's boxes in `shared` packed into columns of their own in memory, block by block
  // of eight (each block's hits moved to the front of its lanes, in order), visiting only the
  // blocks that hold one; then padded with empty boxes to a whole block of eight.
  alignas(32) float min_x[kMaskWidth + 8], min_y[kMaskWidth + 8];
  alignas(32) float max_x[kMaskWidth + 8], max_y[kMaskWidth + 8];
  std::uint32_t columns = 0;
  for (std::uint64_t blocks = in_b; blocks != 0;) {
    const auto [offset, hit] = pop_hit_block(blocks);
    const std::uint32_t j = b_first + offset;
    const __m256i order = _mm256_cvtepu8_epi32(
        _mm_loadl_epi64(reinterpret_cast<const __m128i*>(kPackOrder[hit].data())));
    _mm256_storeu_ps(min_x + columns,
                     _mm256_permutevar8x32_ps(_mm256_loadu_ps(boxes.min_x + j), order));
    _mm256_storeu_ps(max_x + columns,
                     _mm256_permutevar8x32_ps(_mm256_loadu_ps(boxes.max_x + j), order));
    _mm256_storeu_ps(min_y + columns,
                     _mm256_permutevar8x32_ps(_mm256_loadu_ps(boxes.min_y + j), order));
    _mm256_storeu_ps(max_y + columns,
                     _mm256_permutevar8x32_ps(_mm256_loadu_ps(boxes.max_y + j), order));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(b_slots + columns),
                        _mm256_permutevar8x32_epi32(
                            _mm256_add_epi32(lane, _mm256_set1_epi32(static_cast<int>(j))), order));
    columns += static_cast<std::uint32_t>(std::popcount(hit));
  }
  const __m256 inf = _mm256_set1_ps(std::numeric_limits<float>::infinity());
  const __m256 minus_inf = _mm256_set1_ps(-std::numeric_limits<float>::infinity());
  _mm256_storeu_ps(min_x + columns, inf);
  _mm256_storeu_ps(min_y + columns, inf);
  _mm256_storeu_ps(max_x + columns, minus_inf);
  _mm256_storeu_ps(max_y + columns, minus_inf);
  const ColumnsView from_b{min_x, min_y, max_x, max_y};
  // Each of a's boxes that reaches into `shared`, against every column. The padding is masked
  // off: an infinite box overlaps even an empty one.
  const std::uint64_t in_columns = low_bits(columns);
  std::uint32_t rows = 0;
  for (; in_a != 0; in_a &= in_a - 1) {
    const std::uint32_t i = a_first + static_cast<std::uint32_t>(std::countr_zero(in_a));
    const std::uint64_t mask = row_mask(broadcast(boxes, i), from_b, 0, columns, 0) & in_columns;
    a_slots[rows] = i;  // kept only when the row has a hit: no branch to guess
    masks[rows] = mask;
    rows += mask != 0 ? 1u : 0u;
  }
  return rows;
}

[[gnu::target("avx2")]] std::uint32_t cell_codes_wide(std::span<const Aabb> boxes,
                                                      const CellGrid& grid, std::uint32_t* codes,
                                                      std::vector<std::uint32_t>& rejected) {
  const auto count = static_cast<std::uint32_t>(boxes.size());
  std::uint32_t i = 0;
  for (; count - i >= 8; i += 8) {
    if (!cell_codes8(&boxes[i], grid, codes + i)) {
      cell_codes_one_by_one(boxes, i, i + 8, grid, codes, rejected);
    }
  }
  return i;
}

[[gnu::target("avx2")]] std::uint32_t cell_codes_of_columns_wide(ColumnsView columns,
                                                                 std::uint32_t first,
                                                                 std::uint32_t end,
                                                                 const CellGrid& g,
                                                                 std::uint32_t* codes) noexcept {
  std::uint32_t i = first;
  for (; end - i >= 8; i += 8) {
    const __m256i x =
        cells_of8(_mm256_loadu_ps(columns.min_x + i), _mm256_loadu_ps(columns.max_x + i),
                  g.world.min_x, g.world.max_x, g.scale_x, g.cells);
    const __m256i y =
        cells_of8(_mm256_loadu_ps(columns.min_y + i), _mm256_loadu_ps(columns.max_y + i),
                  g.world.min_y, g.world.max_y, g.scale_y, g.cells);
    const __m256i code = _mm256_or_si256(spread_bits8(x), _mm256_slli_epi32(spread_bits8(y), 1));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(codes + i), code);
  }
  return i;
}

#else  // no AVX dispatch for this compiler or target: the 4-wide kernels do all the work

bool detect_wide_kernels() noexcept {
  return false;
}

// Never called (wide_kernels_enabled() is false); defined so that every call site links.
void leaf_overlap_words(ColumnsView, std::uint32_t, std::uint32_t, std::uint64_t*) noexcept {}

std::uint32_t leaf_pair_masks(ColumnsView, std::uint32_t, std::uint32_t, std::uint32_t,
                              std::uint32_t, const Aabb&, std::uint32_t*, std::uint64_t*,
                              std::uint32_t*) noexcept {
  return 0;
}

std::uint32_t cell_codes_wide(std::span<const Aabb>, const CellGrid&, std::uint32_t*,
                              std::vector<std::uint32_t>&) {
  return 0;
}

std::uint32_t cell_codes_of_columns_wide(ColumnsView, std::uint32_t first, std::uint32_t,
                                         const CellGrid&, std::uint32_t*) noexcept {
  return first;
}

#endif

}  // namespace quadpool::spatial::detail
