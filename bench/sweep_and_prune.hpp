#pragma once
// Sweep and prune on x, the persistent kind: the boxes' order along x is kept from one tick to the
// next and repaired with an insertion sort, which for slow sprites moves each box a step or two,
// so the sort is nearly linear. Then one sweep: each box is tested against the boxes that start
// before it ends on x. Bench-only code, as its authors intend it used (Baraff's and most physics
// engines' incremental SAP), written to be fast rather than general.

#include <cstdint>
#include <span>
#include <vector>

#include "engine/spatial/aabb.hpp"

namespace quadpool::bench {

class SweepAndPrune {
 public:
  /// Repairs the order along x for this tick's boxes (the same ids as last tick; a change in
  /// their count starts the order again) and gathers them in that order.
  void update(std::span<const spatial::Aabb> boxes);

  /// f(a, b), a < b, once for every overlapping pair (closed boxes: touching counts).
  template <class F>
  void for_each_pair(F&& f) const {
    const std::size_t n = ids_.size();
    for (std::size_t i = 0; i < n; ++i) {
      const float max_x = max_x_[i], min_y = min_y_[i], max_y = max_y_[i];
      const std::uint32_t a = ids_[i];
      for (std::size_t j = i + 1; j < n && min_x_[j] <= max_x; ++j) {
        if (min_y_[j] <= max_y && min_y <= max_y_[j]) {
          const std::uint32_t b = ids_[j];
          f(a < b ? a : b, a < b ? b : a);
        }
      }
    }
  }

 private:
  std::vector<std::uint32_t> ids_;  // box ids in order of min_x, kept between ticks
  // The boxes in that order, gathered each tick so that the sweep reads memory in order.
  std::vector<float> min_x_, max_x_, min_y_, max_y_;
};

}  // namespace quadpool::bench
