// QuadTree::nearest(): the k boxes nearest to a point. (The ray cast is a template, in
// detail/quad_tree_queries.hpp.)
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "engine/spatial/aabb.hpp"
#include "engine/spatial/detail/box_columns.hpp"
#include "engine/spatial/detail/quad_tree_node.hpp"
#include "engine/spatial/detail/quad_tree_queries.hpp"
#include "engine/spatial/quad_tree.hpp"

namespace quadpool::spatial {

namespace {

using detail::ColumnsView;
using detail::QuadTreeNode;

// The best k so far, as a max-heap of item slots in the caller's `out` (the worst on top), keyed
// by (squared distance, id). A key is recomputed from the columns when the heap compares two
// slots: that happens only when a box gets in, which after the first leaf is rare, and it keeps
// every byte of the state in `out`, whatever k.
class BestSoFar {
 public:
  BestSoFar(ColumnsView columns, const std::uint32_t* ids, float x, float y,
            std::span<std::uint32_t> out) noexcept
      : columns_(columns), ids_(ids), x_(x), y_(y), heap_(out.data()), capacity_(out.size()) {}

  std::size_t count() const noexcept { return count_; }
  /// A box or node farther than this cannot get in (one at exactly this distance may, by id).
  float reach() const noexcept { return reach_; }

  /// Takes the box in `slot`, at squared distance `d2`, if it beats the worst so far.
  void offer(std::uint32_t slot, float d2) noexcept {
    if (count_ < capacity_) {
      heap_[count_++] = slot;
      std::push_heap(heap_, heap_ + count_, before());
    } else if (d2 < worst_d2_ || (d2 == worst_d2_ && ids_[slot] < worst_id_)) {
      std::pop_heap(heap_, heap_ + count_, before());
      heap_[count_ - 1] = slot;
      std::push_heap(heap_, heap_ + count_, before());
    } else {
      return;
    }
    if (count_ == capacity_) {
      worst_d2_ = distance(heap_[0]);
      worst_id_ = ids_[heap_[0]];
      reach_ = worst_d2_;
    }
  }

  /// Sorts the best nearest first and turns slots into ids; returns how many.
  std::size_t finish() noexcept {
    std::sort_heap(heap_, heap_ + count_, before());
    for (std::size_t i = 0; i < count_; ++i) heap_[i] = ids_[heap_[i]];
    return count_;
  }

 private:
  float distance(std::uint32_t slot) const noexcept {
    const Aabb box{columns_.min_x[slot], columns_.min_y[slot], columns_.max_x[slot],
                   columns_.max_y[slot]};
    return squared_distance(box, x_, y_);
  }
  // The heap's order: nearer first, equal distances by smaller id.
  struct Before {
    const BestSoFar* best;
    bool operator()(std::uint32_t a, std::uint32_t b) const noexcept {
      const float da = best->distance(a), db = best->distance(b);
      return da < db || (da == db && best->ids_[a] < best->ids_[b]);
    }
  };
  Before before() const noexcept { return {this}; }

  ColumnsView columns_;
  const std::uint32_t* ids_;
  float x_, y_;
  std::uint32_t* heap_;
  std::size_t capacity_;
  std::size_t count_ = 0;
  float worst_d2_ = 0.0f;
  std::uint32_t worst_id_ = 0;
  float reach_ = std::numeric_limits<float>::infinity();
};

// Offers every box of the run [first, end) within the current reach, four at a time.
void offer_run(ColumnsView columns, std::uint32_t first, std::uint32_t end, float x, float y,
               BestSoFar& best) noexcept {
#if defined(__SSE2__)
  // squared_distance() step by step, its maxima as maxps.
  const __m128 px = _mm_set1_ps(x), py = _mm_set1_ps(y), zero = _mm_setzero_ps();
  for (std::uint32_t j = first; j < end; j += 4) {
    const __m128 dx = _mm_max_ps(_mm_max_ps(_mm_sub_ps(_mm_loadu_ps(columns.min_x + j), px),
                                            _mm_sub_ps(px, _mm_loadu_ps(columns.max_x + j))),
                                 zero);
    const __m128 dy = _mm_max_ps(_mm_max_ps(_mm_sub_ps(_mm_loadu_ps(columns.min_y + j), py),
                                            _mm_sub_ps(py, _mm_loadu_ps(columns.max_y + j))),
                                 zero);
    const __m128 d2 = _mm_add_ps(_mm_mul_ps(dx, dx), _mm_mul_ps(dy, dy));
    auto mask = static_cast<std::uint32_t>(
        _mm_movemask_ps(_mm_cmple_ps(d2, _mm_set1_ps(best.reach()))));
    if (end - j < 4) mask &= (1u << (end - j)) - 1u;
    if (mask == 0) continue;
    alignas(16) float lanes[4];
    _mm_store_ps(lanes, d2);
    do {
      const auto lane = static_cast<std::uint32_t>(std::countr_zero(mask));
      mask &= mask - 1;
      best.offer(j + lane, lanes[lane]);
    } while (mask != 0);
  }
#else
  for (std::uint32_t j = first; j < end; ++j) {
    const Aabb box{columns.min_x[j], columns.min_y[j], columns.max_x[j], columns.max_y[j]};
    const float d2 = squared_distance(box, x, y);
    if (d2 <= best.reach()) best.offer(j, d2);
  }
#endif
}

}  // namespace

std::size_t QuadTree::nearest(float x, float y, std::span<std::uint32_t> out) const {
  const auto finite = [](float v) { return v - v == 0.0f; };
  if (out.empty() || !finite(x) || !finite(y) || root_ == nullptr || root_->item_count() == 0) {
    return 0;
  }
  const ColumnsView columns = detail::view_of(columns_);
  BestSoFar best(columns, item_ids_.data(), x, y, out);
  // Depth first, nearest child first: the first leaf fills the best k, and its k-th distance
  // then rules out most of the tree. A node's bounds contain its boxes, so its distance is never
  // more than any of its boxes' (the same rounding, step by step): skipping a node farther than
  // the k-th best loses nothing.
  detail::QueuedNode stack[detail::kQueryStackSize];
  int size = 0;
  stack[size++] = {root_, squared_distance(root_->loose, x, y)};
  while (size > 0) {
    const detail::QueuedNode next = stack[--size];
    if (next.key > best.reach()) continue;
    const QuadTreeNode* node = next.node;
    if (node->is_leaf()) {
      offer_run(columns, node->first_item, node->end_item, x, y, best);
      continue;
    }
    detail::push_children_nearest_last(node, stack, size, [&](const QuadTreeNode* child,
                                                              float& d2) {
      d2 = squared_distance(child->loose, x, y);
      return d2 <= best.reach();
    });
  }
  return best.finish();
}

}  // namespace quadpool::spatial
