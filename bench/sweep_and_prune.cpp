#include "bench/sweep_and_prune.hpp"

#include <numeric>

namespace quadpool::bench {

void SweepAndPrune::update(std::span<const spatial::Aabb> boxes) {
  const std::size_t n = boxes.size();
  if (ids_.size() != n) {
    ids_.resize(n);
    std::iota(ids_.begin(), ids_.end(), 0u);
  }
  min_x_.resize(n);
  for (std::size_t i = 0; i < n; ++i) min_x_[i] = boxes[ids_[i]].min_x;
  // Insertion sort of (min_x, id) on min_x: last tick's order is nearly right.
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
    const spatial::Aabb& box = boxes[ids_[i]];
    max_x_[i] = box.max_x;
    min_y_[i] = box.min_y;
    max_y_[i] = box.max_y;
  }
}

}  // namespace quadpool::bench
