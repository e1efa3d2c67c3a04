// Tests of engine/spatial/parallel_pairs.* and of QuadTree::rebuild on workers: the pairs found on several workers are those of
// QuadTree::for_each_pair(), in its order, however the task system cuts the work and in whatever
// order it runs the ranges. The task system here is a scripted one on the calling thread (it
// runs the ranges last to first, on shifting worker indices), so these tests need no thread;
// the game's tests run the same on real threads.
#include "engine/spatial/parallel_pairs.hpp"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include <gtest/gtest.h>

#include "common/heap_counter.hpp"
#include "engine/core/random.hpp"
#include "engine/core/task_system.hpp"
#include "engine/spatial/pair.hpp"
#include "engine/spatial/quad_tree.hpp"
#include "tests/helpers/assert_throws.hpp"
#include "tests/helpers/reversed_scheduler.hpp"

namespace quadpool::spatial {
namespace {

using test::ReversedScheduler;

std::vector<Pair> serial_pairs(const QuadTree& tree) {
  std::vector<Pair> pairs;
  tree.for_each_pair([&](std::uint32_t a, std::uint32_t b) { pairs.push_back({a, b}); });
  return pairs;
}

std::vector<Aabb> random_boxes(std::uint64_t seed, std::size_t count, float side, float size) {
  Random rng(seed);
  std::vector<Aabb> boxes(count);
  for (Aabb& box : boxes) {
    const float x = rng.uniform(0.0f, side);
    const float y = rng.uniform(0.0f, side);
    box = {x, y, x + rng.uniform(0.0f, size), y + rng.uniform(0.0f, size)};
  }
  return boxes;
}

TEST(ParallelPairs, FindsTheTreesPairsInItsOrderOnAnyWorkerCount) {
  const std::vector<Aabb> boxes = random_boxes(26, 40'000, 1000.0f, 6.0f);
  QuadTree tree({.bounds = {0.0f, 0.0f, 1000.0f, 1000.0f}});
  tree.rebuild(boxes);
  const std::vector<Pair> expected = serial_pairs(tree);
  ASSERT_GT(expected.size(), 10'000u);
  for (const std::uint32_t workers : {1u, 2u, 3u, 7u, 64u}) {
    ReversedScheduler scheduler{workers};
    ParallelPairs finder;
    // Stale pairs, more and fewer than the tree's: collect() replaces them all.
    std::vector<Pair> found(workers % 2 == 0 ? expected.size() + 1000 : 50, Pair{7, 7});
    finder.collect(tree, scheduler.task_system(), found);
    EXPECT_EQ(found, expected) << workers << " workers";
    if (workers > 1) {
      EXPECT_GT(finder.pieces(), 8u) << workers << " workers";
    }
  }
}

TEST(ParallelPairs, TheRootChildrensRunsShareNoBoxAndComeBeforeThePairsAcrossThem) {
  const auto seed = test::announce_seed("ParallelPairs.ChildRuns", 27);
  const std::vector<Aabb> boxes = random_boxes(seed, 40'000, 1000.0f, 6.0f);
  QuadTree tree({.bounds = {0.0f, 0.0f, 1000.0f, 1000.0f}});
  tree.rebuild(boxes);
  ReversedScheduler scheduler{2};
  ParallelPairs finder;
  std::vector<Pair> found;
  finder.collect(tree, scheduler.task_system(), found);
  const std::span<const std::size_t> ends = finder.child_run_ends();
  ASSERT_EQ(ends.size(), 4u);  // every quadrant of a uniform scene holds boxes
  // Each box's run: the first that has a pair with it. No box may turn up in a second child
  // run; the pairs after the children's runs are those across children.
  constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t> run_of(boxes.size(), kNone);
  std::size_t begin = 0;
  for (std::uint32_t k = 0; k < ends.size(); ++k) {
    ASSERT_LE(begin, ends[k]);
    EXPECT_GT(ends[k] - begin, found.size() / 8) << "child " << k << " has few pairs";
    for (std::size_t i = begin; i < ends[k]; ++i) {
      for (const std::uint32_t box : {found[i].a, found[i].b}) {
        ASSERT_TRUE(run_of[box] == kNone || run_of[box] == k)
            << "box " << box << " in the runs of children " << run_of[box] << " and " << k;
        run_of[box] = k;
      }
    }
    begin = ends[k];
  }
  ASSERT_LE(begin, found.size());
  std::size_t across = 0;
  for (std::size_t i = begin; i < found.size(); ++i) {
    // A pair across children: its boxes lie under two children, so none of its boxes can have
    // a pair in two child runs, and at most one of them may be in the same run as the other.
    const std::uint32_t ra = run_of[found[i].a];
    const std::uint32_t rb = run_of[found[i].b];
    EXPECT_TRUE(ra == kNone || rb == kNone || ra != rb) << "pair " << i;
    ++across;
  }
  EXPECT_GT(across, 0u);
  EXPECT_LT(across, found.size() / 20);  // only the pairs along the two centre lines

  // One worker, or a tree that is one piece: no child runs, all pairs in one run.
  ParallelPairs one_worker;
  one_worker.collect(tree, TaskSystem{}, found);
  EXPECT_TRUE(one_worker.child_run_ends().empty());
  QuadTree small({.bounds = {0.0f, 0.0f, 1000.0f, 1000.0f}});
  small.rebuild(std::span(boxes).first(500));
  finder.collect(small, scheduler.task_system(), found);
  EXPECT_TRUE(finder.child_run_ends().empty());
}

TEST(ParallelPairs, SmallPiecesStillCoverEveryPairOnceInOrder) {
  // Clustered boxes at several sizes, cut into the smallest pieces the tree allows.
  std::vector<Aabb> boxes = random_boxes(7, 5'000, 300.0f, 4.0f);
  const std::vector<Aabb> large = random_boxes(8, 200, 1000.0f, 120.0f);
  boxes.insert(boxes.end(), large.begin(), large.end());
  QuadTree tree({.bounds = {0.0f, 0.0f, 1000.0f, 1000.0f}, .max_depth = 10, .leaf_capacity = 8});
  tree.rebuild(boxes);
  std::vector<QuadTree::PairPiece> pieces;
  tree.split_pair_work(1, pieces);
  ASSERT_GT(pieces.size(), 100u);
  std::vector<Pair> joined;
  for (const QuadTree::PairPiece& piece : pieces) {
    tree.for_each_pair_in(piece, [&](std::uint32_t a, std::uint32_t b) { joined.push_back({a, b}); });
  }
  EXPECT_EQ(joined, serial_pairs(tree));
}

TEST(ParallelRebuild, BuildsTheOneThreadTreeFrameAfterFrameWithRejectedBoxes) {
  // Frame 1 sorts from scratch, frames 2 and 3 repair last frame's order (a few boxes moved),
  // frame 4 has a NaN box, which sends the cell codes back to one thread.
  std::vector<Aabb> boxes = random_boxes(11, 60'000, 1000.0f, 5.0f);
  const QuadTreeConfig config{.bounds = {0.0f, 0.0f, 1000.0f, 1000.0f}};
  QuadTree serial(config);
  QuadTree parallel(config);
  ReversedScheduler scheduler{3};
  Random rng(12);
  for (int frame = 0; frame < 4; ++frame) {
    for (int k = 0; k < 300; ++k) {
      Aabb& box = boxes[rng.below(static_cast<std::uint32_t>(boxes.size()))];
      const float dx = rng.uniform(-20.0f, 20.0f);
      box = {box.min_x + dx, box.min_y - dx, box.max_x + dx, box.max_y - dx};
    }
    if (frame == 3) boxes[777].min_x = std::numeric_limits<float>::quiet_NaN();
    serial.rebuild(boxes);
    parallel.rebuild(boxes, scheduler.task_system());
    parallel.validate();
    EXPECT_EQ(serial_pairs(parallel), serial_pairs(serial)) << "frame " << frame;
    EXPECT_EQ(parallel.stats().rejected_boxes, frame == 3 ? 1u : 0u) << "frame " << frame;
    EXPECT_EQ(parallel.stats().nodes, serial.stats().nodes) << "frame " << frame;
  }
}

// A large tree builds its subtrees as tasks, each from a pool of its own: every node is in one
// of the pools, more than one pool is used, and once the pools have grown a rebuild of a scene
// whose boxes move allocates nothing on any schedule. A small tree uses pool 0 alone.
TEST(ParallelRebuild, EachSubtreeTakesItsNodesFromItsOwnPoolAndAWarmRebuildAllocatesNothing) {
  std::vector<Aabb> boxes = random_boxes(21, 2 * QuadTree::kMinItemsForSubtreeTasks, 2000.0f, 6.0f);
  QuadTree tree(QuadTreeConfig{.bounds = {0.0f, 0.0f, 2000.0f, 2000.0f}});
  ReversedScheduler scheduler{2};
  Random rng(22);
  const auto nudge = [&] {
    for (Aabb& box : boxes) {
      if (!rng.chance(0.3)) continue;
      const float dx = rng.uniform(-3.0f, 3.0f), dy = rng.uniform(-3.0f, 3.0f);
      box = {box.min_x + dx, box.min_y + dy, box.max_x + dx, box.max_y + dy};
    }
  };
  for (int frame = 0; frame < 3; ++frame) {
    nudge();
    tree.rebuild(boxes, scheduler.task_system());
  }
  std::size_t pools_used = 0, in_pools = 0;
  for (std::size_t p = 0; p < QuadTree::kNodePools; ++p) {
    in_pools += tree.pool_stats(p).blocks_in_use;
    pools_used += tree.pool_stats(p).blocks_in_use > 0 ? 1 : 0;
  }
  EXPECT_EQ(in_pools, tree.stats().nodes);
  EXPECT_EQ(tree.pool_stats().blocks_in_use, tree.stats().nodes);
  EXPECT_GT(pools_used, 1u);
  tree.validate();
  // Every used subtree pool names the worker that built it; the scheduler gave them to both.
  std::size_t built_by[2] = {0, 0};
  EXPECT_EQ(tree.pool_builder(0), QuadTree::kNotBuilt);
  for (std::size_t p = 1; p < QuadTree::kNodePools; ++p) {
    const std::uint32_t worker = tree.pool_builder(p);
    if (tree.pool_stats(p).blocks_in_use == 0) continue;
    ASSERT_LT(worker, 2u) << "pool " << p;
    ++built_by[worker];
  }
  EXPECT_GT(built_by[0], 0u);
  EXPECT_GT(built_by[1], 0u);
  if (quadpool::heap_counting_enabled()) {
    for (int frame = 0; frame < 10; ++frame) {
      nudge();
      const std::uint64_t before = quadpool::heap_allocations();
      tree.rebuild(boxes, frame % 2 == 0 ? scheduler.task_system() : TaskSystem{});
      EXPECT_EQ(quadpool::heap_allocations() - before, 0u) << "frame " << frame;
    }
  }

  QuadTree small(QuadTreeConfig{.bounds = {0.0f, 0.0f, 2000.0f, 2000.0f}});
  small.rebuild(std::span(boxes).first(QuadTree::kMinItemsForSubtreeTasks - 1),
                scheduler.task_system());
  EXPECT_GT(small.stats().nodes, 21u);  // deeper than the levels above the subtree tasks
  EXPECT_EQ(small.pool_stats(0).blocks_in_use, small.stats().nodes);
  for (std::size_t p = 0; p < QuadTree::kNodePools; ++p) {
    EXPECT_EQ(small.pool_builder(p), QuadTree::kNotBuilt) << "pool " << p;
  }
}

TEST(ParallelPairs, AnEmptyTreeHasNoPairs) {
  QuadTree tree({.bounds = {0.0f, 0.0f, 10.0f, 10.0f}});
  ReversedScheduler scheduler{4};
  ParallelPairs finder;
  std::vector<Pair> found{{1, 2}};
  finder.collect(tree, scheduler.task_system(), found);
  EXPECT_TRUE(found.empty());
}

}  // namespace
}  // namespace quadpool::spatial
