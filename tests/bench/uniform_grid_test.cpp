// Tests of bench/uniform_grid.*, the grid that spatial_bench measures the QuadTree against: its
// pairs must be exactly brute force's (each once, a < b), or the benchmark compares against a
// grid that skips work.
#include "bench/uniform_grid.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "engine/core/random.hpp"
#include "engine/spatial/brute_force.hpp"
#include "tests/helpers/assert_throws.hpp"

namespace quadpool::bench {
namespace {

using spatial::Aabb;
using PairList = std::vector<std::pair<std::uint32_t, std::uint32_t>>;

PairList brute_force_list(const std::vector<Aabb>& boxes) {
  PairList pairs;
  spatial::brute_force_pairs(boxes,
                             [&](std::uint32_t a, std::uint32_t b) { pairs.emplace_back(a, b); });
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

PairList grid_list(const UniformGrid& grid) {
  PairList pairs;
  grid.for_each_pair([&](std::uint32_t a, std::uint32_t b) {
    EXPECT_LT(a, b);
    pairs.emplace_back(a, b);
  });
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

// Boxes of half-size up to `largest` around centres on a coarse lattice (so touching and
// identical boxes are common), some reaching or lying outside the world [0, side]^2.
std::vector<Aabb> random_boxes(Random& rng, std::size_t count, float side, float largest) {
  std::vector<Aabb> boxes(count);
  for (Aabb& box : boxes) {
    const auto lattice = [&](float extent) {
      return static_cast<float>(rng.below(static_cast<std::uint64_t>(extent * 4.0f) + 9)) * 0.25f -
             1.0f;
    };
    const float x = lattice(side), y = lattice(side);
    // A quarter of the boxes have the largest size exactly: the grid's worst case.
    const float r =
        rng.below(4) == 0 ? largest : static_cast<float>(rng.below(5)) * 0.25f * largest;
    const float ry = rng.below(2) == 0 ? r : largest - r;
    box = {x - r, y - ry, x + r, y + ry};
  }
  return boxes;
}

TEST(UniformGrid, PairsEqualBruteForceOnRandomScenes) {
  Random rng(test::announce_seed("UniformGrid.PairsEqualBruteForce", 26));
  for (int scene = 0; scene < 300; ++scene) {
    const float side = 4.0f + static_cast<float>(rng.below(60));
    const float largest = 0.5f + static_cast<float>(rng.below(8)) * 0.5f;
    const std::vector<Aabb> boxes = random_boxes(rng, rng.below(400), side, largest);
    UniformGrid grid({0, 0, side, side}, 2.0f * largest);
    grid.rebuild(boxes);
    ASSERT_EQ(grid_list(grid), brute_force_list(boxes))
        << "scene " << scene << ": side " << side << ", largest radius " << largest;
  }
}

TEST(UniformGrid, ARebuildForgetsThePreviousBoxes) {
  Random rng(test::announce_seed("UniformGrid.ARebuildForgets", 3));
  UniformGrid grid({0, 0, 32, 32}, 4.0f);
  for (int frame = 0; frame < 20; ++frame) {
    const std::vector<Aabb> boxes = random_boxes(rng, 50 + rng.below(300), 32.0f, 2.0f);
    grid.rebuild(boxes);
    ASSERT_EQ(grid_list(grid), brute_force_list(boxes)) << "frame " << frame;
  }
  grid.rebuild({});
  EXPECT_TRUE(grid_list(grid).empty());
}

TEST(UniformGrid, RejectsABadCellOrAnEmptyWorld) {
  EXPECT_THROW(UniformGrid({0, 0, 10, 10}, 0.0f), std::invalid_argument);
  EXPECT_THROW(UniformGrid({0, 0, 0, 10}, 1.0f), std::invalid_argument);
}

}  // namespace
}  // namespace quadpool::bench
