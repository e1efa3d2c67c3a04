// QuadTree::validate(): every invariant of a built tree checked from scratch, for tests and
// checked builds. The items' cells are taken again from their boxes, not read from what the
// rebuild stored.
#include <cstdint>
#include <vector>

#include "engine/core/assert.hpp"
#include "engine/spatial/detail/cell_codes.hpp"
#include "engine/spatial/detail/quad_tree_node.hpp"
#include "engine/spatial/quad_tree.hpp"

namespace quadpool::spatial {

// Checks `node` against its quadrant (cell `prefix` at `depth`) and walks its children, adding
// what it sees to `counted`; asserts on failure.
void QuadTree::validate_node(const Node* node, int depth, std::uint32_t prefix,
                             const Aabb& quadrant, QuadTreeStats& counted) const {
  const int max_depth = config_.max_depth;
  const auto capacity = static_cast<std::uint32_t>(config_.leaf_capacity);
  const std::size_t count = stats_.items;
  ++counted.nodes;
  if (static_cast<std::size_t>(depth) > counted.max_depth_reached) {
    counted.max_depth_reached = static_cast<std::size_t>(depth);
  }
  QUADPOOL_ASSERT(node->depth == depth && depth <= max_depth,
                  "QuadTree::validate: a node's depth is wrong or beyond max_depth");
  QUADPOOL_ASSERT(node->first_item <= node->end_item && node->end_item <= count,
                  "QuadTree::validate: a node's item range is out of bounds");
  const int shift = 2 * (max_depth - depth);
  // Each item's cell taken again from its box, not read from what the rebuild stored.
  const detail::CellGrid grid = cell_grid();
  const auto cell_of = [&](std::uint32_t i) { return detail::cell_code(columns_.get(i), grid); };
  Aabb loose = detail::kEmptyBox;
  for (std::uint32_t i = node->first_item; i < node->end_item; ++i) {
    const std::uint32_t cell_prefix = shift >= 32 ? 0 : cell_of(i) >> shift;
    QUADPOOL_ASSERT(cell_prefix == prefix,
                    "QuadTree::validate: an item's centre is outside its node's quadrant");
    loose = detail::united(loose, columns_.get(i));
  }
  QUADPOOL_ASSERT(loose.min_x == node->loose.min_x && loose.min_y == node->loose.min_y &&
                      loose.max_x == node->loose.max_x && loose.max_y == node->loose.max_y,
                  "QuadTree::validate: a node's loose bounds are not the union of its boxes");
  const std::uint32_t items = node->item_count();
  if (node->is_leaf()) {
    ++counted.leaves;
    // A leaf's items are in (cell at the sort depth, id) order, which below the sort depth
    // (all of the leaf's items share that cell) is plain id order.
    const int order_shift = 2 * (max_depth - (depth > sort_depth_ ? depth : sort_depth_));
    auto order_key = [&](std::uint32_t i) {
      return (std::uint64_t{cell_of(i)} >> order_shift << 32) | item_ids_[i];
    };
    for (std::uint32_t i = node->first_item; i < node->end_item; ++i) {
      counted.straddling_items += !detail::inside(columns_.get(i), quadrant);
      QUADPOOL_ASSERT(i == node->first_item || order_key(i - 1) < order_key(i),
                      "QuadTree::validate: a leaf's items are not in (cell, id) order");
    }
    if (items > counted.max_leaf_items) counted.max_leaf_items = items;
    for (const Node* child : node->children) {
      QUADPOOL_ASSERT(child == nullptr, "QuadTree::validate: a leaf has a child");
    }
    QUADPOOL_ASSERT(items <= capacity || depth == max_depth,
                    "QuadTree::validate: a leaf above max_depth holds more than leaf_capacity");
    return;
  }
  QUADPOOL_ASSERT(items > capacity && depth < max_depth,
                  "QuadTree::validate: an inner node should have been a leaf");
  std::uint32_t next = node->first_item;
  int previous_quadrant = -1;
  for (int i = 0; i < 4; ++i) {
    const Node* child = node->children[i];
    if (i >= node->child_count) {
      QUADPOOL_ASSERT(child == nullptr, "QuadTree::validate: a child beyond child_count");
      continue;
    }
    QUADPOOL_ASSERT(
        child != nullptr && child->quadrant_index > previous_quadrant && child->quadrant_index < 4,
        "QuadTree::validate: children are not packed in quadrant order");
    previous_quadrant = child->quadrant_index;
    QUADPOOL_ASSERT(child->first_item == next && child->item_count() > 0,
                    "QuadTree::validate: children do not split their parent's run in order");
    next = child->end_item;
    const std::uint32_t q = child->quadrant_index;
    validate_node(child, depth + 1, (prefix << 2) | q,
                  detail::child_quadrant(quadrant, static_cast<int>(q)), counted);
  }
  QUADPOOL_ASSERT(next == node->end_item,
                  "QuadTree::validate: children do not cover their parent's items");
}

void QuadTree::validate() const {
  if constexpr (!kAssertsEnabled) return;
  const std::size_t count = stats_.items;
  QUADPOOL_ASSERT(
      columns_.min_x.size() == count + detail::BoxColumns::kPadding && item_ids_.size() == count,
      "QuadTree::validate: item arrays disagree with stats().items");
  if (root_ == nullptr) {
    QUADPOOL_ASSERT(count == 0 && stats_.nodes == 0, "QuadTree::validate: items without a root");
    return;
  }

  // The items' ids and the rejected ids together are 0..n-1, each once.
  const std::size_t boxes = count + rejected_ids_.size();
  QUADPOOL_ASSERT(stats_.rejected_boxes == rejected_ids_.size(),
                  "QuadTree::validate: rejected_boxes disagrees with the rejected ids");
  std::vector<bool> seen(boxes, false);
  for (std::size_t i = 0; i < count; ++i) {
    QUADPOOL_ASSERT(item_ids_[i] < boxes && !seen[item_ids_[i]],
                    "QuadTree::validate: item ids are not a permutation of 0..n-1");
    seen[item_ids_[i]] = true;
  }
  for (const std::uint32_t id : rejected_ids_) {
    QUADPOOL_ASSERT(id < boxes && !seen[id], "QuadTree::validate: a rejected id is also an item");
    seen[id] = true;
  }

  // Last frame's order for the next frame's sort: strictly increasing (cell, id) keys whose ids
  // are this frame's items, each once (every id is `seen` here, with no rejection: unmark it).
  if (order_is_hint_) {
    QUADPOOL_ASSERT(order_keys_.size() == count && rejected_ids_.empty(),
                    "QuadTree::validate: the order kept for the next frame has the wrong size");
    for (std::size_t s = 0; s < count; ++s) {
      QUADPOOL_ASSERT(s == 0 || order_keys_[s - 1] < order_keys_[s],
                      "QuadTree::validate: the order kept for the next frame is not sorted");
      const auto id = static_cast<std::uint32_t>(order_keys_[s]);
      QUADPOOL_ASSERT(id < count && seen[id],
                      "QuadTree::validate: the order kept for the next frame repeats an id");
      QUADPOOL_ASSERT(
          last_sort_cells_.size() == count && last_sort_cells_[id] == order_keys_[s] >> 32,
          "QuadTree::validate: an item's kept cell is not the one in its key");
      seen[id] = false;
    }
  }

  // The sort's cell starts, which the build's cuts read: each cell's items at the sort depth
  // are exactly the slots from its start to the next cell's.
  if (count > 0) {
    QUADPOOL_ASSERT(bucket_starts_.size() == (std::size_t{1} << (2 * sort_depth_)) + 1 &&
                        bucket_starts_.front() == 0 && bucket_starts_.back() == count,
                    "QuadTree::validate: the cells' starts do not span the items");
    const detail::CellGrid grid = cell_grid();
    const int sort_shift = 2 * (config_.max_depth - sort_depth_);
    for (std::size_t c = 0; c + 1 < bucket_starts_.size(); ++c) {
      QUADPOOL_ASSERT(bucket_starts_[c] <= bucket_starts_[c + 1],
                      "QuadTree::validate: the cells' starts are not in order");
      for (std::uint32_t s = bucket_starts_[c]; s < bucket_starts_[c + 1]; ++s) {
        QUADPOOL_ASSERT(s < count && (std::uint64_t{detail::cell_code(columns_.get(s), grid)} >>
                                      sort_shift) == c,
                        "QuadTree::validate: an item is not in its cell's run of the starts");
      }
    }
  }

  QuadTreeStats counted{};
  counted.items = count;

  QUADPOOL_ASSERT(root_->first_item == 0 && root_->end_item == count,
                  "QuadTree::validate: the root does not hold every item");
  validate_node(root_, 0, 0, config_.bounds, counted);

  QUADPOOL_ASSERT(counted.nodes == stats_.nodes && counted.leaves == stats_.leaves &&
                      counted.max_depth_reached == stats_.max_depth_reached &&
                      counted.max_leaf_items == stats_.max_leaf_items &&
                      counted.straddling_items == stats_.straddling_items,
                  "QuadTree::validate: stats() disagree with the tree");
  const std::size_t pooled = live_kind_ == memory::AllocatorKind::Pool ? stats_.nodes : 0;
  QUADPOOL_ASSERT(pool_stats().blocks_in_use == pooled,
                  "QuadTree::validate: the node pool's live blocks are not the tree's nodes");
}

}  // namespace quadpool::spatial
