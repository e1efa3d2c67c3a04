#pragma once
// Boxes stored as four parallel float arrays (structure of arrays), and the kernel that tests
// one box against a run of them four at a time. Only the QuadTree uses these.
//
// Why: in a broad phase almost every box test fails, and a scalar loop of tests is a chain of
// hard-to-predict branches. Four SSE comparisons and one movemask give a 4-bit hit mask that is
// almost always zero, so the only branch left is one the predictor gets right.

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "engine/memory/huge_page_allocator.hpp"
#include "engine/spatial/aabb.hpp"

namespace quadpool::spatial::detail {

struct BoxColumns {
  // A run [first, end) may be read in blocks of four (eight in wide_kernels.cpp), so every array
  // has kPadding more entries than boxes. The padding boxes are empty ({+inf, +inf, -inf, -inf})
  // and overlap nothing.
  static constexpr std::uint32_t kPadding = 7;

  memory::HugePageVector<float> min_x, min_y, max_x, max_y;

  /// Sizes the arrays for `count` boxes plus padding; keeps the capacity of earlier frames.
  void resize(std::uint32_t count) {
    constexpr float inf = std::numeric_limits<float>::infinity();
    const std::size_t size = static_cast<std::size_t>(count) + kPadding;
    min_x.resize(size);
    min_y.resize(size);
    max_x.resize(size);
    max_y.resize(size);
    for (std::size_t i = count; i < size; ++i) {
      min_x[i] = inf;
      min_y[i] = inf;
      max_x[i] = -inf;
      max_y[i] = -inf;
    }
  }

  void set(std::uint32_t i, const Aabb& b) noexcept {
    min_x[i] = b.min_x;
    min_y[i] = b.min_y;
    max_x[i] = b.max_x;
    max_y[i] = b.max_y;
  }

  Aabb get(std::uint32_t i) const noexcept { return {min_x[i], min_y[i], max_x[i], max_y[i]}; }
};

/// Four read-only column pointers: a BoxColumns or a small local copy (CandidateColumns). Every
/// array is readable up to BoxColumns::kPadding entries past the end of any run given with it.
struct ColumnsView {
  const float* min_x;
  const float* min_y;
  const float* max_x;
  const float* max_y;
};

inline ColumnsView view_of(const BoxColumns& columns) noexcept {
  return {columns.min_x.data(), columns.min_y.data(), columns.max_x.data(), columns.max_y.data()};
}

/// Calls hit(j) for every j in [first, end) whose box overlaps `box` (closed, as overlaps()),
/// in increasing j.
template <class Hit>
inline void for_each_overlap(ColumnsView columns, std::uint32_t first, std::uint32_t end,
                             const Aabb& box, Hit&& hit) {
  const float* min_x = columns.min_x;
  const float* min_y = columns.min_y;
  const float* max_x = columns.max_x;
  const float* max_y = columns.max_y;
#if defined(__SSE2__)
  const __m128 box_min_x = _mm_set1_ps(box.min_x);
  const __m128 box_min_y = _mm_set1_ps(box.min_y);
  const __m128 box_max_x = _mm_set1_ps(box.max_x);
  const __m128 box_max_y = _mm_set1_ps(box.max_y);
  for (std::uint32_t j = first; j < end; j += 4) {
    const __m128 x = _mm_and_ps(_mm_cmple_ps(_mm_loadu_ps(min_x + j), box_max_x),
                                _mm_cmple_ps(box_min_x, _mm_loadu_ps(max_x + j)));
    const __m128 y = _mm_and_ps(_mm_cmple_ps(_mm_loadu_ps(min_y + j), box_max_y),
                                _mm_cmple_ps(box_min_y, _mm_loadu_ps(max_y + j)));
    auto mask = static_cast<std::uint32_t>(_mm_movemask_ps(_mm_and_ps(x, y)));
    if (end - j < 4) mask &= (1u << (end - j)) - 1u;
    while (mask != 0) {
      hit(j + static_cast<std::uint32_t>(std::countr_zero(mask)));
      mask &= mask - 1;
    }
  }
#else
  for (std::uint32_t j = first; j < end; ++j) {
    const bool overlapping = (min_x[j] <= box.max_x) & (box.min_x <= max_x[j]) &
                             (min_y[j] <= box.max_y) & (box.min_y <= max_y[j]);
    if (overlapping) hit(j);
  }
#endif
}

template <class Hit>
inline void for_each_overlap(const BoxColumns& columns, std::uint32_t first, std::uint32_t end,
                             const Aabb& box, Hit&& hit) {
  for_each_overlap(view_of(columns), first, end, box, hit);
}

/// Up to kCapacity boxes copied out of a BoxColumns, with the slot each came from: a leaf's
/// boxes that reach into a neighbour, tested four at a time against the neighbour's.
struct CandidateColumns {
  static constexpr std::uint32_t kCapacity = 64;
  alignas(16) float min_x[kCapacity + BoxColumns::kPadding];
  alignas(16) float min_y[kCapacity + BoxColumns::kPadding];
  alignas(16) float max_x[kCapacity + BoxColumns::kPadding];
  alignas(16) float max_y[kCapacity + BoxColumns::kPadding];
  std::uint32_t slot[kCapacity];
  std::uint32_t count = 0;

  /// Copies box j of `from`; false (and nothing copied) when full.
  bool push(const BoxColumns& from, std::uint32_t j) noexcept {
    if (count == kCapacity) return false;
    min_x[count] = from.min_x[j];
    min_y[count] = from.min_y[j];
    max_x[count] = from.max_x[j];
    max_y[count] = from.max_y[j];
    slot[count++] = j;
    return true;
  }
  /// Makes the entries past the last box empty boxes, as BoxColumns's padding: call once the
  /// boxes are in, before view().
  void seal() noexcept {
    constexpr float inf = std::numeric_limits<float>::infinity();
    for (std::uint32_t k = count; k < count + BoxColumns::kPadding; ++k) {
      min_x[k] = inf;
      min_y[k] = inf;
      max_x[k] = -inf;
      max_y[k] = -inf;
    }
  }
  ColumnsView view() const noexcept { return {min_x, min_y, max_x, max_y}; }
};

/// As for_each_overlap, for two boxes at once: hit_a(j) for every j in [first, end) whose box
/// overlaps `a`, hit_b(j) for `b`, in increasing j (per block of four, a's hits first). Each
/// block of the run is loaded once for both, and the loop runs half as often as two calls.
template <class HitA, class HitB>
inline void for_each_overlap2(ColumnsView columns, std::uint32_t first, std::uint32_t end,
                              const Aabb& a, const Aabb& b, HitA&& hit_a, HitB&& hit_b) {
#if defined(__SSE2__)
  const float* min_x = columns.min_x;
  const float* min_y = columns.min_y;
  const float* max_x = columns.max_x;
  const float* max_y = columns.max_y;
  const __m128 a_min_x = _mm_set1_ps(a.min_x), a_min_y = _mm_set1_ps(a.min_y);
  const __m128 a_max_x = _mm_set1_ps(a.max_x), a_max_y = _mm_set1_ps(a.max_y);
  const __m128 b_min_x = _mm_set1_ps(b.min_x), b_min_y = _mm_set1_ps(b.min_y);
  const __m128 b_max_x = _mm_set1_ps(b.max_x), b_max_y = _mm_set1_ps(b.max_y);
  for (std::uint32_t j = first; j < end; j += 4) {
    const __m128 x0 = _mm_loadu_ps(min_x + j), x1 = _mm_loadu_ps(max_x + j);
    const __m128 y0 = _mm_loadu_ps(min_y + j), y1 = _mm_loadu_ps(max_y + j);
    const __m128 in_a = _mm_and_ps(
        _mm_and_ps(_mm_cmple_ps(x0, a_max_x), _mm_cmple_ps(a_min_x, x1)),
        _mm_and_ps(_mm_cmple_ps(y0, a_max_y), _mm_cmple_ps(a_min_y, y1)));
    const __m128 in_b = _mm_and_ps(
        _mm_and_ps(_mm_cmple_ps(x0, b_max_x), _mm_cmple_ps(b_min_x, x1)),
        _mm_and_ps(_mm_cmple_ps(y0, b_max_y), _mm_cmple_ps(b_min_y, y1)));
    auto mask = static_cast<std::uint32_t>(_mm_movemask_ps(in_a)) |
                static_cast<std::uint32_t>(_mm_movemask_ps(in_b)) << 4;
    if (end - j < 4) mask &= ((1u << (end - j)) - 1u) * 0x11u;
    while (mask != 0) {
      const auto bit = static_cast<std::uint32_t>(std::countr_zero(mask));
      if (bit < 4) {
        hit_a(j + bit);
      } else {
        hit_b(j + bit - 4);
      }
      mask &= mask - 1;
    }
  }
#else
  for_each_overlap(columns, first, end, a, hit_a);
  for_each_overlap(columns, first, end, b, hit_b);
#endif
}

/// The union of the boxes [first, end) (the empty box {+inf, +inf, -inf, -inf} for an empty run),
/// and in `outside` how many of them stick out of `region`.
inline Aabb bounds_of_run(const BoxColumns& columns, std::uint32_t first, std::uint32_t end,
                          const Aabb& region, std::uint32_t& outside) noexcept {
  constexpr float inf = std::numeric_limits<float>::infinity();
  const float* min_x = columns.min_x.data();
  const float* min_y = columns.min_y.data();
  const float* max_x = columns.max_x.data();
  const float* max_y = columns.max_y.data();
  Aabb result{inf, inf, -inf, -inf};
  std::uint32_t count = 0;
  std::uint32_t j = first;
#if defined(__SSE2__)
  // Whole blocks of four; the tail (the lanes past `end` belong to the next run) is scalar.
  if (end - first >= 4) {
    __m128 lo_x = _mm_set1_ps(inf), lo_y = _mm_set1_ps(inf);
    __m128 hi_x = _mm_set1_ps(-inf), hi_y = _mm_set1_ps(-inf);
    const __m128 region_min_x = _mm_set1_ps(region.min_x);
    const __m128 region_min_y = _mm_set1_ps(region.min_y);
    const __m128 region_max_x = _mm_set1_ps(region.max_x);
    const __m128 region_max_y = _mm_set1_ps(region.max_y);
    for (; end - j >= 4; j += 4) {
      const __m128 x0 = _mm_loadu_ps(min_x + j), y0 = _mm_loadu_ps(min_y + j);
      const __m128 x1 = _mm_loadu_ps(max_x + j), y1 = _mm_loadu_ps(max_y + j);
      lo_x = _mm_min_ps(lo_x, x0);
      lo_y = _mm_min_ps(lo_y, y0);
      hi_x = _mm_max_ps(hi_x, x1);
      hi_y = _mm_max_ps(hi_y, y1);
      const __m128 in = _mm_and_ps(
          _mm_and_ps(_mm_cmpge_ps(x0, region_min_x), _mm_cmple_ps(x1, region_max_x)),
          _mm_and_ps(_mm_cmpge_ps(y0, region_min_y), _mm_cmple_ps(y1, region_max_y)));
      // The boxes outside: the bits clear in the 4-bit mask. Nibble m of the constant is the
      // number of bits clear in m (std::popcount is a library call without -mpopcnt).
      const auto inside_mask = static_cast<unsigned>(_mm_movemask_ps(in));
      count += static_cast<std::uint32_t>((0x0112122312232334ull >> (4 * inside_mask)) & 0xFu);
    }
    alignas(16) float lanes[4][4];
    _mm_store_ps(lanes[0], lo_x);
    _mm_store_ps(lanes[1], lo_y);
    _mm_store_ps(lanes[2], hi_x);
    _mm_store_ps(lanes[3], hi_y);
    for (int k = 0; k < 4; ++k) {
      result.min_x = std::min(result.min_x, lanes[0][k]);
      result.min_y = std::min(result.min_y, lanes[1][k]);
      result.max_x = std::max(result.max_x, lanes[2][k]);
      result.max_y = std::max(result.max_y, lanes[3][k]);
    }
  }
#endif
  for (; j < end; ++j) {
    result.min_x = std::min(result.min_x, min_x[j]);
    result.min_y = std::min(result.min_y, min_y[j]);
    result.max_x = std::max(result.max_x, max_x[j]);
    result.max_y = std::max(result.max_y, max_y[j]);
    count += !((min_x[j] >= region.min_x) & (max_x[j] <= region.max_x) &
               (min_y[j] >= region.min_y) & (max_y[j] <= region.max_y));
  }
  outside = count;
  return result;
}

}  // namespace quadpool::spatial::detail
