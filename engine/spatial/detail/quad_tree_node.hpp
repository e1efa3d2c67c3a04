#pragma once
// One node of the QuadTree, and the box helpers its loose bounds are made and checked with.
// Only quad_tree.hpp's templates and the quad_tree*.cpp files use it.

#include <cstdint>
#include <limits>

#include "engine/spatial/aabb.hpp"

namespace quadpool::spatial::detail {

// One cache line: the traversals load a node's loose bounds and children together. The node's
// quadrant is not stored; it follows from the root's bounds and the quadrant_index path, and the
// traversals that need it (drawing, validate) compute it on the way down.
struct alignas(64) QuadTreeNode {
  // The union of every box in the subtree. Boxes stick out of their quadrant (that is what makes
  // the tree "loose"), so every overlap test against a node uses this, never `quadrant`.
  Aabb loose;
  // The non-empty quadrants' nodes, packed at the front in quadrant order; a leaf has none.
  QuadTreeNode* children[4] = {nullptr, nullptr, nullptr, nullptr};
  // The subtree's items are [first_item, end_item) of the tree's sorted item arrays: the build
  // lays items out in pre-order, so every subtree is one contiguous run.
  std::uint32_t first_item = 0;
  std::uint32_t end_item = 0;
  std::uint8_t depth = 0;
  std::uint8_t child_count = 0;
  std::uint8_t quadrant_index = 0;  // which quarter of its parent: bit 0 high x, bit 1 high y
  std::uint8_t pool = 0;            // the node pool it came from (Pool mode): QuadTree's index

  bool is_leaf() const noexcept { return child_count == 0; }
  std::uint32_t item_count() const noexcept { return end_item - first_item; }
};

static_assert(sizeof(QuadTreeNode) == 64, "a node is meant to fill exactly one cache line");

/// Quarter `index` of `parent` (bit 0: high x, bit 1: high y), split at the midpoints. The build
/// and every traversal use this one function, so they agree to the last bit.
inline Aabb child_quadrant(const Aabb& parent, int index) noexcept {
  const float mid_x = parent.min_x + 0.5f * (parent.max_x - parent.min_x);
  const float mid_y = parent.min_y + 0.5f * (parent.max_y - parent.min_y);
  return {(index & 1) != 0 ? mid_x : parent.min_x, (index & 2) != 0 ? mid_y : parent.min_y,
          (index & 1) != 0 ? parent.max_x : mid_x, (index & 2) != 0 ? parent.max_y : mid_y};
}

/// The union of nothing: overlaps no box, and min/max with any box gives that box.
inline constexpr Aabb kEmptyBox{
    std::numeric_limits<float>::infinity(), std::numeric_limits<float>::infinity(),
    -std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity()};

/// The smallest box holding `a` and `b`.
inline Aabb united(const Aabb& a, const Aabb& b) noexcept {
  return {a.min_x < b.min_x ? a.min_x : b.min_x, a.min_y < b.min_y ? a.min_y : b.min_y,
          a.max_x > b.max_x ? a.max_x : b.max_x, a.max_y > b.max_y ? a.max_y : b.max_y};
}

/// Whether `box` lies within `region`, edges included.
inline bool inside(const Aabb& box, const Aabb& region) noexcept {
  return (box.min_x >= region.min_x) & (box.max_x <= region.max_x) & (box.min_y >= region.min_y) &
         (box.max_y <= region.max_y);
}

}  // namespace quadpool::spatial::detail
