// Tests of QuadTree::ray_cast() and nearest() (engine/spatial/detail/quad_tree_queries.hpp,
// quad_tree_queries.cpp): differential tests against brute force (the same slab test and
// distance over every box) on the four game scenes and on lattice scenes full of boxes on node
// borders, zero-size and identical boxes, axis rays and rays through corners; the degenerate
// rays; the early stop; and no heap allocation.
//
// Sections: helpers, ray casts, nearest, allocation.
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/heap_counter.hpp"
#include "common/scene/scene.hpp"
#include "engine/core/random.hpp"
#include "engine/spatial/aabb.hpp"
#include "engine/spatial/brute_force.hpp"
#include "engine/spatial/quad_tree.hpp"
#include "engine/spatial/ray.hpp"
#include "tests/helpers/assert_throws.hpp"
#include "tests/spatial/query_checks.hpp"

namespace quadpool::spatial {
namespace {

// --- helpers -----------------------------------------------------------------------------------

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNan = std::numeric_limits<float>::quiet_NaN();

std::vector<Aabb> scene_boxes(scene::SceneKind kind, std::size_t count, std::uint64_t seed) {
  std::vector<Aabb> boxes;
  for (const auto& s : scene::spawn_sprites({.seed = seed, .sprites = count, .kind = kind})) {
    boxes.push_back(scene::bounds_of(s));
  }
  return boxes;
}

// A unit direction, uniform in angle (no transcendental: a point of the unit disc, scaled).
void random_direction(Random& rng, float& dx, float& dy) {
  for (;;) {
    dx = rng.uniform(-1.0f, 1.0f);
    dy = rng.uniform(-1.0f, 1.0f);
    const float length = std::sqrt(dx * dx + dy * dy);
    if (length > 0.01f && length <= 1.0f) {
      dx /= length;
      dy /= length;
      return;
    }
  }
}

// Boxes on a coarse lattice over `world` that includes its edges and the quadrant lines: boxes
// on node borders, points, segments, copies and boxes wider than the world.
std::vector<Aabb> lattice_scene(Random& rng, const Aabb& world, int lattice, std::size_t count) {
  const float w = world.max_x - world.min_x, h = world.max_y - world.min_y;
  const auto at_x = [&](std::int64_t k) { return world.min_x + w * static_cast<float>(k) / static_cast<float>(lattice); };
  const auto at_y = [&](std::int64_t k) { return world.min_y + h * static_cast<float>(k) / static_cast<float>(lattice); };
  std::vector<Aabb> boxes;
  for (std::size_t i = 0; i < count; ++i) {
    const auto kx = rng.between(-1, lattice + 1), ky = rng.between(-1, lattice + 1);
    switch (rng.below(6)) {
      case 0: boxes.push_back({at_x(kx), at_y(ky), at_x(kx), at_y(ky)}); break;      // a point
      case 1: boxes.push_back({at_x(kx), at_y(ky), at_x(kx + 1), at_y(ky)}); break;  // a segment
      case 2:
        if (!boxes.empty()) {
          boxes.push_back(boxes[rng.below(boxes.size())]);  // a copy
          break;
        }
        [[fallthrough]];
      case 3: boxes.push_back({world.min_x - w, at_y(ky), world.max_x + w, at_y(ky + 1)}); break;
      default:
        boxes.push_back({at_x(kx), at_y(ky), at_x(kx + rng.between(0, 2)),
                         at_y(ky + rng.between(0, 2))});
    }
  }
  return boxes;
}

// --- ray casts ---------------------------------------------------------------------------------

// On each game scene, rays of a shot's tick, a screen and the world's side from random points,
// some outside the world; every box on the ray with its exact t, the closest hit, the first stop.
TEST(QuadTreeRayCast, EqualsBruteForceOnEveryGameScene) {
  Random rng(test::announce_seed("QuadTreeRayCast.EqualsBruteForceOnEveryGameScene", 31));
  for (const scene::SceneKind kind : scene::kSceneKinds) {
    const auto boxes = scene_boxes(kind, 4'000, rng.next_u64());
    const float side = scene::world_side(boxes.size());
    QuadTree tree({.bounds = {0, 0, side, side}});
    tree.rebuild(boxes);
    for (int i = 0; i < 300; ++i) {
      Ray ray{rng.uniform(-0.1f * side, 1.1f * side), rng.uniform(-0.1f * side, 1.1f * side), 0, 0,
              (i % 3 == 0) ? 6.0f : (i % 3 == 1) ? 1000.0f : side};
      random_direction(rng, ray.dir_x, ray.dir_y);
      if (i % 10 == 9) ray.max_t = kInf;
      const std::string error = test::check_ray(tree, boxes, ray);
      ASSERT_EQ(error, "") << scene::scene_name(kind) << ", ray " << i;
    }
  }
}

// Thousands of small lattice scenes in random configurations; rays from lattice points along
// the axes both ways, through lattice corners (diagonals and knight's moves), of every length.
TEST(QuadTreeRayCast, EqualsBruteForceOnBordersCornersAndAxes) {
  Random rng(test::announce_seed("QuadTreeRayCast.EqualsBruteForceOnBordersCornersAndAxes", 32));
  for (int scene = 0; scene < 1'500; ++scene) {
    const Aabb world{rng.uniform(-100.0f, 100.0f), rng.uniform(-100.0f, 100.0f), 0, 0};
    const Aabb bounds{world.min_x, world.min_y, world.min_x + rng.uniform(1.0f, 300.0f),
                      world.min_y + rng.uniform(1.0f, 300.0f)};
    const int lattice = 1 << rng.between(1, 4);
    const auto boxes = lattice_scene(rng, bounds, lattice, rng.below(200));
    QuadTree tree({.bounds = bounds,
                   .max_depth = static_cast<int>(rng.between(1, 10)),
                   .leaf_capacity = static_cast<int>(rng.between(1, 8))});
    tree.rebuild(boxes);
    const float cell_x = (bounds.max_x - bounds.min_x) / static_cast<float>(lattice);
    const float cell_y = (bounds.max_y - bounds.min_y) / static_cast<float>(lattice);
    for (int i = 0; i < 12; ++i) {
      const float x = bounds.min_x + cell_x * static_cast<float>(rng.between(-1, lattice + 1));
      const float y = bounds.min_y + cell_y * static_cast<float>(rng.between(-1, lattice + 1));
      static constexpr float kSteps[][2] = {{1, 0}, {-1, 0}, {0, 1},  {0, -1}, {1, 1},
                                            {-1, 1}, {1, -2}, {2, 1}, {0, 0}};
      const auto& step = kSteps[rng.below(std::size(kSteps))];
      const float lengths[] = {0.0f, 0.5f, 1.0f, 3.0f, static_cast<float>(lattice) + 2.0f, kInf};
      const Ray ray{x, y, step[0] * cell_x, step[1] * cell_y, lengths[rng.below(6)]};
      const std::string error = test::check_ray(tree, boxes, ray);
      ASSERT_EQ(error, "") << "scene " << scene << ", " << boxes.size() << " boxes";
    }
  }
}

TEST(QuadTreeRayCast, DegenerateRaysHaveTheDocumentedAnswers) {
  const std::vector<Aabb> boxes{{0, 0, 10, 10}, {5, 5, 6, 6}, {20, 0, 30, 10}, {5, 5, 5, 5},
                                {-kInf, 40, kInf, 41}};
  QuadTree tree({.bounds = {0, 0, 64, 64}, .max_depth = 4, .leaf_capacity = 1});
  tree.rebuild(boxes);
  const auto hits = [&](const Ray& ray) {
    EXPECT_EQ(test::check_ray(tree, boxes, ray), "");
    return test::all_hits([&](auto&& f) { tree.ray_cast(ray, f); });
  };
  using test::RayHit;
  // A zero direction: the point itself, every box that contains it, at t = 0.
  EXPECT_EQ(hits({5, 5, 0, 0, 100}), (std::vector<RayHit>{{0, 0}, {1, 0}, {3, 0}}));
  EXPECT_EQ(hits({5, 5, 0, 0, 0}), (std::vector<RayHit>{{0, 0}, {1, 0}, {3, 0}}));
  EXPECT_EQ(hits({15, 5, 0, 0, kInf}), (std::vector<RayHit>{}));
  // A flat axis keeps its coordinate: along y at x = 5 (a face of box 3 and inside box 0).
  EXPECT_EQ(hits({5, -10, 0, 1, 100}),
            (std::vector<RayHit>{{0, 10}, {1, 15}, {3, 15}, {4, 50}}));
  // A subnormal direction component counts as 0.
  EXPECT_EQ(hits({5, -10, 1e-45f, 1, 100}), hits({5, -10, 0, 1, 100}));
  // No end: everything ahead, however far.
  // (From 1e30 away every box's entry rounds to 1e30: the same t, so in id order.)
  EXPECT_EQ(hits({-1e30f, 5, 1, 0, kInf}),
            (std::vector<RayHit>{{0, 1e30f}, {1, 1e30f}, {2, 1e30f}, {3, 1e30f}}));
  // NaN anywhere, an infinite origin or direction, a negative length: nothing.
  for (const Ray& ray : {Ray{kNan, 5, 1, 0, 10}, Ray{5, 5, kNan, 0, 10}, Ray{5, 5, 1, 0, kNan},
                         Ray{kInf, 5, -1, 0, 10}, Ray{5, 5, kInf, 0, 10}, Ray{5, 5, 1, 0, -1}}) {
    EXPECT_EQ(hits(ray), (std::vector<RayHit>{})) << test::describe(ray);
  }
  // An empty tree reports nothing.
  QuadTree empty({.bounds = {0, 0, 64, 64}});
  empty.ray_cast(Ray{5, 5, 1, 0, 100}, [](std::uint32_t, float) -> float {
    ADD_FAILURE() << "a box in an empty tree";
    return 0.0f;
  });
}

TEST(QuadTreeRayCast, TheLimitFallsButNeverRises) {
  // Boxes at t = 10, 20, 30 along +x, each in its own leaf.
  const std::vector<Aabb> boxes{{30, 0, 31, 1}, {10, 0, 11, 1}, {20, 0, 21, 1}};
  QuadTree tree({.bounds = {0, 0, 64, 64}, .max_depth = 6, .leaf_capacity = 1});
  tree.rebuild(boxes);
  std::vector<std::uint32_t> seen;
  // Front to back, so the box at 10 comes first; answering 15 rules out the others, and a
  // negative answer or a larger one after that does not bring them back.
  tree.ray_cast(Ray{0, 0.5f, 1, 0, 100}, [&](std::uint32_t id, float) {
    seen.push_back(id);
    return 15.0f;
  });
  EXPECT_EQ(seen, (std::vector<std::uint32_t>{1}));
  seen.clear();
  tree.ray_cast(Ray{0, 0.5f, 1, 0, 25}, [&](std::uint32_t id, float) {
    seen.push_back(id);
    return -1.0f;  // keep the limit: every box within 25
  });
  EXPECT_EQ(seen, (std::vector<std::uint32_t>{1, 2}));
}

// Front to back: on a long ray through a crowded scene a closest-hit search opens a small
// fraction of what visiting every box does.
TEST(QuadTreeRayCast, AClosestHitSearchStopsEarly) {
  const auto boxes = scene_boxes(scene::SceneKind::Uniform, 20'000, 5);
  const float side = scene::world_side(boxes.size());
  QuadTree tree({.bounds = {0, 0, side, side}});
  tree.rebuild(boxes);
  std::size_t all = 0, closest = 0;
  for (int i = 0; i < 20; ++i) {
    const float y = side * (0.05f + 0.045f * static_cast<float>(i));
    const Ray ray{-10.0f, y, 1, 0.01f, side};
    tree.ray_cast(ray, [&](std::uint32_t, float) {
      ++all;
      return kInf;
    });
    tree.ray_cast(ray, [&](std::uint32_t, float t) {
      ++closest;
      return t;
    });
  }
  EXPECT_GT(all, 20u * 50u);
  EXPECT_LT(closest * 20, all) << closest << " reports for closest hits, " << all << " in all";
}

// --- nearest -----------------------------------------------------------------------------------

TEST(QuadTreeNearest, EqualsBruteForceOnEveryGameScene) {
  Random rng(test::announce_seed("QuadTreeNearest.EqualsBruteForceOnEveryGameScene", 41));
  for (const scene::SceneKind kind : scene::kSceneKinds) {
    const auto boxes = scene_boxes(kind, 4'000, rng.next_u64());
    const float side = scene::world_side(boxes.size());
    QuadTree tree({.bounds = {0, 0, side, side}});
    tree.rebuild(boxes);
    for (int i = 0; i < 200; ++i) {
      const float x = rng.uniform(-0.2f * side, 1.2f * side);
      const float y = rng.uniform(-0.2f * side, 1.2f * side);
      for (const std::size_t k : {1, 8, 64}) {
        ASSERT_EQ(test::check_nearest(tree, boxes, x, y, k), "") << scene::scene_name(kind);
      }
    }
  }
}

// Lattice scenes: many equal distances (copies, boxes on borders, points inside several boxes),
// so the order by id is tested as much as the distances.
TEST(QuadTreeNearest, EqualsBruteForceWithTiesOnBordersAndCorners) {
  Random rng(test::announce_seed("QuadTreeNearest.EqualsBruteForceWithTiesOnBordersAndCorners", 42));
  for (int scene = 0; scene < 1'500; ++scene) {
    const Aabb bounds{0, 0, rng.uniform(1.0f, 300.0f), rng.uniform(1.0f, 300.0f)};
    const int lattice = 1 << rng.between(1, 4);
    const auto boxes = lattice_scene(rng, bounds, lattice, rng.below(200));
    QuadTree tree({.bounds = bounds,
                   .max_depth = static_cast<int>(rng.between(1, 10)),
                   .leaf_capacity = static_cast<int>(rng.between(1, 8))});
    tree.rebuild(boxes);
    for (int i = 0; i < 8; ++i) {
      const float x = bounds.max_x * static_cast<float>(rng.between(-2, 2 * lattice + 2)) /
                      static_cast<float>(2 * lattice);
      const float y = bounds.max_y * static_cast<float>(rng.between(-2, 2 * lattice + 2)) /
                      static_cast<float>(2 * lattice);
      const std::size_t k = 1 + rng.below(rng.chance(0.2) ? 250 : 10);
      ASSERT_EQ(test::check_nearest(tree, boxes, x, y, k), "")
          << "scene " << scene << ", " << boxes.size() << " boxes";
    }
  }
}

TEST(QuadTreeNearest, ReturnsFewerWhenTheTreeHoldsFewerAndNothingForABadPoint) {
  const std::vector<Aabb> boxes{{0, 0, 1, 1}, {4, 4, 5, 5}, {kNan, 0, 1, 1}, {2, 2, 2, 2}};
  QuadTree tree({.bounds = {0, 0, 8, 8}, .max_depth = 3, .leaf_capacity = 1});
  tree.rebuild(boxes);
  std::uint32_t out[6] = {};
  // The NaN box is left out of the tree, as of the reference.
  ASSERT_EQ(tree.nearest(3, 3, out), 3u);
  // Boxes 1 and 3 are both 1 + 1 = 2 away (squared): the smaller id first; box 0 is 8 away.
  EXPECT_EQ(std::vector<std::uint32_t>(out, out + 3), (std::vector<std::uint32_t>{1, 3, 0}));
  EXPECT_EQ(test::check_nearest(tree, boxes, 3, 3, 6), "");
  EXPECT_EQ(tree.nearest(kNan, 3, out), 0u);
  EXPECT_EQ(tree.nearest(3, kInf, out), 0u);
  EXPECT_EQ(tree.nearest(3, 3, std::span<std::uint32_t>()), 0u);
  QuadTree empty({.bounds = {0, 0, 8, 8}});
  EXPECT_EQ(empty.nearest(3, 3, out), 0u);
}

// --- allocation --------------------------------------------------------------------------------

TEST(QuadTreeQueries, RayCastAndNearestMakeNoHeapAllocation) {
  if (!heap_counting_enabled()) GTEST_SKIP() << "this build does not count heap allocations";
  const auto boxes = scene_boxes(scene::SceneKind::Clustered, 20'000, 7);
  const float side = scene::world_side(boxes.size());
  QuadTree tree({.bounds = {0, 0, side, side}});
  tree.rebuild(boxes);
  Random rng(9);
  std::uint32_t out[64];
  float sum = 0.0f;
  const std::uint64_t before = heap_allocations();
  for (int i = 0; i < 200; ++i) {
    Ray ray{rng.uniform(0, side), rng.uniform(0, side), rng.uniform(-1, 1), rng.uniform(-1, 1),
            i % 2 == 0 ? side : kInf};
    tree.ray_cast(ray, [&](std::uint32_t, float t) {
      sum += t;
      return t;
    });
    tree.ray_cast(ray, [&](std::uint32_t, float t) {
      sum += t;
      return kInf;
    });
    sum += static_cast<float>(tree.nearest(ray.origin_x, ray.origin_y, out));
  }
  EXPECT_EQ(heap_allocations() - before, 0u);
  EXPECT_GT(sum, 0.0f);
}

}  // namespace
}  // namespace quadpool::spatial
