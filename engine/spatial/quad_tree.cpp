#include "engine/spatial/quad_tree.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "engine/core/assert.hpp"
#include "engine/core/task_system.hpp"
#include "engine/spatial/detail/cell_codes.hpp"
#include "engine/spatial/detail/wide_kernels.hpp"

// Sections: configuration checks, construction and teardown, rebuild (node build), pair work
// split. The items' order (the cell sort, its repair from last frame, renumbering) is in
// quad_tree_order.cpp; validate() in quad_tree_validate.cpp.

namespace quadpool::spatial {

namespace {

// --- configuration checks ----------------------------------------------------------------------

std::string describe(const Aabb& b) {
  return "{min_x " + std::to_string(b.min_x) + ", min_y " + std::to_string(b.min_y) + ", max_x " +
         std::to_string(b.max_x) + ", max_y " + std::to_string(b.max_y) + "}";
}

const QuadTreeConfig& checked(const QuadTreeConfig& config) {
  if (config.max_depth < 1 || config.max_depth > 16) {
    throw std::invalid_argument("QuadTreeConfig::max_depth is " + std::to_string(config.max_depth) +
                                "; it must be in 1..16");
  }
  if (config.leaf_capacity < 1) {
    throw std::invalid_argument("QuadTreeConfig::leaf_capacity is " +
                                std::to_string(config.leaf_capacity) + "; it must be at least 1");
  }
  const Aabb& b = config.bounds;
  const bool finite = std::isfinite(b.min_x) && std::isfinite(b.min_y) && std::isfinite(b.max_x) &&
                      std::isfinite(b.max_y);
  if (!finite) {
    throw std::invalid_argument("QuadTreeConfig::bounds " + describe(b) +
                                " must be finite (no NaN or infinity)");
  }
  if (!(b.min_x < b.max_x) || !(b.min_y < b.max_y)) {
    throw std::invalid_argument("QuadTreeConfig::bounds " + describe(b) +
                                " is empty; it needs min_x < max_x and min_y < max_y");
  }
  return config;
}

}  // namespace

const char* pair_kernel_name() noexcept {
  if (detail::wide_kernels_enabled()) return "avx2";
#if defined(__SSE2__)
  return "sse2";
#else
  return "scalar";
#endif
}

// --- construction and teardown -----------------------------------------------------------------

QuadTree::QuadTree(const QuadTreeConfig& config, memory::AllocatorKind kind)
    : config_(checked(config)), requested_kind_(kind), live_kind_(kind) {
  subtree_tasks_.reserve(kNodePools - 1);
  rebuild({});
}

QuadTree::~QuadTree() {
  destroy_subtree(root_);
}

QuadTree::Node* QuadTree::make_node(std::uint8_t pool) {
  if (live_kind_ == memory::AllocatorKind::NewDelete) return new Node();
  Node* node = node_pools_[pool].create();
  node->pool = pool;
  return node;
}

memory::PoolStats QuadTree::pool_stats() const noexcept {
  memory::PoolStats total = node_pools_[0].stats();
  for (std::size_t p = 1; p < kNodePools; ++p) {
    const memory::PoolStats one = node_pools_[p].stats();
    total.blocks_in_use += one.blocks_in_use;
    total.capacity += one.capacity;
    total.chunks += one.chunks;
    total.high_water += one.high_water;
    total.total_allocations += one.total_allocations;
    total.total_deallocations += one.total_deallocations;
    total.bytes_reserved += one.bytes_reserved;
  }
  return total;
}

void QuadTree::destroy_children(Node* node) noexcept {
  for (int i = 3; i >= 0; --i) destroy_subtree(node->children[i]);
}

void QuadTree::destroy_subtree(Node* node) noexcept {
  if (node == nullptr) return;
  // Children last-to-first, then the node: the exact reverse of the build's pre-order. The pool
  // is LIFO (this teardown only moves its bump pointer back), so the next build gets its blocks
  // back in the same address order and walks the nodes front to back in memory, frame after
  // frame.
  destroy_children(node);
  if (live_kind_ == memory::AllocatorKind::Pool) {
    node_pools_[node->pool].destroy(node);
  } else {
    delete node;
  }
}

// The subtrees that the last rebuild built as tasks have their nodes below their roots in pools
// of their own (pool i + 1 for the i-th): those go on the workers at once, each pool's in the
// order destroy_subtree() would free them, then the rest here. The same pool states as one
// teardown on one thread.
void QuadTree::destroy_tree(const TaskSystem& tasks) {
  if (root_ != nullptr && !subtree_tasks_.empty()) {
    parallel_for(tasks, static_cast<std::uint32_t>(subtree_tasks_.size()), 1,
                 [&](std::uint32_t begin, std::uint32_t end, std::uint32_t) {
                   for (std::uint32_t i = begin; i < end; ++i) {
                     Node* node = subtree_tasks_[i].node;
                     destroy_children(node);
                     node->children[0] = node->children[1] = nullptr;
                     node->children[2] = node->children[3] = nullptr;
                     node->child_count = 0;
                   }
                 });
  }
  destroy_subtree(root_);
  root_ = nullptr;
}

// --- rebuild -----------------------------------------------------------------------------------

void QuadTree::rebuild(std::span<const Aabb> boxes, const TaskSystem& tasks) {
  if (boxes.size() >= std::numeric_limits<std::uint32_t>::max()) {
    throw std::length_error("QuadTree::rebuild: " + std::to_string(boxes.size()) +
                            " boxes; at most 4294967294 fit in 32-bit ids");
  }
  destroy_tree(tasks);
  stats_ = {};
  live_kind_ = requested_kind_;

  const std::uint32_t count = sort_items_by_cell(boxes, tasks);
  try {
    root_ = make_node(0);
    stats_.nodes = 1;
    subtree_tasks_.clear();
    const detail::CellGrid grid = cell_grid();
    BuildContext top{stats_, 0,     count >= kMinItemsForSubtreeTasks ? &subtree_tasks_ : nullptr,
                     boxes,  count, &grid};
    build(root_, 0, count, 0, 0, config_.bounds, top);
    build_subtrees(boxes, grid, tasks);
  } catch (...) {
    // Only a node allocation can throw, and build() links every node before filling it in, so
    // the partial tree can be torn down. The tree is then empty (root_ == nullptr).
    destroy_subtree(root_);
    root_ = nullptr;
    stats_ = {};
    columns_.resize(0);
    item_ids_.clear();
    rejected_ids_.clear();
    order_is_hint_ = false;
    throw;
  }
  stats_.items = count;
  stats_.rejected_boxes = rejected_ids_.size();
  if (!subtree_tasks_.empty()) unite_top_bounds(root_);
}

// The subtrees that build() listed at kTaskDepth, each built and bounded as one task from its
// own pool (the i-th subtree from pool i + 1). Their item runs are disjoint, and so are the
// parts of the item arrays and of the scratch that each one touches.
void QuadTree::build_subtrees(std::span<const Aabb> boxes, const detail::CellGrid& grid,
                              const TaskSystem& tasks) {
  parallel_for(tasks, static_cast<std::uint32_t>(subtree_tasks_.size()), 1,
               [&](std::uint32_t begin, std::uint32_t end, std::uint32_t worker) {
                 for (std::uint32_t i = begin; i < end; ++i) {
                   SubtreeTask& task = subtree_tasks_[i];
                   task.stats = {};
                   task.failed = false;
                   task.worker = worker;
                   BuildContext context{task.stats, static_cast<std::uint8_t>(i + 1),
                                        nullptr,    boxes,
                                        task.end,   &grid};
                   // An exception must not leave a worker's thread; the nodes built so far are
                   // linked, so the caller can tear the tree down.
                   try {
                     build(task.node, task.first, task.end, kTaskDepth, task.node->quadrant_index,
                           task.quadrant, context);
                   } catch (...) {
                     task.failed = true;
                   }
                 }
               });
  for (const SubtreeTask& task : subtree_tasks_) {
    if (task.failed) throw std::bad_alloc();
    stats_.nodes += task.stats.nodes;
    stats_.leaves += task.stats.leaves;
    stats_.straddling_items += task.stats.straddling_items;
    stats_.max_depth_reached = std::max(stats_.max_depth_reached, task.stats.max_depth_reached);
    stats_.max_leaf_items = std::max(stats_.max_leaf_items, task.stats.max_leaf_items);
  }
  if (!subtree_tasks_.empty() && live_kind_ == memory::AllocatorKind::Pool) level_subtree_pools();
}

// Grows every subtree pool to a quarter more blocks than the largest subtree holds, by creating
// nodes and destroying them again in reverse (the pool takes them back LIFO, so its next nodes
// are these blocks in the same order). Only after a subtree larger than ever, so a warm frame
// passes through without allocating. A failed allocation leaves the pools as they were: the
// levelling only saves allocations later.
void QuadTree::level_subtree_pools() noexcept {
  std::size_t largest = 0;
  for (std::size_t p = 1; p < kNodePools; ++p) {
    largest = std::max(largest, node_pools_[p].stats().blocks_in_use);
  }
  const std::size_t wanted = largest + largest / 4;
  for (std::size_t p = 1; p < kNodePools; ++p) {
    const memory::PoolStats pool = node_pools_[p].stats();
    if (pool.capacity >= wanted) continue;
    levelling_nodes_.clear();
    try {
      levelling_nodes_.reserve(wanted - pool.blocks_in_use);
      while (levelling_nodes_.size() < wanted - pool.blocks_in_use) {
        levelling_nodes_.push_back(node_pools_[p].create());
      }
    } catch (const std::bad_alloc&) {
      // Fewer than wanted: give back what was made.
    }
    for (auto node = levelling_nodes_.rbegin(); node != levelling_nodes_.rend(); ++node) {
      node_pools_[p].destroy(*node);
    }
  }
}

void QuadTree::partition_by_quadrant(std::uint32_t first, std::uint32_t end, int shift,
                                     std::array<std::uint32_t, 5>& cut) {
  const std::uint32_t* const cells = slot_cells_.data();
  const auto quadrant_of = [cells, shift](std::uint32_t slot) {
    return (cells[slot] >> shift) & 3u;
  };
  std::array<std::uint32_t, 4> sizes{};
  for (std::uint32_t i = first; i < end; ++i) ++sizes[quadrant_of(i)];
  std::array<std::uint32_t, 4> next{};
  cut[0] = first;
  for (int q = 0; q < 4; ++q) {
    next[q] = cut[q];
    cut[q + 1] = cut[q] + sizes[q];
  }
  // Stable, so each quadrant keeps its items' id order. The ids, cells and boxes move together
  // and are read in slot order. The usual run (a cell a little over leaf_capacity; at a million
  // sprites over a third of the items pass here every frame, the sort depth's cells holding 61
  // on average) goes through buffers on the stack, which stay in L1; a longer one through its
  // own part of the scratch arrays.
  const std::uint32_t count = end - first;
  const bool on_stack = count <= kLocalPartitionItems;
  std::array<std::uint32_t, kLocalPartitionItems> stack_ids;
  std::array<std::uint32_t, kLocalPartitionItems> stack_cells;
  std::array<Aabb, kLocalPartitionItems> stack_boxes;
  std::uint32_t* const ids = on_stack ? stack_ids.data() : scratch_ids_.data() + first;
  std::uint32_t* const run_cells = on_stack ? stack_cells.data() : staged_cells_.data() + first;
  Aabb* const run_boxes = on_stack ? stack_boxes.data() : staged_boxes_.data() + first;
  for (std::uint32_t i = first; i < end; ++i) {
    const std::uint32_t slot = next[quadrant_of(i)]++ - first;
    ids[slot] = item_ids_[i];
    run_cells[slot] = cells[i];
    run_boxes[slot] = columns_.get(i);
  }
  std::copy(ids, ids + count, item_ids_.begin() + first);
  std::copy(run_cells, run_cells + count, slot_cells_.begin() + first);
  for (std::uint32_t k = 0; k < count; ++k) columns_.set(first + k, run_boxes[k]);
}

// The boxes of the items [first, end) into their slots of the columns, from the caller's by id:
// in a random id order, a cache miss nearly every box. Each build() gathers its leaves' or its
// sort-depth cell's run just before it needs it (the bounds, the partition then read it in L1),
// and prefetches the boxes of the items kGatherPrefetch slots ahead, the next runs, so that
// their misses are under way while the build works on this one.
void QuadTree::gather_run(std::uint32_t first, std::uint32_t end,
                          const BuildContext& context) noexcept {
  const Aabb* boxes = context.boxes.data();
  const std::uint32_t* ids = item_ids_.data();
  float* min_x = columns_.min_x.data();
  float* min_y = columns_.min_y.data();
  float* max_x = columns_.max_x.data();
  float* max_y = columns_.max_y.data();
  const auto copy = [&](std::uint32_t t) {
    const Aabb& box = boxes[ids[t]];
    min_x[t] = box.min_x;
    min_y[t] = box.min_y;
    max_x[t] = box.max_x;
    max_y[t] = box.max_y;
  };
  // Only where the boxes outgrow the nearer caches: below that, a prefetch is an instruction
  // wasted.
  std::uint32_t t = first;
  if (context.boxes.size() >= kMinBoxesToPrefetch && context.items_end > kGatherPrefetch) {
    const std::uint32_t prefetched_end = std::min(end, context.items_end - kGatherPrefetch);
    for (; t < prefetched_end; ++t) {
      __builtin_prefetch(&boxes[ids[t + kGatherPrefetch]]);
      copy(t);
    }
  }
  for (; t < end; ++t) copy(t);
}

void QuadTree::build(Node* node, std::uint32_t first, std::uint32_t end, int depth,
                     std::uint8_t quadrant_index, const Aabb& quadrant, BuildContext& context) {
  QuadTreeStats& stats = context.stats;
  node->quadrant_index = quadrant_index;
  node->first_item = first;
  node->end_item = end;
  node->depth = static_cast<std::uint8_t>(depth);
  if (static_cast<std::size_t>(depth) > stats.max_depth_reached) {
    stats.max_depth_reached = static_cast<std::size_t>(depth);
  }

  const std::uint32_t count = end - first;
  if (count <= static_cast<std::uint32_t>(config_.leaf_capacity) || depth == config_.max_depth) {
    ++stats.leaves;
    if (count > stats.max_leaf_items) stats.max_leaf_items = count;
    // A leaf below the sort depth has its boxes from its ancestor there.
    if (depth <= sort_depth_) gather_run(first, end, context);
    // The loose bounds now, while a run that was just gathered or partitioned is still in the
    // cache.
    std::uint32_t outside = 0;
    node->loose = detail::bounds_of_run(columns_, first, end, quadrant, outside);
    stats.straddling_items += outside;
    return;
  }
  if (context.tasks != nullptr && depth == kTaskDepth) {
    context.tasks->push_back({node, first, end, quadrant, {}, false, kNotBuilt});
    return;
  }

  // The two bits of the cell code at this level pick the quadrant.
  const int shift = 2 * (config_.max_depth - depth - 1);
  std::array<std::uint32_t, 5> cut{first, first, first, first, end};
  if (depth >= sort_depth_) {
    // Every run cut below the sort depth is first cut at it: its boxes are gathered there, and
    // its cells taken from them, in order.
    if (depth == sort_depth_) {
      gather_run(first, end, context);
      const detail::ColumnsView view = detail::view_of(columns_);
      const std::uint32_t wide_done = detail::wide_kernels_enabled()
                                          ? detail::cell_codes_of_columns_wide(
                                                view, first, end, *context.grid, slot_cells_.data())
                                          : first;
      detail::cell_codes_of_columns(view.min_x, view.min_y, view.max_x, view.max_y, wide_done, end,
                                    *context.grid, slot_cells_.data());
    }
    partition_by_quadrant(first, end, shift, cut);
  } else {
    // Sorted by the cell at sort_depth_, so each quadrant is already one sub-run, which starts
    // where the quadrant's first cell at that depth does: the sort's starts give the cuts
    // without touching an item, but the first, for this node's cell.
    const int below = 2 * (sort_depth_ - depth - 1);  // cell bits under this level's quadrant
    // (A shift by 32 at the root of a tree 16 deep: shift a 64-bit value.)
    const auto node_cell = static_cast<std::uint32_t>(std::uint64_t{box_cells_[item_ids_[first]]} >>
                                                      (2 * (config_.max_depth - depth)));
    for (std::uint32_t q = 0; q < 3; ++q) {
      cut[q + 1] = bucket_starts_[((node_cell << 2) | (q + 1)) << below];
    }
  }

  for (std::uint8_t q = 0; q < 4; ++q) {
    if (cut[q] == cut[q + 1]) continue;
    // Linked before it is filled in, so that if a deeper allocation throws, the partial tree can
    // still be torn down from the root.
    Node* child = make_node(context.pool);
    node->children[node->child_count++] = child;
    ++stats.nodes;
    build(child, cut[q], cut[q + 1], depth + 1, q, detail::child_quadrant(quadrant, q), context);
  }
  // Above the subtree tasks the children may not be built yet: unite_top_bounds() follows.
  if (context.tasks == nullptr) node->loose = united_children(node);
}

Aabb QuadTree::united_children(const Node* node) noexcept {
  Aabb loose = detail::kEmptyBox;
  for (int i = 0; i < node->child_count; ++i) {
    loose = detail::united(loose, node->children[i]->loose);
  }
  return loose;
}

// The loose bounds of the nodes above the subtree tasks, bottom-up, once the tasks have built
// theirs (build() gave the leaves up here theirs).
void QuadTree::unite_top_bounds(Node* node) noexcept {
  if (node->is_leaf() || node->depth == kTaskDepth) return;
  for (int i = 0; i < node->child_count; ++i) unite_top_bounds(node->children[i]);
  node->loose = united_children(node);
}

// --- pair work split ---------------------------------------------------------------------------

void QuadTree::split_pair_work(std::uint32_t max_items, std::vector<PairPiece>& pieces) const {
  if (root_ != nullptr) split_piece({root_, nullptr}, max_items, pieces);
}

int QuadTree::piece_child(const PairPiece& piece) const noexcept {
  if (root_ == nullptr || piece.a == root_) return kAcrossChildren;
  // A subtree's items are one run of the item arrays, so a node lies under the child whose run
  // holds its own.
  for (int i = 0; i < root_->child_count; ++i) {
    const Node* child = root_->children[i];
    const auto under = [child](const Node* n) {
      return n == nullptr || (n->first_item >= child->first_item && n->end_item <= child->end_item);
    };
    if (under(piece.a) && under(piece.b)) return i;
  }
  return kAcrossChildren;
}

// Cuts a piece the way pairs_within() and pairs_between() recurse (the same children, the same
// overlap tests, the same order), so that the pieces' pairs in turn are the traversal's.
void QuadTree::split_piece(const PairPiece& piece, std::uint32_t max_items,
                           std::vector<PairPiece>& pieces) const {
  const Node* a = piece.a;
  const Node* b = piece.b;
  const std::uint32_t items = a->item_count() + (b != nullptr ? b->item_count() : 0);
  const bool whole = b == nullptr ? a->is_leaf() : a->is_leaf() && b->is_leaf();
  if (whole || items <= max_items) {
    pieces.push_back(piece);
    return;
  }
  if (b == nullptr) {
    const int count = a->child_count;
    for (int i = 0; i < count; ++i) split_piece({a->children[i], nullptr}, max_items, pieces);
    for (int i = 0; i < count; ++i) {
      for (int j = i + 1; j < count; ++j) {
        if (overlaps(a->children[i]->loose, a->children[j]->loose)) {
          split_piece({a->children[i], a->children[j]}, max_items, pieces);
        }
      }
    }
    return;
  }
  if (b->is_leaf() || (!a->is_leaf() && a->item_count() >= b->item_count())) {
    for (int i = 0; i < a->child_count; ++i) {
      if (overlaps(a->children[i]->loose, b->loose))
        split_piece({a->children[i], b}, max_items, pieces);
    }
  } else {
    for (int i = 0; i < b->child_count; ++i) {
      if (overlaps(a->loose, b->children[i]->loose))
        split_piece({a, b->children[i]}, max_items, pieces);
    }
  }
}

}  // namespace quadpool::spatial
