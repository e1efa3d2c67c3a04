#pragma once
/// The ray cast behind QuadTree::ray_cast() (quad_tree.hpp includes this file at its end):
/// the walk of the nodes front to back, and the 4-wide slab test of a leaf's boxes. The nearest
/// search is in quad_tree_queries.cpp. Include engine/spatial/quad_tree.hpp, not this file.
///
/// Both walks keep their to-do list in a fixed array on the stack: a node waiting there is a
/// sibling of a node on the current path (at most 3 per level) or a child of the node just
/// opened (at most 4), so a tree of depth 16 needs at most 3 * 16 + 4 = 52 entries.

#include <bit>
#include <cstdint>
#include <limits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "engine/core/assert.hpp"
#include "engine/spatial/aabb.hpp"
#include "engine/spatial/detail/box_columns.hpp"
#include "engine/spatial/detail/quad_tree_node.hpp"
#include "engine/spatial/quad_tree.hpp"
#include "engine/spatial/ray.hpp"

namespace quadpool::spatial::detail {

/// The walks' to-do list: enough for max_depth 16 (see above).
inline constexpr int kQueryStackSize = 64;

/// A node waiting to be opened, with its entry t (ray) or its squared distance (nearest).
struct QueuedNode {
  const QuadTreeNode* node;
  float key;
};

/// Opens `node`'s children in the walk: those with admit(child, key) true are pushed so that
/// the one with the smallest key is popped first (children with equal keys in quadrant order).
template <class Admit>
inline void push_children_nearest_last(const QuadTreeNode* node, QueuedNode* stack, int& size,
                                       Admit&& admit) {
  QueuedNode kept[4];
  int count = 0;
  for (int i = 0; i < node->child_count; ++i) {
    float key;
    if (!admit(node->children[i], key)) continue;
    // Insertion into `kept` by decreasing key; a later child goes before an equal key, so that
    // equal keys pop in quadrant order.
    int at = count++;
    while (at > 0 && kept[at - 1].key <= key) {
      kept[at] = kept[at - 1];
      --at;
    }
    kept[at] = {node->children[i], key};
  }
  QUADPOOL_ASSERT(size + count <= kQueryStackSize, "the query's node stack overflowed");
  for (int i = 0; i < count; ++i) stack[size++] = kept[i];
}

/// For each box of the run [first, end) that `slabs` meets at a t <= `limit` (read again before
/// each report, which may lower it), in increasing slot order, calls report(slot, t); a report
/// that returns false ends the run. Returns false when a report did. The same answers, bit for
/// bit, as RaySlabs::enters() on each box.
template <class Report>
inline bool ray_cast_run(ColumnsView columns, std::uint32_t first, std::uint32_t end,
                         const RaySlabs& slabs, const float& limit, Report&& report) {
#if defined(__SSE2__)
  constexpr float inf = std::numeric_limits<float>::infinity();
  const __m128 plus_inf = _mm_set1_ps(inf), minus_inf = _mm_set1_ps(-inf);
  const __m128 zero = _mm_setzero_ps();
  const __m128 origin_x = _mm_set1_ps(slabs.origin_x), origin_y = _mm_set1_ps(slabs.origin_y);
  const __m128 inv_x = _mm_set1_ps(slabs.inv_x), inv_y = _mm_set1_ps(slabs.inv_y);
  const float* near_x = slabs.backward_x ? columns.max_x : columns.min_x;
  const float* far_x = slabs.backward_x ? columns.min_x : columns.max_x;
  const float* near_y = slabs.backward_y ? columns.max_y : columns.min_y;
  const float* far_y = slabs.backward_y ? columns.min_y : columns.max_y;
  // RaySlabs::axis() four boxes at a time; `flat` is the same for the whole ray, so its branch
  // is always predicted.
  const auto axis = [&](bool flat, const float* lo, const float* hi, const float* near,
                        const float* far, __m128 origin, __m128 inv, std::uint32_t j,
                        __m128& t_near, __m128& t_far) {
    if (flat) {
      const __m128 inside = _mm_and_ps(_mm_cmple_ps(_mm_loadu_ps(lo + j), origin),
                                       _mm_cmple_ps(origin, _mm_loadu_ps(hi + j)));
      t_near = _mm_or_ps(_mm_and_ps(inside, minus_inf), _mm_andnot_ps(inside, plus_inf));
      t_far = _mm_or_ps(_mm_and_ps(inside, plus_inf), _mm_andnot_ps(inside, minus_inf));
    } else {
      t_near = _mm_mul_ps(_mm_sub_ps(_mm_loadu_ps(near + j), origin), inv);
      t_far = _mm_mul_ps(_mm_sub_ps(_mm_loadu_ps(far + j), origin), inv);
    }
  };
  for (std::uint32_t j = first; j < end; j += 4) {
    __m128 near_tx, far_tx, near_ty, far_ty;
    axis(slabs.flat_x, columns.min_x, columns.max_x, near_x, far_x, origin_x, inv_x, j, near_tx,
         far_tx);
    axis(slabs.flat_y, columns.min_y, columns.max_y, near_y, far_y, origin_y, inv_y, j, near_ty,
         far_ty);
    const __m128 enter = _mm_max_ps(_mm_max_ps(near_tx, near_ty), zero);
    const __m128 exit = _mm_min_ps(_mm_min_ps(far_tx, far_ty), _mm_set1_ps(limit));
    auto mask = static_cast<std::uint32_t>(_mm_movemask_ps(_mm_cmple_ps(enter, exit)));
    if (end - j < 4) mask &= (1u << (end - j)) - 1u;
    if (mask == 0) continue;
    alignas(16) float entries[4];
    _mm_store_ps(entries, enter);
    do {
      const auto lane = static_cast<std::uint32_t>(std::countr_zero(mask));
      mask &= mask - 1;
      const float t = entries[lane] + 0.0f;  // as RaySlabs::enters()
      if (t <= limit && !report(j + lane, t)) return false;
    } while (mask != 0);
  }
  return true;
#else
  for (std::uint32_t j = first; j < end; ++j) {
    float t;
    const Aabb box{columns.min_x[j], columns.min_y[j], columns.max_x[j], columns.max_y[j]};
    if (slabs.enters(box, limit, t) && !report(j, t)) return false;
  }
  return true;
#endif
}

/// QuadTree::ray_cast() on the tree under `root` (see there).
template <class F>
void ray_cast_tree(const QuadTreeNode* root, ColumnsView columns, const std::uint32_t* ids,
                   const Ray& ray, F& f) {
  const RaySlabs slabs(ray);
  if (!slabs.valid || root == nullptr || root->item_count() == 0) return;
  float limit = slabs.max_t;
  float t;
  if (!slabs.enters(root->loose, limit, t)) return;
  const auto report = [&](std::uint32_t slot, float entry) {
    const auto next = static_cast<float>(f(ids[slot], entry));
    if (next == 0.0f) return false;
    // The limit never grows (Box2D lets it; here a node skipped under the old limit would make
    // "visits all" depend on the order); a negative or NaN answer keeps it, as in Box2D.
    if (next > 0.0f && next < limit) limit = next;
    return true;
  };
  QueuedNode stack[kQueryStackSize];
  int size = 0;
  stack[size++] = {root, t};
  while (size > 0) {
    const QueuedNode next = stack[--size];
    if (next.key > limit) continue;  // the limit fell since it was queued
    const QuadTreeNode* node = next.node;
    if (node->is_leaf()) {
      if (!ray_cast_run(columns, node->first_item, node->end_item, slabs, limit, report)) return;
      continue;
    }
    push_children_nearest_last(node, stack, size, [&](const QuadTreeNode* child, float& key) {
      return slabs.enters(child->loose, limit, key);
    });
  }
}

}  // namespace quadpool::spatial::detail

namespace quadpool::spatial {

template <class F>
void QuadTree::ray_cast(const Ray& ray, F&& f) const {
  detail::ray_cast_tree(root_, detail::view_of(columns_), item_ids_.data(), ray, f);
}

}  // namespace quadpool::spatial
