#include "engine/spatial/sweep_and_prune.hpp"

#include <algorithm>
#include <numeric>

namespace quadpool::spatial {

void SweepAndPrune::update(std::span<const Aabb> boxes) {
  const std::size_t n = boxes.size();
  if (ids_.size() != n) {
    // No order to repair: an insertion sort from scratch would be quadratic.
    ids_.resize(n);
    std::iota(ids_.begin(), ids_.end(), 0u);
    std::sort(ids_.begin(), ids_.end(), [&boxes](std::uint32_t x, std::uint32_t y) {
      return boxes[x].min_x < boxes[y].min_x;
    });
  }
  min_x_.resize(n);
  for (std::size_t i = 0; i < n; ++i) min_x_[i] = boxes[ids_[i]].min_x;
  // Insertion sort of (min_x, id) on min_x: the last call's order is nearly right.
  for (std::size_t i = 1; i < n; ++i) {
    const float key = min_x_[i];
    const std::uint32_t id = ids_[i];
    std::size_t j = i;
    for (; j > 0 && min_x_[j - 1] > key; --j) {
      min_x_[j] = min_x_[j - 1];
      ids_[j] = ids_[j - 1];
    }
    min_x_[j] = key;
    ids_[j] = id;
  }
  max_x_.resize(n);
  min_y_.resize(n);
  max_y_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const Aabb& box = boxes[ids_[i]];
    max_x_[i] = box.max_x;
    min_y_[i] = box.min_y;
    max_y_[i] = box.max_y;
  }
}

}  // namespace quadpool::spatial
