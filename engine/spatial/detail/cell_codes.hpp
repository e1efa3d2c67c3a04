#pragma once
// The cell codes of the QuadTree's sort: each box's clamped centre, quantised to the cell grid at
// max_depth, as a Morton (Z-order) code, four boxes at a time with SSE2 (eight with AVX2, in
// wide_kernels.cpp) and one by one otherwise, bit for bit the same every way. Only
// quad_tree.cpp and wide_kernels.cpp use these.

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#include <xmmintrin.h>
#endif

#include "engine/spatial/aabb.hpp"

namespace quadpool::spatial::detail {

// Spreads the low 16 bits of v to the even bits of the result.
constexpr std::uint32_t spread_bits(std::uint32_t v) noexcept {
  v &= 0x0000FFFFu;
  v = (v | (v << 8)) & 0x00FF00FFu;
  v = (v | (v << 4)) & 0x0F0F0F0Fu;
  v = (v | (v << 2)) & 0x33333333u;
  v = (v | (v << 1)) & 0x55555555u;
  return v;
}

// Morton (Z-order) code of a cell: x in the even bits, y in the odd bits. Sorting by it lays the
// cells out in the pre-order of the quad-tree, child 0 (low x, low y) to child 3 (high x, high y).
constexpr std::uint32_t morton(std::uint32_t cell_x, std::uint32_t cell_y) noexcept {
  return spread_bits(cell_x) | (spread_bits(cell_y) << 1);
}

// The cell of `lo..hi`'s centre along one axis, in [0, cells). The box is clamped into the world
// first, so boxes outside or larger than the world land in an edge cell, infinities are finite
// by then. (NaN boxes never get here: sort_items_by_cell rejects them.)
inline std::uint32_t cell_of(float lo, float hi, float world_lo, float world_hi, float scale,
                             std::uint32_t cells) noexcept {
  // min/max rather than branches: they compile to minss/maxss, and the build runs this twice per
  // box. The result is the same as clamping t into [0, cells) and truncating.
  lo = std::min(std::max(lo, world_lo), world_hi);
  hi = std::min(std::max(hi, world_lo), world_hi);
  const float t = (0.5f * lo + 0.5f * hi - world_lo) * scale;
  return static_cast<std::uint32_t>(std::min(std::max(t, 0.0f), static_cast<float>(cells - 1)));
}

// The cell grid at max_depth over the world, as the cell codes need it.
struct CellGrid {
  Aabb world;
  float scale_x, scale_y;  // cells per world unit
  std::uint32_t cells;     // per axis
};

// True for a box the tree can hold; false for a NaN coordinate or min > max. Such a box would
// poison its leaf's and every ancestor's loose bounds (a union with NaN), and with them other
// boxes' pairs and query hits.
inline bool well_formed(const Aabb& b) noexcept {
  return b.min_x <= b.max_x && b.min_y <= b.max_y;
}

inline std::uint32_t cell_code(const Aabb& b, const CellGrid& g) noexcept {
  return morton(cell_of(b.min_x, b.max_x, g.world.min_x, g.world.max_x, g.scale_x, g.cells),
                cell_of(b.min_y, b.max_y, g.world.min_y, g.world.max_y, g.scale_y, g.cells));
}

#if defined(__SSE2__)
// cell_of() for four boxes' axes at once: the same operations in the same order, so the same
// cells to the last bit.
inline __m128i cells_of4(__m128 lo, __m128 hi, float world_lo, float world_hi, float scale,
                         std::uint32_t cells) noexcept {
  const __m128 w_lo = _mm_set1_ps(world_lo), w_hi = _mm_set1_ps(world_hi);
  const __m128 half = _mm_set1_ps(0.5f);
  lo = _mm_min_ps(_mm_max_ps(lo, w_lo), w_hi);
  hi = _mm_min_ps(_mm_max_ps(hi, w_lo), w_hi);
  __m128 t = _mm_sub_ps(_mm_add_ps(_mm_mul_ps(half, lo), _mm_mul_ps(half, hi)), w_lo);
  t = _mm_mul_ps(t, _mm_set1_ps(scale));
  t = _mm_min_ps(_mm_max_ps(t, _mm_setzero_ps()), _mm_set1_ps(static_cast<float>(cells - 1)));
  return _mm_cvttps_epi32(t);
}

inline __m128i spread_bits4(__m128i v) noexcept {
  v = _mm_and_si128(v, _mm_set1_epi32(0x0000FFFF));
  v = _mm_and_si128(_mm_or_si128(v, _mm_slli_epi32(v, 8)), _mm_set1_epi32(0x00FF00FF));
  v = _mm_and_si128(_mm_or_si128(v, _mm_slli_epi32(v, 4)), _mm_set1_epi32(0x0F0F0F0F));
  v = _mm_and_si128(_mm_or_si128(v, _mm_slli_epi32(v, 2)), _mm_set1_epi32(0x33333333));
  v = _mm_and_si128(_mm_or_si128(v, _mm_slli_epi32(v, 1)), _mm_set1_epi32(0x55555555));
  return v;
}

// The cell codes of boxes b[0..4) into codes[0..4); false (nothing written) when one of them is
// not well_formed(), for the caller to sort out one by one.
inline bool cell_codes4(const Aabb* b, const CellGrid& g, std::uint32_t* codes) noexcept {
  static_assert(sizeof(Aabb) == 4 * sizeof(float), "an Aabb is four packed floats");
  __m128 min_x = _mm_loadu_ps(&b[0].min_x), min_y = _mm_loadu_ps(&b[1].min_x);
  __m128 max_x = _mm_loadu_ps(&b[2].min_x), max_y = _mm_loadu_ps(&b[3].min_x);
  _MM_TRANSPOSE4_PS(min_x, min_y, max_x, max_y);  // rows were boxes; now they are coordinates
  const __m128 ok = _mm_and_ps(_mm_cmple_ps(min_x, max_x), _mm_cmple_ps(min_y, max_y));
  if (_mm_movemask_ps(ok) != 0xF) return false;
  const __m128i x = cells_of4(min_x, max_x, g.world.min_x, g.world.max_x, g.scale_x, g.cells);
  const __m128i y = cells_of4(min_y, max_y, g.world.min_y, g.world.max_y, g.scale_y, g.cells);
  const __m128i code = _mm_or_si128(spread_bits4(x), _mm_slli_epi32(spread_bits4(y), 1));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(codes), code);
  return true;
}
#endif

// Writes the cell codes of boxes [first, end) into codes[], one by one (0 for a box that is not
// well_formed(), whose id goes to `rejected`).
inline void cell_codes_one_by_one(std::span<const Aabb> boxes, std::uint32_t first,
                                  std::uint32_t end, const CellGrid& grid, std::uint32_t* codes,
                                  std::vector<std::uint32_t>& rejected) {
  for (std::uint32_t i = first; i < end; ++i) {
    if (well_formed(boxes[i])) [[likely]] {
      codes[i] = cell_code(boxes[i], grid);
    } else {
      rejected.push_back(i);
      codes[i] = 0;
    }
  }
}

// Writes the cell codes of boxes [first, size) into codes[] (0 for a box that is not
// well_formed(), whose id goes to `rejected`, in increasing order).
inline void cell_codes(std::span<const Aabb> boxes, const CellGrid& grid, std::uint32_t* codes,
                       std::vector<std::uint32_t>& rejected, std::uint32_t first = 0) {
  const auto count = static_cast<std::uint32_t>(boxes.size());
  std::uint32_t i = first;
#if defined(__SSE2__)
  for (; count - i >= 4; i += 4) {
    if (!cell_codes4(&boxes[i], grid, codes + i)) {
      cell_codes_one_by_one(boxes, i, i + 4, grid, codes, rejected);
    }
  }
#endif
  cell_codes_one_by_one(boxes, i, count, grid, codes, rejected);
}

// Writes the cell codes of the well-formed boxes [first, end) of four columns into codes[first,
// end), four at a time with SSE2: the same codes as cell_code(), to the last bit.
inline void cell_codes_of_columns(const float* min_x, const float* min_y, const float* max_x,
                                  const float* max_y, std::uint32_t first, std::uint32_t end,
                                  const CellGrid& g, std::uint32_t* codes) noexcept {
  std::uint32_t i = first;
#if defined(__SSE2__)
  for (; end - i >= 4; i += 4) {
    const __m128i x = cells_of4(_mm_loadu_ps(min_x + i), _mm_loadu_ps(max_x + i), g.world.min_x,
                                g.world.max_x, g.scale_x, g.cells);
    const __m128i y = cells_of4(_mm_loadu_ps(min_y + i), _mm_loadu_ps(max_y + i), g.world.min_y,
                                g.world.max_y, g.scale_y, g.cells);
    const __m128i code = _mm_or_si128(spread_bits4(x), _mm_slli_epi32(spread_bits4(y), 1));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(codes + i), code);
  }
#endif
  for (; i < end; ++i) codes[i] = cell_code({min_x[i], min_y[i], max_x[i], max_y[i]}, g);
}

}  // namespace quadpool::spatial::detail
