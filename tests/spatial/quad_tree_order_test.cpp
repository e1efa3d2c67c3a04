// Tests of the order the QuadTree keeps from one rebuild to the next (QuadTree's
// repair_last_order): a tree rebuilt frame after frame must report exactly what a fresh tree
// reports for the same boxes, the same pairs in the same order, whether few boxes moved (the
// order is repaired), many moved (it falls back to the counting sort), their number changed, or
// some were rejected.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "engine/core/random.hpp"
#include "engine/spatial/brute_force.hpp"
#include "engine/spatial/quad_tree.hpp"
#include "tests/helpers/assert_throws.hpp"
#include "tests/helpers/reversed_scheduler.hpp"

namespace quadpool::spatial {
namespace {

using Pair = std::pair<std::uint32_t, std::uint32_t>;

std::vector<Pair> pairs_in_order(const QuadTree& tree) {
  std::vector<Pair> pairs;
  tree.for_each_pair([&](std::uint32_t a, std::uint32_t b) { pairs.emplace_back(a, b); });
  return pairs;
}

Aabb random_box(Random& rng, const Aabb& world, float size) {
  const float x = rng.uniform(world.min_x, world.max_x);
  const float y = rng.uniform(world.min_y, world.max_y);
  return {x, y, x + rng.uniform(0.0f, size), y + rng.uniform(0.0f, size)};
}

// Moves a few boxes a little, some far, and now and then changes the count, moves most boxes or
// makes one box NaN.
void next_frame(Random& rng, const Aabb& world, std::vector<Aabb>& boxes) {
  const double moving = rng.chance(0.1) ? 0.9 : rng.uniform(0.0f, 0.2f);
  for (Aabb& box : boxes) {
    if (!rng.chance(moving)) continue;
    if (rng.chance(0.05)) {
      box = random_box(rng, world, 3.0f);
      continue;
    }
    const float dx = rng.uniform(-2.0f, 2.0f), dy = rng.uniform(-2.0f, 2.0f);
    box = {box.min_x + dx, box.min_y + dy, box.max_x + dx, box.max_y + dy};
  }
  if (rng.chance(0.05)) boxes.resize(rng.below(boxes.size() + 40));
  if (rng.chance(0.05) && !boxes.empty()) {
    boxes[rng.below(boxes.size())].min_x = std::numeric_limits<float>::quiet_NaN();
  }
}

TEST(QuadTreeOrder, ATreeRebuiltFrameAfterFrameReportsWhatAFreshTreeReports) {
  Random rng(test::announce_seed(
      "QuadTreeOrder.ATreeRebuiltFrameAfterFrameReportsWhatAFreshTreeReports", 20261123));
  for (int run = 0; run < 12; ++run) {
    const QuadTreeConfig config{.bounds = {0, 0, 200, 200},
                                .max_depth = static_cast<int>(rng.between(1, 10)),
                                .leaf_capacity = static_cast<int>(rng.between(1, 64))};
    QuadTree kept(config, run % 2 == 0 ? memory::AllocatorKind::Pool : memory::AllocatorKind::NewDelete);
    std::vector<Aabb> boxes(rng.below(3'000));
    for (Aabb& box : boxes) box = random_box(rng, config.bounds, 3.0f);
    for (int frame = 0; frame < 40; ++frame) {
      SCOPED_TRACE("run " + std::to_string(run) + ", frame " + std::to_string(frame));
      kept.rebuild(boxes);
      kept.validate();
      QuadTree fresh(config);
      fresh.rebuild(boxes);
      const std::vector<Pair> pairs = pairs_in_order(kept);
      ASSERT_EQ(pairs, pairs_in_order(fresh));
      if (frame % 10 == 0) {
        std::vector<Pair> sorted = pairs, expected;
        std::sort(sorted.begin(), sorted.end());
        brute_force_pairs(boxes,
                          [&](std::uint32_t a, std::uint32_t b) { expected.emplace_back(a, b); });
        ASSERT_EQ(sorted, expected);
      }
      next_frame(rng, config.bounds, boxes);
    }
  }
}

// The pair order is part of the tree's result: the game resolves contacts in it, so it decides
// the game's state hashes. It must not depend on the CPU: ctest runs this test once with the
// 8-wide AVX kernels (on a CPU that has them) and once with QUADPOOL_DISABLE_AVX=1, and both must
// give the sequence this hash was taken from (the 4-wide kernels'). Crowded leaves with many
// hits in each, so that rows, blocks of four and leaves over 64 boxes all decide the order.
// A caller that puts its boxes in the tree's order and renumbers the tree (the game does, every
// few ticks) gets the same pairs under the new ids, and the next frames' rebuilds, which start
// from the renumbered order, build what a fresh tree builds from the same boxes. Run for a tree
// built in one piece and for one built as subtree tasks.
// The repair works range by range (QuadTree's kItemsPerTask, 16,384 items, of last frame's
// order): each range keeps its unchanged keys and merges the moved keys that fall among them.
// Here whole ranges move (every box of the first one, of one in the middle and of the short last
// one crosses to another quadrant, so that those ranges keep nothing), a few boxes jump
// anywhere (some below the first kept key), and the rest stay: still under an eighth of the
// boxes, so the order is repaired. On one thread and on workers that run the ranges in
// reverse, the kept tree reports what a fresh tree reports.
TEST(QuadTreeOrder, ARepairWhereWholeRangesMovedReportsWhatAFreshTreeReports) {
  constexpr std::uint32_t kRange = 16'384;
  constexpr std::uint32_t kCount = 20 * kRange + 1'000;
  Random rng(test::announce_seed("QuadTreeOrder.ARepairWhereWholeRangesMoved", 20261127));
  const float side = 8.0f * std::sqrt(static_cast<float>(kCount));
  const Aabb world{0.0f, 0.0f, side, side};
  std::vector<Aabb> boxes(kCount);
  for (Aabb& box : boxes) box = random_box(rng, world, 4.0f);
  for (const std::uint32_t workers : {1u, 3u}) {
    test::ReversedScheduler scheduler{workers};
    const TaskSystem tasks = workers > 1 ? scheduler.task_system() : TaskSystem{};
    QuadTree kept(QuadTreeConfig{.bounds = world});
    kept.rebuild(boxes, tasks);
    for (int frame = 0; frame < 3; ++frame) {
      SCOPED_TRACE("workers " + std::to_string(workers) + ", frame " + std::to_string(frame));
      const std::vector<std::uint32_t> order(kept.item_order().begin(), kept.item_order().end());
      const auto cross = [&](std::uint32_t first, std::uint32_t end) {
        for (std::uint32_t s = first; s < end; ++s) {
          Aabb& box = boxes[order[s]];
          const float dx = (box.min_x + box.max_x) / 2 < side / 2 ? side / 2 : -side / 2;
          box = {box.min_x + dx, box.min_y, box.max_x + dx, box.max_y};
        }
      };
      cross(0, kRange);
      cross(7 * kRange, 8 * kRange);
      cross(20 * kRange, kCount);
      for (int jump = 0; jump < 2'000; ++jump) {
        boxes[rng.below(kCount)] = random_box(rng, world, 4.0f);
      }
      kept.rebuild(boxes, tasks);
      kept.validate();
      QuadTree fresh(QuadTreeConfig{.bounds = world});
      fresh.rebuild(boxes);
      ASSERT_EQ(pairs_in_order(kept), pairs_in_order(fresh));
    }
  }
}

TEST(QuadTreeOrder, ARenumberedTreeReportsThePairsUnderTheNewIdsAndRebuildsAsAFreshTree) {
  for (const std::size_t count : {3000u, 2 * QuadTree::kMinItemsForSubtreeTasks}) {
    const std::uint64_t seed = test::announce_seed("QuadTreeOrder renumber", 20261126);
    Random rng(seed);
    const float side = 40.0f * std::sqrt(static_cast<float>(count));
    const Aabb world{0.0f, 0.0f, side, side};
    std::vector<Aabb> boxes(count);
    for (Aabb& box : boxes) box = random_box(rng, world, 30.0f);
    QuadTree tree(QuadTreeConfig{.bounds = world});
    tree.rebuild(boxes);
    const std::vector<Pair> before = pairs_in_order(tree);
    ASSERT_GT(before.size(), count / 10);
    const std::vector<std::uint32_t> order(tree.item_order().begin(), tree.item_order().end());
    ASSERT_EQ(order.size(), count);

    std::vector<Aabb> sorted(count);
    for (std::size_t i = 0; i < count; ++i) sorted[i] = boxes[order[i]];
    ASSERT_TRUE(tree.renumber_in_item_order());
    tree.validate();
    for (std::size_t i = 0; i < count; ++i) ASSERT_EQ(tree.item_order()[i], i);
    std::vector<Pair> after = pairs_in_order(tree);
    ASSERT_EQ(after.size(), before.size());
    for (std::size_t k = 0; k < after.size(); ++k) {
      const std::uint32_t a = order[after[k].first], b = order[after[k].second];
      ASSERT_EQ(Pair(std::min(a, b), std::max(a, b)), before[k]) << "pair " << k << ", " << count;
    }

    for (int frame = 0; frame < 4; ++frame) {
      for (Aabb& box : sorted) {
        if (!rng.chance(0.2)) continue;
        const float dx = rng.uniform(-20.0f, 20.0f), dy = rng.uniform(-20.0f, 20.0f);
        box = {box.min_x + dx, box.min_y + dy, box.max_x + dx, box.max_y + dy};
      }
      tree.rebuild(sorted);
      tree.validate();
      QuadTree fresh(QuadTreeConfig{.bounds = world});
      fresh.rebuild(sorted);
      ASSERT_EQ(pairs_in_order(tree), pairs_in_order(fresh)) << "frame " << frame << ", " << count;
    }
  }
}

TEST(QuadTreeOrder, ATreeThatLeftABoxOutIsNotRenumbered) {
  std::vector<Aabb> boxes{{0, 0, 1, 1}, {0.5f, 0.5f, 2, 2}, {5, 5, 6, 6}};
  boxes[1].min_x = std::numeric_limits<float>::quiet_NaN();
  QuadTree tree(QuadTreeConfig{.bounds = {0, 0, 10, 10}});
  tree.rebuild(boxes);
  const std::vector<std::uint32_t> order(tree.item_order().begin(), tree.item_order().end());
  EXPECT_FALSE(tree.renumber_in_item_order());
  EXPECT_EQ(std::vector<std::uint32_t>(tree.item_order().begin(), tree.item_order().end()), order);
}

TEST(QuadTreeOrder, ThePairSequenceIsTheSameOnEveryCpu) {
  Random rng(7);  // fixed: the expected hash belongs to these boxes
  const QuadTreeConfig config{.bounds = {0, 0, 100, 100}};
  std::vector<Aabb> boxes(4'000);
  for (Aabb& box : boxes) box = random_box(rng, config.bounds, 4.0f);
  for (std::size_t i = 0; i < 150; ++i) boxes.push_back({50, 50, 50.5f, 50.5f});  // one > 64 leaf
  QuadTree tree(config);
  tree.rebuild(boxes);
  std::uint64_t hash = 0xcbf29ce484222325ull;  // FNV-1a over (a, b) in the order reported
  std::size_t count = 0;
  tree.for_each_pair([&](std::uint32_t a, std::uint32_t b) {
    hash = (hash ^ a) * 0x100000001b3ull;
    hash = (hash ^ b) * 0x100000001b3ull;
    ++count;
  });
  EXPECT_EQ(count, 23815u);
  EXPECT_EQ(hash, 3616471466233419555ull);
}

}  // namespace
}  // namespace quadpool::spatial
