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

// The two ways to keep the best k so far; nearest_walk() takes either. Both order by (squared
// distance, id) and offer the same answers.

// Up to kFewKeys: a sorted array of keys on the stack. A squared distance is never negative or
// NaN (and never -0: see squared_distance()), and the bits of such floats, read as integers,
// are in the floats' order, so (bits << 32 | id) compares exactly as (distance, id). A box that
// gets in is inserted by moving the worse keys up one place.
class FewBest {
 public:
  static constexpr std::size_t kFewKeys = 128;

  FewBest(const std::uint32_t* ids, std::size_t capacity) noexcept
      : ids_(ids), capacity_(capacity) {}

  float reach() const noexcept { return reach_; }

  void offer(std::uint32_t slot, float d2) noexcept {
    const std::uint64_t key = std::uint64_t{std::bit_cast<std::uint32_t>(d2)} << 32 | ids_[slot];
    std::size_t at;
    if (count_ < capacity_) {
      at = count_++;
    } else if (key < keys_[count_ - 1]) {
      at = count_ - 1;
    } else {
      return;
    }
    while (at > 0 && keys_[at - 1] > key) {
      keys_[at] = keys_[at - 1];
      --at;
    }
    keys_[at] = key;
    if (count_ == capacity_) {
      reach_ = std::bit_cast<float>(static_cast<std::uint32_t>(keys_[count_ - 1] >> 32));
    }
  }

  std::size_t finish(std::span<std::uint32_t> out) const noexcept {
    for (std::size_t i = 0; i < count_; ++i) out[i] = static_cast<std::uint32_t>(keys_[i]);
    return count_;
  }

 private:
  const std::uint32_t* ids_;
  std::size_t capacity_;
  std::size_t count_ = 0;
  float reach_ = std::numeric_limits<float>::infinity();
  std::uint64_t keys_[kFewKeys];
};

// More: a max-heap of item slots in the caller's `out` (the worst on top). A key is recomputed
// from the columns when the heap compares two slots, which keeps every byte of the state in
// `out`, whatever k.
class ManyBest {
 public:
  ManyBest(ColumnsView columns, const std::uint32_t* ids, float x, float y,
           std::span<std::uint32_t> out) noexcept
      : columns_(columns), ids_(ids), x_(x), y_(y), heap_(out.data()), capacity_(out.size()) {}

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
  std::size_t finish(std::span<std::uint32_t>) noexcept {
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
    const ManyBest* best;
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
template <class Best>
void offer_run(ColumnsView columns, std::uint32_t first, std::uint32_t end, float x, float y,
               Best& best) noexcept {
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

// Depth first, nearest child first: the first leaf fills the best k, and its k-th distance then
// rules out most of the tree. A node's bounds contain its boxes, so its distance is never more
// than any of its boxes' (the same rounding, step by step): skipping a node farther than the
// k-th best loses nothing.
template <class Best>
void nearest_walk(const QuadTreeNode* root, ColumnsView columns, float x, float y, Best& best) {
  detail::QueuedNode stack[detail::kQueryStackSize];
  int size = 0;
  stack[size++] = {root, squared_distance(root->loose, x, y)};
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
}

}  // namespace

std::size_t QuadTree::nearest(float x, float y, std::span<std::uint32_t> out) const {
  const auto finite = [](float v) { return v - v == 0.0f; };
  if (out.empty() || !finite(x) || !finite(y) || root_ == nullptr || root_->item_count() == 0) {
    return 0;
  }
  const ColumnsView columns = detail::view_of(columns_);
  if (out.size() <= FewBest::kFewKeys) {
    FewBest best(item_ids_.data(), out.size());
    nearest_walk(root_, columns, x, y, best);
    return best.finish(out);
  }
  ManyBest best(columns, item_ids_.data(), x, y, out);
  nearest_walk(root_, columns, x, y, best);
  return best.finish(out);
}

}  // namespace quadpool::spatial
