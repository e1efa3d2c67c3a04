#pragma once
// One node of the QuadTree. Only quad_tree.hpp's templates and quad_tree.cpp use it.

#include <cstdint>

#include "engine/spatial/aabb.hpp"

namespace quadpool::spatial::detail {

struct QuadTreeNode {
  Aabb quadrant;  // the region this node splits; items are placed by their centre
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

  bool is_leaf() const noexcept { return child_count == 0; }
  std::uint32_t item_count() const noexcept { return end_item - first_item; }
};

}  // namespace quadpool::spatial::detail
