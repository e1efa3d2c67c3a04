#pragma once
/// SweepAndPrune: the broad phase that sorts the boxes along x and sweeps, the persistent kind
/// (Baraff's, and most physics engines' incremental one): the order along x is kept from one
/// call to the next and repaired with an insertion sort, which for slow sprites moves each box a
/// step or two, so a tick costs about O(n + candidates). The first call, or one with another box
/// count, sorts from scratch in O(n log n).
///
/// Exact and independent of the QuadTree: with brute_force.hpp, one of the two references the
/// tree is checked against (the checker behind the runner's --verify, pair_check.hpp, uses it
/// because brute force is quadratic), and a peer in spatial_bench.

#include <cstdint>
#include <span>
#include <vector>

#include "engine/spatial/aabb.hpp"

namespace quadpool::spatial {

class SweepAndPrune {
 public:
  /// Repairs the order along x for these boxes (the same ids as the last call; a change in
  /// their count sorts again from scratch) and gathers them in that order.
  void update(std::span<const Aabb> boxes);

  /// f(a, b), a < b, once for every overlapping pair of the last update() (closed boxes:
  /// touching counts), in sweep order.
  template <class F>
  void for_each_pair(F&& f) const {
    const std::size_t n = ids_.size();
    for (std::size_t i = 0; i < n; ++i) {
      const float max_x = max_x_[i], min_y = min_y_[i], max_y = max_y_[i];
      const std::uint32_t a = ids_[i];
      // Every later box starts at or after this one's min_x; once one starts beyond its max_x,
      // all the rest do too.
      for (std::size_t j = i + 1; j < n && min_x_[j] <= max_x; ++j) {
        if (min_y_[j] <= max_y && min_y <= max_y_[j]) {
          const std::uint32_t b = ids_[j];
          f(a < b ? a : b, a < b ? b : a);
        }
      }
    }
  }

 private:
  std::vector<std::uint32_t> ids_;  // box ids in order of min_x, kept between calls
  // The boxes in that order, gathered each call so that the sweep reads memory in order.
  std::vector<float> min_x_, max_x_, min_y_, max_y_;
};

}  // namespace quadpool::spatial
