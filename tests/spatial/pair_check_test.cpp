// Tests of engine/spatial/pair_check.* and sweep_and_prune.*: the sweep-and-prune reference
// against brute force, also as boxes move between calls, and the checker's verdict on every kind
// of wrong answer.
#include "engine/spatial/pair_check.hpp"

#include <algorithm>
#include <vector>

#include <gtest/gtest.h>

#include "engine/core/random.hpp"
#include "engine/spatial/brute_force.hpp"
#include "engine/spatial/sweep_and_prune.hpp"
#include "tests/helpers/assert_throws.hpp"

namespace quadpool::spatial {
namespace {

std::vector<Pair> quadratic_pairs(const std::vector<Aabb>& boxes) {
  std::vector<Pair> pairs;
  brute_force_pairs(boxes, [&](std::uint32_t a, std::uint32_t b) { pairs.push_back({a, b}); });
  return pairs;  // already in (a, b) order
}

std::vector<Aabb> random_boxes(Random& rng, std::size_t count) {
  std::vector<Aabb> boxes(count);
  for (Aabb& box : boxes) {
    // Coarse coordinates on a small grid make touching and identical boxes common.
    const auto coarse = [&rng] { return static_cast<float>(rng.below(40)); };
    const float x = coarse();
    const float y = coarse();
    box = {x, y, x + coarse() * 0.25f, y + coarse() * 0.25f};
  }
  return boxes;
}

TEST(PairChecker, ReferencePairsEqualTheQuadraticLoopOnRandomScenes) {
  Random rng(test::announce_seed("PairChecker.ReferencePairs", 99));
  PairChecker checker;
  for (int scene = 0; scene < 300; ++scene) {
    const std::vector<Aabb> boxes = random_boxes(rng, rng.below(120));
    const std::vector<Pair> expected = quadratic_pairs(boxes);
    const std::span<const Pair> got = checker.reference_pairs(boxes);
    ASSERT_EQ(std::vector<Pair>(got.begin(), got.end()), expected) << "scene " << scene;
    // The reference's own pairs, in any order, pass the check.
    std::vector<Pair> shuffled = expected;
    std::reverse(shuffled.begin(), shuffled.end());
    ASSERT_FALSE(checker.check(boxes, shuffled).has_value()) << "scene " << scene;
  }
}

TEST(SweepAndPrune, RepairsItsOrderAsTheSameBoxesMoveAndStillFindsEveryPair) {
  Random rng(test::announce_seed("SweepAndPrune.RepairsItsOrder", 7));
  std::vector<Aabb> boxes = random_boxes(rng, 200);
  SweepAndPrune sweep;
  for (int call = 0; call < 100; ++call) {
    // Small steps most of the time (the insertion sort's case), now and then a jump across.
    for (Aabb& box : boxes) {
      const float step = call % 10 == 9 ? static_cast<float>(rng.below(40)) - 20.0f
                                        : static_cast<float>(rng.below(5)) * 0.25f - 0.5f;
      box.min_x += step;
      box.max_x += step;
    }
    sweep.update(boxes);
    std::vector<Pair> got;
    sweep.for_each_pair([&](std::uint32_t a, std::uint32_t b) { got.push_back({a, b}); });
    std::sort(got.begin(), got.end(), pair_less);
    ASSERT_EQ(got, quadratic_pairs(boxes)) << "call " << call;
  }
}

TEST(PairChecker, ReportsAMissingPair) {
  const std::vector<Aabb> boxes = {{0, 0, 2, 2}, {1, 1, 3, 3}, {2, 2, 4, 4}};
  PairChecker checker;
  const auto mismatch = checker.check(boxes, std::vector<Pair>{{0, 1}, {1, 2}});
  ASSERT_TRUE(mismatch.has_value());
  EXPECT_EQ(mismatch->kind, PairMismatch::Kind::Missing);
  EXPECT_EQ(mismatch->pair, (Pair{0, 2})) << "touching boxes overlap";
  EXPECT_NE(describe(*mismatch, boxes).find("pair (0, 2) missing"), std::string::npos)
      << describe(*mismatch, boxes);
}

TEST(PairChecker, ReportsASpuriousPairAndAnIndexOutOfRange) {
  const std::vector<Aabb> boxes = {{0, 0, 1, 1}, {5, 5, 6, 6}};
  PairChecker checker;
  auto mismatch = checker.check(boxes, std::vector<Pair>{{0, 1}});
  ASSERT_TRUE(mismatch.has_value());
  EXPECT_EQ(mismatch->kind, PairMismatch::Kind::Spurious);
  mismatch = checker.check(boxes, std::vector<Pair>{{0, 7}});
  ASSERT_TRUE(mismatch.has_value());
  EXPECT_EQ(mismatch->kind, PairMismatch::Kind::Spurious);
  EXPECT_NE(describe(*mismatch, boxes).find("out of range"), std::string::npos);
}

TEST(PairChecker, ReportsADuplicateAndAnUnorderedPair) {
  const std::vector<Aabb> boxes = {{0, 0, 2, 2}, {1, 1, 3, 3}};
  PairChecker checker;
  auto mismatch = checker.check(boxes, std::vector<Pair>{{0, 1}, {0, 1}});
  ASSERT_TRUE(mismatch.has_value());
  EXPECT_EQ(mismatch->kind, PairMismatch::Kind::Duplicate);
  mismatch = checker.check(boxes, std::vector<Pair>{{1, 0}});
  ASSERT_TRUE(mismatch.has_value());
  EXPECT_EQ(mismatch->kind, PairMismatch::Kind::NotOrdered);
}

TEST(PairChecker, AcceptsNoPairsForNoBoxes) {
  PairChecker checker;
  EXPECT_FALSE(checker.check({}, {}).has_value());
}

}  // namespace
}  // namespace quadpool::spatial
