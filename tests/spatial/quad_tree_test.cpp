// Tests of engine/spatial/quad_tree.*: configuration errors, each kind of awkward box, the node
// sources (Pool and NewDelete), zero heap allocations once warm, and differential tests against
// brute force over thousands of random scenes.
//
// Sections: helpers, configuration, awkward boxes, allocation, differential tests, death tests.
#include "engine/spatial/quad_tree.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "common/heap_counter.hpp"
#include "engine/core/random.hpp"
#include "engine/spatial/brute_force.hpp"
#include "common/scene/scene.hpp"
#include "tests/helpers/assert_throws.hpp"
#include "tests/helpers/skip.hpp"
#include "tests/spatial/quad_tree_input.hpp"

namespace quadpool::spatial {
namespace {

// --- helpers -----------------------------------------------------------------------------------

using Pair = std::pair<std::uint32_t, std::uint32_t>;

constexpr Aabb kWorld{0.0f, 0.0f, 100.0f, 100.0f};

// Pairs in the order the tree reports them.
std::vector<Pair> tree_pairs(const QuadTree& tree) {
  std::vector<Pair> pairs;
  tree.for_each_pair([&](std::uint32_t a, std::uint32_t b) { pairs.emplace_back(a, b); });
  return pairs;
}

std::vector<Pair> sorted_tree_pairs(const QuadTree& tree) {
  std::vector<Pair> pairs = tree_pairs(tree);
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

std::vector<Pair> brute_pairs(std::span<const Aabb> boxes) {
  std::vector<Pair> pairs;
  brute_force_pairs(boxes, [&](std::uint32_t a, std::uint32_t b) { pairs.emplace_back(a, b); });
  return pairs;
}

std::vector<std::uint32_t> sorted_tree_query(const QuadTree& tree, const Aabb& area) {
  std::vector<std::uint32_t> ids;
  tree.query(area, [&](std::uint32_t id) { ids.push_back(id); });
  std::sort(ids.begin(), ids.end());
  return ids;
}

std::vector<std::uint32_t> brute_query(std::span<const Aabb> boxes, const Aabb& area) {
  std::vector<std::uint32_t> ids;
  brute_force_query(boxes, area, [&](std::uint32_t id) { ids.push_back(id); });
  return ids;
}

// Rebuilds, validates, and checks every pair and a few queries against brute force.
void expect_matches_brute_force(QuadTree& tree, std::span<const Aabb> boxes,
                                std::span<const Aabb> areas = {}) {
  tree.rebuild(boxes);
  tree.validate();
  EXPECT_EQ(tree.stats().items, boxes.size());
  const std::vector<Pair> pairs = tree_pairs(tree);
  for (const auto& [a, b] : pairs) ASSERT_LT(a, b);
  std::vector<Pair> sorted = pairs;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, brute_pairs(boxes));
  for (const Aabb& area : areas) EXPECT_EQ(sorted_tree_query(tree, area), brute_query(boxes, area));
}

Aabb box_around(float x, float y, float half) {
  return {x - half, y - half, x + half, y + half};
}

// --- configuration -----------------------------------------------------------------------------

std::string message_of_bad_config(const QuadTreeConfig& config) {
  try {
    QuadTree tree(config);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no exception)";
}

TEST(QuadTree, MaxDepthOutsideOneToSixteenThrowsNamingTheRange) {
  for (int depth : {0, -3, 17, 1000}) {
    const std::string message = message_of_bad_config({.bounds = kWorld, .max_depth = depth});
    EXPECT_NE(message.find("max_depth"), std::string::npos) << message;
    EXPECT_NE(message.find("1..16"), std::string::npos) << message;
    EXPECT_NE(message.find(std::to_string(depth)), std::string::npos) << message;
  }
  EXPECT_NO_THROW(QuadTree({.bounds = kWorld, .max_depth = 1}));
  EXPECT_NO_THROW(QuadTree({.bounds = kWorld, .max_depth = 16}));
}

TEST(QuadTree, LeafCapacityBelowOneThrowsNamingTheField) {
  for (int capacity : {0, -1}) {
    const std::string message =
        message_of_bad_config({.bounds = kWorld, .leaf_capacity = capacity});
    EXPECT_NE(message.find("leaf_capacity"), std::string::npos) << message;
    EXPECT_NE(message.find("at least 1"), std::string::npos) << message;
  }
  EXPECT_NO_THROW(QuadTree({.bounds = kWorld, .leaf_capacity = 1}));
}

TEST(QuadTree, EmptyOrNanOrInfiniteBoundsThrow) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const Aabb bad[] = {{0, 0, 0, 10},    {0, 0, 10, 0},   {5, 0, 1, 10},     {0, 7, 10, 2},
                      {nan, 0, 10, 10}, {0, 0, 10, nan}, {-inf, 0, 10, 10}, {0, 0, 10, inf}};
  for (const Aabb& bounds : bad) {
    const std::string message = message_of_bad_config({.bounds = bounds});
    EXPECT_NE(message.find("QuadTreeConfig::bounds"), std::string::npos) << message;
  }
  EXPECT_NE(message_of_bad_config({.bounds = {0, 0, 0, 10}}).find("min_x < max_x"),
            std::string::npos);
}

TEST(QuadTree, AFreshTreeIsOneEmptyLeaf) {
  QuadTree tree({.bounds = kWorld});
  tree.validate();
  EXPECT_EQ(tree.stats().nodes, 1u);
  EXPECT_EQ(tree.stats().leaves, 1u);
  EXPECT_EQ(tree.stats().items, 0u);
  EXPECT_TRUE(tree_pairs(tree).empty());
  EXPECT_TRUE(sorted_tree_query(tree, kWorld).empty());
}

TEST(QuadTree, SetAllocatorTakesEffectAtTheNextRebuild) {
  QuadTree tree({.bounds = kWorld}, memory::AllocatorKind::Pool);
  EXPECT_EQ(tree.allocator(), memory::AllocatorKind::Pool);
  const std::vector<Aabb> boxes(50, box_around(10, 10, 1));
  tree.rebuild(boxes);
  const std::size_t nodes = tree.stats().nodes;
  EXPECT_EQ(tree.pool_stats().blocks_in_use, nodes);

  tree.set_allocator(memory::AllocatorKind::NewDelete);
  EXPECT_EQ(tree.allocator(), memory::AllocatorKind::NewDelete);
  EXPECT_EQ(tree.pool_stats().blocks_in_use, nodes);  // the live tree still uses the pool
  tree.rebuild(boxes);
  tree.validate();
  EXPECT_EQ(tree.pool_stats().blocks_in_use, 0u);

  tree.set_allocator(memory::AllocatorKind::Pool);
  tree.rebuild(boxes);
  tree.validate();
  EXPECT_EQ(tree.pool_stats().blocks_in_use, tree.stats().nodes);
}

TEST(QuadTree, RebuildTearsEveryOldNodeDown) {
  QuadTree tree({.bounds = kWorld, .leaf_capacity = 1});
  Random rng(3);
  std::vector<Aabb> many;
  for (int i = 0; i < 500; ++i)
    many.push_back(box_around(rng.uniform(0, 100), rng.uniform(0, 100), 0.5f));
  tree.rebuild(many);
  const auto big = tree.pool_stats();
  ASSERT_GT(big.blocks_in_use, 100u);
  tree.rebuild(std::span<const Aabb>(many).first(3));
  const auto small = tree.pool_stats();
  EXPECT_EQ(small.blocks_in_use, tree.stats().nodes);
  EXPECT_EQ(small.total_deallocations - big.total_deallocations, big.blocks_in_use);
}

// --- awkward boxes -----------------------------------------------------------------------------

TEST(QuadTree, StraddlingBoxesAreReportedOnce) {
  // leaf_capacity 1 splits every node, so these boxes straddle the quadrant lines at many depths.
  QuadTree tree({.bounds = kWorld, .max_depth = 6, .leaf_capacity = 1});
  std::vector<Aabb> boxes = {
      {49, 49, 51, 51},        // the root's centre
      {0, 49.5f, 100, 50.5f},  // across the whole world on the horizontal midline
      {49.5f, 0, 50.5f, 100},  // and on the vertical one
      {24, 24, 26, 26},       {74, 24, 76, 26}, {24, 74, 26, 76},
      {74, 74, 76, 76},       {12, 12, 13, 13}, {12.5f, 12.5f, 37.5f, 37.5f},
      {50, 50, 50, 50},
  };
  expect_matches_brute_force(tree, boxes, std::vector<Aabb>{{50, 50, 50, 50}, {0, 0, 25, 25}});
  // The two midline bars and the centre box all overlap each other.
  const auto pairs = sorted_tree_pairs(tree);
  EXPECT_TRUE(std::count(pairs.begin(), pairs.end(), Pair{0, 1}) == 1);
  EXPECT_TRUE(std::count(pairs.begin(), pairs.end(), Pair{1, 2}) == 1);
}

TEST(QuadTree, BoxesOnOrOutsideTheWorldEdgeAreNeitherLostNorDoubled) {
  QuadTree tree({.bounds = kWorld, .max_depth = 5, .leaf_capacity = 2});
  std::vector<Aabb> boxes = {
      {0, 0, 0, 0},
      {100, 100, 100, 100},
      {-5, 40, 0, 45},
      {100, 40, 110, 45},
      {-10, -10, -5, -5},
      {-8, -8, -6, -6},
      {200, 200, 201, 201},
      {200, 200, 200, 200},
      {-1, 50, 1, 51},
      {99, 50, 101, 51},
      {40, -3, 60, 0.5f},
      {40, 100, 60, 130},
      {-1e30f, 10, -1e29f, 11},
      {-1e30f, 10, -1e29f, 11},
  };
  expect_matches_brute_force(tree, boxes,
                             std::vector<Aabb>{{-20, -20, 0, 0}, {100, 0, 300, 300}, kWorld});
  EXPECT_EQ(sorted_tree_query(tree, {199, 199, 202, 202}), (std::vector<std::uint32_t>{6, 7}));
}

TEST(QuadTree, ZeroSizeBoxesOverlapWhenTheyTouch) {
  QuadTree tree({.bounds = kWorld, .max_depth = 4, .leaf_capacity = 1});
  std::vector<Aabb> boxes = {
      {10, 10, 10, 10}, {10, 10, 10, 10},        // the same point twice
      {20, 20, 20, 20}, {20, 18, 22, 20},        // a point on a box's edge
      {30, 30, 30, 30}, {30.5f, 30, 30.5f, 30},  // two distinct points
      {40, 40, 40, 45}, {38, 42, 45, 42},        // a vertical and a horizontal segment that cross
  };
  expect_matches_brute_force(tree, boxes,
                             std::vector<Aabb>{{10, 10, 10, 10}, {30.1f, 0, 30.4f, 99}});
  const auto pairs = sorted_tree_pairs(tree);
  EXPECT_EQ(pairs, (std::vector<Pair>{{0, 1}, {2, 3}, {6, 7}}));
}

TEST(QuadTree, TenThousandIdenticalBoxesRespectMaxDepth) {
  QuadTree tree({.bounds = kWorld, .max_depth = 7, .leaf_capacity = 4});
  const std::vector<Aabb> boxes(10'000, box_around(33.3f, 66.6f, 0.0f));  // one point
  tree.rebuild(boxes);
  tree.validate();
  EXPECT_EQ(tree.stats().max_depth_reached, 7u);
  EXPECT_EQ(tree.stats().max_leaf_items, 10'000u);
  EXPECT_EQ(tree.stats().nodes, 8u);  // one chain from the root to the full leaf
  std::uint64_t pairs = 0;
  bool ordered = true;
  tree.for_each_pair([&](std::uint32_t a, std::uint32_t b) {
    ++pairs;
    ordered = ordered && a < b;
  });
  EXPECT_EQ(pairs, 10'000ull * 9'999ull / 2);
  EXPECT_TRUE(ordered);
  EXPECT_EQ(sorted_tree_query(tree, {33, 66, 34, 67}).size(), 10'000u);
}

// A dense blob in a wide world: a cap of depth 8 leaves it in one or a few leaves of thousands
// of boxes, while the default depth lets the leaves split until each holds leaf_capacity.
TEST(QuadTree, TheDefaultDepthSplitsADenseBlobUntilEveryLeafHoldsTheCapacity) {
  constexpr Aabb kWideWorld{0.0f, 0.0f, 100'000.0f, 100'000.0f};
  Random rng(test::announce_seed("QuadTree.TheDefaultDepthSplitsADenseBlob", 16));
  std::vector<Aabb> boxes(5'000);
  for (Aabb& box : boxes) {
    box = box_around(rng.uniform(30'000.0f, 30'150.0f), rng.uniform(60'000.0f, 60'150.0f),
                     rng.uniform(0.5f, 2.0f));
  }
  QuadTree capped({.bounds = kWideWorld, .max_depth = 8});
  capped.rebuild(boxes);
  capped.validate();
  EXPECT_GT(capped.stats().max_leaf_items, 1'000u);

  QuadTree tree({.bounds = kWideWorld});
  EXPECT_EQ(tree.config().max_depth, 16);
  expect_matches_brute_force(tree, boxes, std::vector<Aabb>{{30'050, 60'050, 30'100, 60'070}});
  EXPECT_LE(tree.stats().max_leaf_items, static_cast<std::size_t>(tree.config().leaf_capacity));
  EXPECT_GT(tree.stats().max_depth_reached, 8u);
  EXPECT_EQ(sorted_tree_pairs(tree), sorted_tree_pairs(capped));
}

// Boxes that share one cell at depth 16 cannot be told apart by any cell code: the split stops
// there, as it stops at any max_depth.
TEST(QuadTree, IdenticalBoxesStopTheDefaultSplitAtDepthSixteen) {
  QuadTree tree({.bounds = kWorld, .leaf_capacity = 4});
  const std::vector<Aabb> boxes(1'000, box_around(33.3f, 66.6f, 0.5f));
  tree.rebuild(boxes);
  tree.validate();
  EXPECT_EQ(tree.stats().max_depth_reached, 16u);
  EXPECT_EQ(tree.stats().max_leaf_items, 1'000u);
  EXPECT_EQ(tree.stats().nodes, 17u);  // one chain from the root to the full leaf
}

TEST(QuadTree, BoxesLargerThanTheWorldOverlapEverything) {
  QuadTree tree({.bounds = kWorld, .max_depth = 6, .leaf_capacity = 2});
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<Aabb> boxes = {
      {-1000, -1000, 1000, 1000}, {-inf, -inf, inf, inf}, {-50, 20, 500, 21}};
  Random rng(11);
  for (int i = 0; i < 60; ++i)
    boxes.push_back(box_around(rng.uniform(0, 100), rng.uniform(0, 100), 1));
  expect_matches_brute_force(tree, boxes, std::vector<Aabb>{{-2000, 5, -1500, 6}, {3, 3, 4, 4}});
  const auto pairs = sorted_tree_pairs(tree);
  const auto with_zero =
      std::count_if(pairs.begin(), pairs.end(), [](const Pair& p) { return p.first == 0; });
  EXPECT_EQ(with_zero, static_cast<long>(boxes.size() - 1));
}

TEST(QuadTree, StatsCountTheBoxesThatStickOutOfTheirLeaf) {
  QuadTree tree({.bounds = kWorld, .max_depth = 3, .leaf_capacity = 1});
  const std::vector<Aabb> boxes = {{10, 10, 20, 20}, {45, 45, 55, 55}, {80, 10, 90, 20}};
  tree.rebuild(boxes);
  tree.validate();
  // The middle box's centre is on the root's centre lines, so whichever quadrant takes it, the
  // box reaches into the other three.
  EXPECT_EQ(tree.stats().straddling_items, 1u);
  EXPECT_EQ(tree.stats().leaves, 3u);
}

TEST(QuadTree, ForEachNodeVisitsEveryNodeRootFirst) {
  QuadTree tree({.bounds = kWorld, .max_depth = 5, .leaf_capacity = 3});
  Random rng(5);
  std::vector<Aabb> boxes;
  for (int i = 0; i < 300; ++i)
    boxes.push_back(box_around(rng.uniform(0, 100), rng.uniform(0, 100), 0.7f));
  tree.rebuild(boxes);
  std::size_t visited = 0;
  int max_depth = 0;
  tree.for_each_node([&](const Aabb& quadrant, int depth) {
    if (visited == 0) {
      EXPECT_EQ(depth, 0);
      EXPECT_EQ(quadrant.max_x, kWorld.max_x);
    }
    EXPECT_TRUE(quadrant.min_x >= kWorld.min_x && quadrant.max_y <= kWorld.max_y);
    max_depth = std::max(max_depth, depth);
    ++visited;
  });
  EXPECT_EQ(visited, tree.stats().nodes);
  EXPECT_EQ(static_cast<std::size_t>(max_depth), tree.stats().max_depth_reached);
}

// --- allocation --------------------------------------------------------------------------------

std::vector<Aabb> scene_boxes(std::span<const scene::Sprite> sprites) {
  std::vector<Aabb> boxes;
  boxes.reserve(sprites.size());
  for (const auto& s : sprites) boxes.push_back(scene::bounds_of(s));
  return boxes;
}

TEST(QuadTree, PoolAndNewDeleteReportTheSamePairsInTheSameOrder) {
  const auto sprites = scene::spawn_sprites({.seed = 21, .sprites = 3'000});
  const auto boxes = scene_boxes(sprites);
  const float side = scene::world_side(sprites.size());
  QuadTree pooled({.bounds = {0, 0, side, side}}, memory::AllocatorKind::Pool);
  QuadTree plain({.bounds = {0, 0, side, side}}, memory::AllocatorKind::NewDelete);
  pooled.rebuild(boxes);
  plain.rebuild(boxes);
  const auto pairs = tree_pairs(pooled);
  EXPECT_FALSE(pairs.empty());
  EXPECT_EQ(pairs, tree_pairs(plain));
  EXPECT_EQ(plain.pool_stats().blocks_in_use, 0u);
  EXPECT_EQ(pooled.pool_stats().blocks_in_use, pooled.stats().nodes);
}

TEST(QuadTree, PoolModeMakesNoHeapAllocationPerFrameOnceWarm) {
  auto sprites = scene::spawn_sprites({.seed = 8, .sprites = 5'000});
  const float side = scene::world_side(sprites.size());
  std::vector<Aabb> boxes = scene_boxes(sprites);
  QuadTree tree({.bounds = {0, 0, side, side}});
  tree.rebuild(boxes);  // warm-up: the pool and the scratch arrays grow here
  tree.rebuild(boxes);
  for (int tick = 0; tick < 20; ++tick) {
    scene::move_and_bounce(sprites, side);
    for (std::size_t i = 0; i < sprites.size(); ++i) boxes[i] = scene::bounds_of(sprites[i]);
    const std::uint64_t before = heap_allocations();
    tree.rebuild(boxes);
    std::uint64_t pairs = 0;
    tree.for_each_pair([&](std::uint32_t, std::uint32_t) { ++pairs; });
    std::uint64_t hits = 0;
    tree.query({0, 0, side / 3, side / 3}, [&](std::uint32_t) { ++hits; });
    const std::uint64_t made = heap_allocations() - before;
    EXPECT_EQ(made, 0u) << "tick " << tick;
    EXPECT_GT(pairs, 0u);
    EXPECT_GT(hits, 0u);
  }
}

TEST(QuadTree, NewDeleteModeAllocatesEveryNodeFromTheHeap) {
  const auto sprites = scene::spawn_sprites({.seed = 9, .sprites = 2'000});
  const float side = scene::world_side(sprites.size());
  const auto boxes = scene_boxes(sprites);
  QuadTree tree({.bounds = {0, 0, side, side}}, memory::AllocatorKind::NewDelete);
  tree.rebuild(boxes);
  const std::uint64_t before = heap_allocations();
  tree.rebuild(boxes);
  EXPECT_EQ(heap_allocations() - before, tree.stats().nodes);
}

TEST(QuadTree, TheGameSceneMatchesBruteForceTickAfterTick) {
  auto sprites = scene::spawn_sprites({.seed = 4, .sprites = 2'000});
  const float side = scene::world_side(sprites.size());
  QuadTree tree({.bounds = {0, 0, side, side}});
  for (int tick = 0; tick < 10; ++tick) {
    const auto boxes = scene_boxes(sprites);
    expect_matches_brute_force(tree, boxes, std::vector<Aabb>{{0, 0, side / 2, side / 5}});
    scene::move_and_bounce(sprites, side);
  }
}

// --- differential tests ------------------------------------------------------------------------

enum class SceneKind { Uniform, Clustered, Degenerate };

Aabb random_bounds(Random& rng) {
  const float x = rng.uniform(-1000, 1000);
  const float y = rng.uniform(-1000, 1000);
  const float w = rng.chance(0.1) ? rng.uniform(1e-3f, 1.0f) : rng.uniform(1.0f, 2000.0f);
  const float h = rng.chance(0.5) ? w : rng.uniform(1.0f, 2000.0f);
  return {x, y, x + w, y + h};
}

std::vector<Aabb> random_scene(Random& rng, SceneKind kind, const Aabb& world, std::size_t count) {
  const float w = world.max_x - world.min_x;
  const float h = world.max_y - world.min_y;
  std::vector<Aabb> boxes;
  boxes.reserve(count);
  auto in_world = [&](float margin) {
    return std::pair{rng.uniform(world.min_x - margin * w, world.max_x + margin * w),
                     rng.uniform(world.min_y - margin * h, world.max_y + margin * h)};
  };
  switch (kind) {
    case SceneKind::Uniform: {
      const float size = rng.uniform(0.0f, 0.1f);
      for (std::size_t i = 0; i < count; ++i) {
        const auto [x, y] = in_world(0.0f);
        boxes.push_back({x, y, x + rng.uniform(0, size * w), y + rng.uniform(0, size * h)});
      }
      break;
    }
    case SceneKind::Clustered: {
      const int clusters = 1 + static_cast<int>(rng.below(4));
      std::vector<std::pair<float, float>> centres;
      for (int c = 0; c < clusters; ++c) centres.push_back(in_world(0.05f));
      const float spread = rng.uniform(1e-4f, 0.05f);
      for (std::size_t i = 0; i < count; ++i) {
        const auto [cx, cy] = centres[rng.below(centres.size())];
        const float x = cx + rng.uniform(-spread, spread) * w;
        const float y = cy + rng.uniform(-spread, spread) * h;
        const float size = rng.uniform(0, spread) * w;
        boxes.push_back({x, y, x + size, y + size});
      }
      break;
    }
    case SceneKind::Degenerate: {
      // Coordinates on a coarse lattice that includes the world edges and the quadrant lines, so
      // touching boxes, boxes on boundaries and identical boxes are common.
      const int lattice = 1 << (1 + rng.below(4));
      auto lattice_x = [&](int k) { return world.min_x + w * static_cast<float>(k) / lattice; };
      auto lattice_y = [&](int k) { return world.min_y + h * static_cast<float>(k) / lattice; };
      for (std::size_t i = 0; i < count; ++i) {
        const auto roll = rng.below(6);
        const int kx = static_cast<int>(rng.between(-1, lattice + 1));
        const int ky = static_cast<int>(rng.between(-1, lattice + 1));
        const float x = lattice_x(kx);
        const float y = lattice_y(ky);
        if (roll == 0) {
          boxes.push_back({x, y, x, y});  // a point
        } else if (roll == 1) {
          boxes.push_back({x, y, lattice_x(kx + 1), y});  // a horizontal segment
        } else if (roll == 2 && !boxes.empty()) {
          boxes.push_back(boxes[rng.below(boxes.size())]);  // a copy
        } else if (roll == 3) {
          boxes.push_back(
              {world.min_x - w, y, world.max_x + w, lattice_y(ky + 1)});  // wider than the world
        } else {
          boxes.push_back({x, y, lattice_x(kx + static_cast<int>(rng.below(3))),
                           lattice_y(ky + static_cast<int>(rng.below(3)))});
        }
      }
      break;
    }
  }
  return boxes;
}

TEST(QuadTree, PairsAndQueriesEqualBruteForceOnThousandsOfRandomScenes) {
  Random rng(test::announce_seed("QuadTree.PairsAndQueriesEqualBruteForceOnThousandsOfRandomScenes",
                                 20261121));
  constexpr int kScenes = 3'000;
  for (int scene = 0; scene < kScenes; ++scene) {
    const auto kind = static_cast<SceneKind>(scene % 3);
    // Shallow trees are the common case; deep ones stress the cell codes.
    const int max_depth = rng.chance(0.8) ? static_cast<int>(rng.between(1, 8))
                                          : static_cast<int>(rng.between(9, 16));
    const QuadTreeConfig config{.bounds = random_bounds(rng),
                                .max_depth = max_depth,
                                .leaf_capacity = static_cast<int>(rng.between(1, 12))};
    const auto count = static_cast<std::size_t>(rng.below(rng.chance(0.1) ? 600 : 150));
    const auto boxes = random_scene(rng, kind, config.bounds, count);
    std::vector<Aabb> areas = random_scene(rng, SceneKind::Uniform, config.bounds, 2);
    const Aabb& w = config.bounds;
    const float width = w.max_x - w.min_x;
    areas.push_back(w);
    areas.push_back(
        {w.min_x - width, w.min_y - width, w.max_x + width, w.max_y + width});  // larger
    areas.push_back({w.max_x + 1, w.min_y, w.max_x + width, w.max_y});          // wholly outside
    areas.push_back({w.min_x, w.min_y, w.min_x, w.min_y});  // a point on the corner
    QuadTree tree(config, rng.chance(0.5) ? memory::AllocatorKind::Pool : memory::AllocatorKind::NewDelete);
    SCOPED_TRACE("scene " + std::to_string(scene) + ", kind " + std::to_string(scene % 3) +
                 ", max_depth " + std::to_string(config.max_depth) + ", leaf_capacity " +
                 std::to_string(config.leaf_capacity) + ", boxes " + std::to_string(count));
    expect_matches_brute_force(tree, boxes, areas);
    if (::testing::Test::HasFailure()) return;  // one scene's report is enough
  }
}

TEST(QuadTree, OneTreeRebuiltWithChangingScenesStaysCorrect) {
  Random rng(test::announce_seed("QuadTree.OneTreeRebuiltWithChangingScenesStaysCorrect", 77));
  QuadTree tree({.bounds = kWorld, .max_depth = 6, .leaf_capacity = 3});
  for (int frame = 0; frame < 200; ++frame) {
    if (frame % 7 == 0) {
      tree.set_allocator(rng.chance(0.5) ? memory::AllocatorKind::Pool : memory::AllocatorKind::NewDelete);
    }
    const auto boxes = random_scene(rng, static_cast<SceneKind>(frame % 3), kWorld, rng.below(300));
    SCOPED_TRACE("frame " + std::to_string(frame));
    expect_matches_brute_force(tree, boxes, std::vector<Aabb>{{10, 10, 60, 30}});
    if (::testing::Test::HasFailure()) return;
  }
}

TEST(QuadTree, ReplaysEveryCommittedFuzzInputWithoutADisagreement) {
  // The libFuzzer target (tests/fuzz/quad_tree_fuzz.cpp) needs clang; this replays its committed
  // corpus in every build.
  const std::filesystem::path corpus =
      std::filesystem::path(QUADPOOL_SOURCE_DIR) / "tests" / "fuzz" / "corpus" / "quad_tree";
  // A missing corpus is a broken checkout, not a reason to pass.
  ASSERT_TRUE(std::filesystem::is_directory(corpus)) << "no fuzz corpus at " << corpus;
  std::size_t replayed = 0;
  for (const auto& entry : std::filesystem::directory_iterator(corpus)) {
    if (!entry.is_regular_file() || entry.path().filename().string().starts_with(".")) continue;
    std::ifstream file(entry.path(), std::ios::binary);
    const std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(file), {}};
    EXPECT_EQ(test::run_quad_tree_input(bytes.data(), bytes.size()), "") << entry.path();
    ++replayed;
  }
  EXPECT_GE(replayed, 4u) << "the committed corpus at " << corpus << " looks truncated";
}

// --- death tests -------------------------------------------------------------------------------

// --- boxes the tree refuses ---------------------------------------------------------------------

// In every build (this test does not need asserts): a box with a NaN coordinate or min > max is
// left out and counted, and the other boxes' pairs and query hits are exactly what they would be
// without it. Before, a NaN box's loose-bounds union turned its ancestors' bounds to NaN, and
// pairs and hits of other boxes under them were lost in builds without asserts.
TEST(QuadTree, ABoxWithANanCoordinateOrMinAboveMaxIsLeftOutWithoutChangingTheOthers) {
  const auto seed = test::announce_seed("QuadTreeRejectedBoxes", 1123);
  Random rng(seed);
  std::vector<Aabb> boxes;
  for (int i = 0; i < 2000; ++i) {
    boxes.push_back(
        box_around(rng.uniform(0.0f, 100.0f), rng.uniform(0.0f, 100.0f), rng.uniform(0.1f, 2.0f)));
  }
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<bool> refused(boxes.size(), false);
  const auto spoil = [&](std::size_t id, const Aabb& bad) {
    boxes[id] = bad;
    refused[id] = true;
  };
  spoil(0, {nan, 10, 12, 12});
  spoil(7, {10, 10, 12, nan});
  spoil(500, {nan, nan, nan, nan});
  spoil(1999, {30, 30, 20, 40});  // min_x > max_x
  spoil(1234, {30, 30, 40, 20});  // min_y > max_y

  std::vector<Pair> expected;
  for (const Pair& p : brute_pairs(boxes)) {
    if (!refused[p.first] && !refused[p.second]) expected.push_back(p);
  }
  for (const memory::AllocatorKind kind : {memory::AllocatorKind::Pool, memory::AllocatorKind::NewDelete}) {
    QuadTree tree({.bounds = kWorld, .max_depth = 8, .leaf_capacity = 8}, kind);
    tree.rebuild(boxes);
    tree.validate();
    EXPECT_EQ(tree.stats().rejected_boxes, 5u);
    EXPECT_EQ(tree.stats().items, boxes.size() - 5);
    EXPECT_EQ(sorted_tree_pairs(tree), expected);
    for (const Aabb& area :
         {kWorld, Aabb{5, 5, 15, 15}, Aabb{25, 25, 45, 45}, Aabb{90, 0, 100, 9}}) {
      std::vector<std::uint32_t> hits;
      for (const std::uint32_t id : brute_query(boxes, area)) {
        if (!refused[id]) hits.push_back(id);
      }
      EXPECT_EQ(sorted_tree_query(tree, area), hits);
    }
    // The next rebuild without them rejects nothing.
    std::vector<Aabb> clean = boxes;
    for (std::size_t i = 0; i < clean.size(); ++i) {
      if (refused[i]) clean[i] = box_around(50, 50, 1);
    }
    expect_matches_brute_force(tree, clean);
    EXPECT_EQ(tree.stats().rejected_boxes, 0u);
  }
}

}  // namespace
}  // namespace quadpool::spatial
