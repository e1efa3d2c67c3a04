#pragma once
/// QuadTree: a broad phase that is thrown away and rebuilt from scratch every frame, with its
/// nodes taken from an ObjectPool that is reused frame after frame.
///
/// Placement: every box lives in exactly one leaf, the one whose quadrant holds the box's centre
/// (clamped into the world). Boxes may stick out of their quadrant, so each node also keeps the
/// union of the boxes below it (`loose` bounds) and every overlap test uses that. Because a box
/// is stored once, no pair can be found twice and nothing needs de-duplicating. README.md gives
/// the measurements behind this choice, a picture and the invariants.
///
/// Node pools: a tree of fewer than kMinItemsForSubtreeTasks items takes all its nodes from pool
/// 0. In a larger one, the top kTaskDepth levels take theirs from pool 0 and, below them, each
/// subtree is built as one task and takes its nodes from a pool of its own (the i-th subtree in
/// pre-order from pool i + 1). A pool is never shared by two threads at once, so no lock and no
/// atomic guard it, and a subtree's nodes come from the same pool every frame, whichever worker
/// builds it: a warm rebuild allocates nothing however the tasks fall on the workers. After a
/// rebuild that found a subtree larger than ever, every subtree pool grows to a quarter more
/// than the largest subtree (on the calling thread), so that a subtree growing as sprites move
/// between quadrants finds the blocks there.
///
/// Threads: rebuild() and set_allocator() need the tree to themselves; the const functions keep
/// no scratch state, so any number of them may run at once between rebuilds.
///
/// Sections: configuration and statistics, the class. The template traversal behind
/// for_each_pair(), query() and for_each_node() is in detail/quad_tree_traversal.hpp, and the
/// ray cast's in detail/quad_tree_queries.hpp, both included at the end; nearest() is in
/// quad_tree_queries.cpp.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "engine/core/task_system.hpp"
#include "engine/memory/allocator_kind.hpp"
#include "engine/memory/huge_page_allocator.hpp"
#include "engine/memory/object_pool.hpp"
#include "engine/memory/pool_allocator.hpp"
#include "engine/spatial/aabb.hpp"
#include "engine/spatial/detail/box_columns.hpp"
#include "engine/spatial/detail/quad_tree_node.hpp"
#include "engine/spatial/ray.hpp"

namespace quadpool::spatial {

// --- configuration and statistics --------------------------------------------------------------

struct QuadTreeConfig {
  Aabb bounds;            ///< the world; finite, min < max on both axes
  /// 1..16; the root is depth 0. A node splits while it holds more than leaf_capacity boxes and
  /// is above max_depth, so the default, 16 (the deepest whose cell codes, 16 bits an axis, fit
  /// the 32-bit Morton code exactly), lets the depth follow the boxes: as deep as their count and
  /// spread need, and no deeper. A smaller value caps the tree (4^max_depth leaves at most), and
  /// its fullest leaves then hold more than leaf_capacity.
  int max_depth = 16;
  /// >= 1; a leaf holds more only at max_depth. 64: of 8 to 128, the fastest broad phase on the
  /// game's scenes (docs/spatial.md, "Tuning leaf_capacity").
  int leaf_capacity = 64;
};

struct QuadTreeStats {
  std::size_t nodes, leaves, items, max_depth_reached;
  std::size_t max_leaf_items;  ///< the fullest leaf (> leaf_capacity only at max_depth)
  /// Items whose box sticks out of their leaf's quadrant: the boxes that a tree duplicating
  /// straddlers into leaves would store more than once, or that a tree keeping straddlers at the
  /// parent would keep higher up. Here they cost nothing extra; README.md uses the count.
  std::size_t straddling_items;
  /// Boxes left out of the tree because a coordinate is NaN or min > max on an axis: they are in
  /// no pair and no query result, and the other boxes' results are as if they were not given.
  std::size_t rejected_boxes;
};

/// The kernels QuadTree uses on this machine for its cell codes and for the box tests inside a
/// leaf: "avx2" (8 boxes at a time, chosen at run time when the CPU has AVX2), else "sse2" (4) or
/// "scalar". The tree, its pairs and their order are the same with every kernel;
/// QUADPOOL_DISABLE_AVX=1 rules out "avx2".
const char* pair_kernel_name() noexcept;

// --- the class ---------------------------------------------------------------------------------

namespace detail {
struct CellGrid;  // detail/cell_codes.hpp
}  // namespace detail

class QuadTree {
 public:
  /// Throws std::invalid_argument, naming the field, its value and the valid range, when
  /// max_depth is outside 1..16, leaf_capacity < 1, or the bounds are empty (min >= max on an
  /// axis), NaN or infinite. The tree starts empty (one leaf, no items).
  explicit QuadTree(const QuadTreeConfig& config, memory::AllocatorKind kind = memory::AllocatorKind::Pool);
  /// Destroys every node (in Pool mode, before the pool itself goes away).
  ~QuadTree();

  QuadTree(const QuadTree&) = delete;
  QuadTree& operator=(const QuadTree&) = delete;

  /// Chooses the node source for the next rebuild(); the current tree keeps its nodes.
  void set_allocator(memory::AllocatorKind kind) noexcept { requested_kind_ = kind; }
  /// The node source the next rebuild() uses (the last value given to set_allocator()).
  memory::AllocatorKind allocator() const noexcept { return requested_kind_; }

  /// Tears the old tree down node by node (each node's destructor runs) and builds a new one
  /// holding every box; a box's id is its index in `boxes`. O(n + nodes) for evenly spread
  /// boxes, O(n * max_depth) at worst (every box in one spot). Boxes may be empty (zero size),
  /// outside the bounds or larger than them.
  /// A box with a NaN coordinate or min > max on an axis is left out, in every build, and
  /// counted in stats().rejected_boxes. More than 2^32 - 1 boxes throws std::length_error. In Pool
  /// mode, once the pool and the tree's scratch arrays have grown to the largest scene seen, a
  /// rebuild makes no heap allocation. Parts of the sort run on `tasks` (the default: on this
  /// thread); the tree is the same for any workers.
  void rebuild(std::span<const Aabb> boxes, const TaskSystem& tasks = {});

  /// Calls f(std::uint32_t a, std::uint32_t b) with a < b once for every pair of boxes that
  /// overlap (closed boxes: touching counts). The order depends only on the boxes and the
  /// configuration, never on addresses or on the allocator. No heap allocation.
  template <class F>
  void for_each_pair(F&& f) const;

  /// One independent piece of for_each_pair()'s work: the pairs within one subtree (b ==
  /// nullptr) or between two (a's box first in every pair found). Valid until the next rebuild.
  struct PairPiece {
    const detail::QuadTreeNode* a;
    const detail::QuadTreeNode* b;
  };

  /// Cuts for_each_pair()'s work into pieces of at most about `max_items` items each (a piece
  /// that cannot be cut further may hold more) and appends them to `pieces`, in order:
  /// for_each_pair_in() on each piece in turn reports exactly the pairs of for_each_pair(), in
  /// the same order. The pieces may run on different threads at once. O(pieces * depth).
  void split_pair_work(std::uint32_t max_items, std::vector<PairPiece>& pieces) const;

  /// Which of the root's children holds every box of `piece` (its index in the root's packed
  /// children, 0 .. 3), or kAcrossChildren for a piece between two children or the root itself.
  /// split_pair_work() emits the pieces of child 0, then child 1, ..., then those across: the
  /// children's pairs touch disjoint sets of boxes, so a caller may handle them at once.
  static constexpr int kAcrossChildren = -1;
  int piece_child(const PairPiece& piece) const noexcept;

  /// Calls f(std::uint32_t a, std::uint32_t b) for the pairs of one piece from split_pair_work(),
  /// in for_each_pair()'s order. No heap allocation.
  template <class F>
  void for_each_pair_in(const PairPiece& piece, F&& f) const;

  /// Calls f(std::uint32_t id) once for every box that overlaps `area`. No heap allocation.
  template <class F>
  void query(const Aabb& area, F&& f) const;

  /// Calls float f(std::uint32_t id, float t) for boxes that `ray` enters at a t no later than
  /// the current limit (at first ray.max_t), t being the slab entry (RaySlabs::enters(): 0 when
  /// the origin is inside the box). f returns the new limit, as Box2D's ray-cast callback does:
  /// its own t keeps only boxes entered no later (a closest-hit search), the old limit or more
  /// visits every box on the ray, 0 ends the cast, a negative value keeps the limit; the limit
  /// never grows. Each box is reported at most once. Nodes are opened front to back (by their
  /// bounds' entry), so a closest-hit search stops early; within a leaf, boxes come in the
  /// tree's order. Degenerate rays (see Ray) report nothing or follow its rules. No heap
  /// allocation. Against brute_force_ray_cast(), to the bit: visiting all gives the same boxes
  /// with the same t, a closest-hit search the same closest t, stopping at once one of its boxes
  /// (which one depends on the order, as it does for any callback that answers by order).
  template <class F>
  void ray_cast(const Ray& ray, F&& f) const;

  /// The thick ray cast: ray_cast(ray, f) for the sweep of a square of half-side `radius` along
  /// the ray, that is, against every box grown by `radius` on every side (RaySlabs), t being
  /// the entry into the grown box; the same callback contract, order and cost, and the same
  /// answers as brute_force_ray_cast(boxes, ray, radius, f), to the bit. A shot with a size, or
  /// boxes that may have moved by up to `radius` since the rebuild, use it. A negative, NaN or
  /// infinite radius reports nothing; radius 0 is ray_cast(ray, f), to the bit.
  template <class F>
  void ray_cast(const Ray& ray, float radius, F&& f) const;

  /// Writes to `out` the ids of the out.size() boxes nearest to the point (x, y), by
  /// squared_distance() (0 inside a box), nearest first, equal distances by smaller id; returns
  /// how many it wrote: fewer when the tree holds fewer boxes, 0 for a NaN or infinite point.
  /// A depth-first walk, nearest child first, that skips nodes farther than the k-th best so
  /// far; `out` itself holds the best so far (a heap), so there is no heap allocation.
  /// O(k log k) plus the nodes and boxes within reach.
  std::size_t nearest(float x, float y, std::span<std::uint32_t> out) const;

  /// Calls f(const Aabb& quadrant, int depth) for every node in pre-order, for drawing.
  /// Quadrants with no items have no node and are not visited.
  template <class F>
  void for_each_node(F&& f) const;

  /// O(1).
  QuadTreeStats stats() const noexcept { return stats_; }
  /// The levels built before the subtrees become tasks: 16 subtrees at most.
  static constexpr int kTaskDepth = 2;
  /// The fewest items for which the subtrees are built as tasks, from pools of their own.
  static constexpr std::uint32_t kMinItemsForSubtreeTasks = 32768;
  /// Pool 0 for the top levels, one for each subtree below them.
  static constexpr std::size_t kNodePools = 1 + (std::size_t{1} << (2 * kTaskDepth));

  /// The node pools' occupancy, all together: sums, and the sum of their high-waters (none holds
  /// live nodes while the tree uses NewDelete).
  memory::PoolStats pool_stats() const noexcept;
  /// One node pool's occupancy (pool < kNodePools).
  memory::PoolStats pool_stats(std::size_t pool) const noexcept {
    return node_pools_[pool].stats();
  }
  /// A node pool's allocator (pool < kNodePools), read-only, for tools such as the demo's
  /// per-chunk strip (PoolAllocator::chunk_block_states).
  const memory::PoolAllocator& pool_allocator(std::size_t pool = 0) const noexcept {
    return node_pools_[pool].allocator();
  }

  /// Which worker (its index in the TaskSystem) built the subtree whose nodes come from pool
  /// `pool` in the last rebuild, for tools that show how the work fell; kNotBuilt for pool 0
  /// (the top levels, built on the calling thread) and for a pool that the last rebuild left
  /// without a subtree (a tree of fewer than kMinItemsForSubtreeTasks items uses pool 0 alone).
  static constexpr std::uint32_t kNotBuilt = ~std::uint32_t{0};
  std::uint32_t pool_builder(std::size_t pool) const noexcept {
    return pool >= 1 && pool - 1 < subtree_tasks_.size() ? subtree_tasks_[pool - 1].worker
                                                         : kNotBuilt;
  }

  /// The ids of the items in the tree's order (its leaves in pre-order; within a leaf, by id):
  /// boxes close together in the world are close together here. Valid until the next rebuild.
  std::span<const std::uint32_t> item_order() const noexcept { return item_ids_; }
  /// Gives every item the id of its place in item_order() (item_order()[i] becomes i), for a
  /// caller that has just put its own boxes in that order: the tree, its pairs and queries then
  /// speak of the new ids, and the next rebuild starts from this order as usual. Returns false,
  /// changing nothing, when the last rebuild left boxes out (stats().rejected_boxes > 0). O(n).
  bool renumber_in_item_order() noexcept;

  /// Checks every invariant listed in README.md with QUADPOOL_ASSERT: O(n + nodes), allocates.
  /// Does nothing when asserts are compiled out.
  void validate() const;

  const QuadTreeConfig& config() const noexcept { return config_; }

 private:
  using Node = detail::QuadTreeNode;

  // A subtree at kTaskDepth, built as one task from its own pool.
  struct SubtreeTask {
    Node* node;
    std::uint32_t first, end;
    Aabb quadrant;
    QuadTreeStats stats;  // the subtree's nodes (below its root), leaves, depth, straddlers
    bool failed;          // a node allocation threw: the rebuild throws std::bad_alloc
    std::uint32_t worker;  // the worker that built it (pool_builder())
  };
  // Where build() puts what it counts and takes its nodes from; with `tasks` set, it stops at
  // kTaskDepth and lists the subtrees there instead of building them.
  struct BuildContext {
    QuadTreeStats& stats;
    std::uint8_t pool;
    std::vector<SubtreeTask>* tasks;
    std::span<const Aabb> boxes;   // the caller's, gathered into the columns run by run
    std::uint32_t items_end;       // the end of this build's items: the gathers prefetch up to it
    const detail::CellGrid* grid;  // cell_grid(), for the cell codes that the build takes
  };
  // Items per task in the rebuild's per-item loops: big enough that a task's overhead is noise.
  static constexpr std::uint32_t kItemsPerTask = 16384;
  // Moved keys per task in the repair's searches: each is a few dependent cache misses.
  static constexpr std::uint32_t kMovedKeysPerTask = 2048;

  Node* make_node(std::uint8_t pool);
  void build_subtrees(std::span<const Aabb> boxes, const detail::CellGrid& grid,
                      const TaskSystem& tasks);
  void level_subtree_pools() noexcept;
  void destroy_tree(const TaskSystem& tasks);
  void destroy_subtree(Node* node) noexcept;
  void destroy_children(Node* node) noexcept;  // last to first, as destroy_subtree()
  std::uint32_t sort_items_by_cell(std::span<const Aabb> boxes, const TaskSystem& tasks);
  // The grid of cells at max_depth over the world that the cell codes are taken on.
  detail::CellGrid cell_grid() const noexcept;
  void cell_codes_of(std::span<const Aabb> boxes, const detail::CellGrid& grid,
                     const TaskSystem& tasks);
  static std::uint32_t sort_cell(std::uint32_t code, int shift) noexcept;
  static std::uint64_t order_key(std::uint32_t code, std::uint32_t id, int shift) noexcept;
  void mark_moved_keys(std::uint32_t moved_count, const TaskSystem& tasks);
  static std::uint32_t old_place(const std::uint64_t* keys, const std::uint32_t* starts,
                                 std::uint32_t cell, std::uint64_t key) noexcept;
  void move_bucket_starts(std::uint32_t moved_count) noexcept;
  std::uint32_t counting_sort(std::span<const Aabb> boxes, int shift);
  void remember_order(int shift);
  bool repair_last_order(std::span<const Aabb> boxes, int shift, const TaskSystem& tasks);
  std::uint32_t find_moved_items(std::uint32_t count, int shift, const TaskSystem& tasks);
  // The repair marks the place of a key that changed with kMovedKey (above any key: a cell at
  // the sort depth is below 4^kMaxSortDepth).
  static constexpr std::uint64_t kMovedKey = ~std::uint64_t{0};
  void merge_repaired_order(std::uint32_t moved_count, const TaskSystem& tasks);
  void build(Node* node, std::uint32_t first, std::uint32_t end, int depth,
             std::uint8_t quadrant_index, const Aabb& quadrant, BuildContext& context);
  // gather_run() prefetches the boxes of the items this many slots ahead, when there are at
  // least kMinBoxesToPrefetch boxes (512 KiB of them): at 100k boxes in a random order that
  // took about 3 % off the build; at 10k the boxes stay in L2, and a prefetch only costs.
  static constexpr std::uint32_t kGatherPrefetch = 64;
  static constexpr std::size_t kMinBoxesToPrefetch = std::size_t{1} << 15;
  void gather_run(std::uint32_t first, std::uint32_t end, const BuildContext& context) noexcept;
  // Runs of up to this many items are partitioned on the stack (6 KiB).
  static constexpr std::uint32_t kLocalPartitionItems = 256;
  void partition_by_quadrant(std::uint32_t first, std::uint32_t end, int shift,
                             std::array<std::uint32_t, 5>& cut);
  static Aabb united_children(const Node* node) noexcept;
  void unite_top_bounds(Node* node) noexcept;
  void split_piece(const PairPiece& piece, std::uint32_t max_items,
                   std::vector<PairPiece>& pieces) const;
  void validate_node(const Node* node, int depth, std::uint32_t prefix, const Aabb& quadrant,
                     QuadTreeStats& counted) const;

  template <class F>
  void report(std::uint32_t i, std::uint32_t j, F& f) const;
  template <class F>
  void pairs_within(const Node* node, F& f) const;
  template <class F>
  void pairs_within_leaf(const Node* leaf, F& f) const;
  template <class F>
  void report_leaf_words(std::uint32_t first, std::uint32_t end, const std::uint64_t* words,
                         F& f) const;
  template <class F>
  void pairs_between(const Node* a, const Node* b, F& f) const;
  template <class F>
  void pairs_between_leaves(const Node* a, const Node* b, F& f) const;
  template <class F>
  void query_node(const Node* node, const Aabb& area, F& f) const;
  template <class F>
  void visit_nodes(const Node* node, const Aabb& quadrant, F& f) const;

  QuadTreeConfig config_;
  memory::AllocatorKind requested_kind_;
  memory::AllocatorKind live_kind_;  // the source of the current tree's nodes
  std::array<memory::ObjectPool<Node>, kNodePools> node_pools_;
  std::vector<SubtreeTask> subtree_tasks_;  // this rebuild's, at most kNodePools - 1
  std::vector<Node*> levelling_nodes_;      // level_subtree_pools()'s scratch
  Node* root_ = nullptr;
  QuadTreeStats stats_{};

  // Items in pre-order of their leaves: a node's items are one contiguous run. These and the
  // sort scratch below are members so that they keep their capacity from frame to frame, and
  // on huge pages where the system has them: a frame streams through every one.
  detail::BoxColumns columns_;
  memory::HugePageVector<std::uint32_t> item_ids_;
  // The Morton code of each box's centre cell at max_depth, by box id: this rebuild's, read
  // by the sort and, once per node above the sort depth, by the build's cuts.
  memory::HugePageVector<std::uint32_t> box_cells_;
  // The same codes by slot, for the items of the runs that build() partitions below the sort
  // depth: taken from the columns when it first cuts such a run, and moved with the items, so
  // that the partitions read them in slot order, never by id (in random id order, a miss each).
  memory::HugePageVector<std::uint32_t> slot_cells_;
  // A run too long for the stack goes through its part of these in the partition.
  memory::HugePageVector<std::uint32_t> scratch_ids_;
  memory::HugePageVector<std::uint32_t> staged_cells_;
  memory::HugePageVector<Aabb> staged_boxes_;
  // After either sort, the first slot of each cell at the sort depth, and the item count last:
  // at most 4^kMaxSortDepth + 1 entries (64 KiB). The build's cuts above the sort depth read
  // them, so that they touch no item.
  static constexpr int kMaxSortDepth = 7;
  std::vector<std::uint32_t> bucket_starts_;
  std::vector<std::uint32_t> rejected_ids_;  // this rebuild's rejected boxes, in id order
  std::vector<std::vector<std::uint32_t>> worker_rejected_;  // per worker: only "were there any"

  int sort_depth_ = 0;                       // items arrive sorted by their cell at this depth
  // Last frame's sorted order as (cell at the sort depth, id) keys, the next frame's starting
  // point (repair_last_order), valid when order_is_hint_; moved_keys_ and next_keys_ are its
  // scratch. Only the order persists from frame to frame: every node is built from scratch.
  memory::HugePageVector<std::uint64_t> order_keys_;
  // Each item's cell at the sort depth in that order's frame, by id: compared in id order with
  // this frame's, it tells the moved items without reading anything in last frame's order.
  memory::HugePageVector<std::uint16_t> last_sort_cells_;
  static_assert(kMaxSortDepth <= 8, "a cell at the sort depth fits in 16 bits");
  memory::HugePageVector<std::uint64_t> moved_keys_;
  memory::HugePageVector<std::uint32_t> moved_from_cells_;  // a moved key's cell last frame
  memory::HugePageVector<std::uint64_t> next_keys_;
  // The repair's bookkeeping for each range of kItemsPerTask items in last frame's order: how
  // many kept their key, how many kept theirs in the ranges before, and the first moved key
  // (in sorted order) that it merges; and, for the range of as many ids, how many moved.
  struct RepairRange {
    std::uint32_t kept, kept_before, moved_from, moved;
  };
  std::vector<RepairRange> repair_ranges_;
  bool order_is_hint_ = false;
};

}  // namespace quadpool::spatial

// The member templates declared above.
#include "engine/spatial/detail/quad_tree_traversal.hpp"  // IWYU pragma: export
#include "engine/spatial/detail/quad_tree_queries.hpp"    // IWYU pragma: export
