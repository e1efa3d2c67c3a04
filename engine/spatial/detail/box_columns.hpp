#pragma once
// Boxes stored as four parallel float arrays (structure of arrays), and the kernel that tests
// one box against a run of them four at a time. Only the QuadTree uses these.
//
// Why: in a broad phase almost every box test fails, and a scalar loop of tests is a chain of
// hard-to-predict branches. Four SSE comparisons and one movemask give a 4-bit hit mask that is
// almost always zero, so the only branch left is one the predictor gets right.

#include <bit>
#include <cstdint>
#include <limits>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "engine/spatial/aabb.hpp"

namespace quadpool::spatial::detail {

struct BoxColumns {
  // A run [first, end) may be read in blocks of four, so every array has kPadding more entries
  // than boxes. The padding boxes are empty ({+inf, +inf, -inf, -inf}) and overlap nothing.
  static constexpr std::uint32_t kPadding = 3;

  std::vector<float> min_x, min_y, max_x, max_y;

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

/// Calls hit(j) for every j in [first, end) whose box overlaps `box` (closed, as overlaps()),
/// in increasing j.
template <class Hit>
inline void for_each_overlap(const BoxColumns& columns, std::uint32_t first, std::uint32_t end,
                             const Aabb& box, Hit&& hit) {
  const float* min_x = columns.min_x.data();
  const float* min_y = columns.min_y.data();
  const float* max_x = columns.max_x.data();
  const float* max_y = columns.max_y.data();
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

}  // namespace quadpool::spatial::detail
