// Tests of scene/scene.*: the names of the scene kinds, what every scene promises (count, inside
// the world, determinism) and the shape of each family at spawn. How the scenes behave when they
// tick is tested with the simulation, in tests/sim/simulation_test.cpp.
//
// Sections: names, every scene, shapes, helpers.
#include "common/scene/scene.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "tests/helpers/assert_throws.hpp"

namespace quadpool::scene {
namespace {

std::vector<Sprite> spawn(SceneKind kind, std::size_t sprites, std::uint64_t seed) {
  return spawn_sprites({.seed = seed, .sprites = sprites, .kind = kind});
}

bool same_sprites(const std::vector<Sprite>& a, const std::vector<Sprite>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const Sprite& s, const Sprite& t) {
    return s.x == t.x && s.y == t.y && s.vx == t.vx && s.vy == t.vy && s.radius == t.radius &&
           s.kind == t.kind;
  });
}

// The share of the sprites whose centres lie in the densest `cells_share` of a 16 x 16 grid.
double share_in_densest_cells(const std::vector<Sprite>& sprites, float side, double cells_share) {
  constexpr int kCells = 16;
  std::vector<int> count(kCells * kCells, 0);
  for (const Sprite& s : sprites) {
    const int cx = std::min(kCells - 1, static_cast<int>(s.x / side * kCells));
    const int cy = std::min(kCells - 1, static_cast<int>(s.y / side * kCells));
    ++count[cy * kCells + cx];
  }
  std::sort(count.rbegin(), count.rend());
  const auto top = static_cast<std::size_t>(cells_share * kCells * kCells);
  int in_top = 0;
  for (std::size_t i = 0; i < top; ++i) in_top += count[i];
  return static_cast<double>(in_top) / static_cast<double>(sprites.size());
}

std::string name_of(const ::testing::TestParamInfo<SceneKind>& info) {
  return scene_name(info.param);
}

// --- names ---------------------------------------------------------------------------------------

TEST(SceneKind, EveryKindParsesBackFromItsName) {
  ASSERT_EQ(kSceneKinds.size(), 4u);
  for (const SceneKind kind : kSceneKinds) {
    EXPECT_EQ(parse_scene_kind(scene_name(kind)), kind) << scene_name(kind);
  }
  EXPECT_STREQ(scene_name(SceneKind::Uniform), "uniform");
  EXPECT_STREQ(scene_name(SceneKind::Clustered), "clustered");
  EXPECT_STREQ(scene_name(SceneKind::Mixed), "mixed");
  EXPECT_STREQ(scene_name(SceneKind::Streams), "streams");
}

TEST(SceneKind, AnythingElseDoesNotParse) {
  for (const char* bad : {"", "nope", "Uniform", "uniform ", " mixed", "stream", "clustered\n"}) {
    EXPECT_FALSE(parse_scene_kind(bad).has_value()) << "'" << bad << "'";
  }
}

TEST(SceneConfig, DefaultsToTheUniformScene) {
  EXPECT_EQ(SceneConfig{}.kind, SceneKind::Uniform);
}

// --- every scene ---------------------------------------------------------------------------------

class EveryScene : public ::testing::TestWithParam<SceneKind> {};

TEST_P(EveryScene, SpawnsTheCountInsideTheWorldWithFiniteState) {
  const auto seed = test::announce_seed("EveryScene.Spawns", 11);
  for (const std::size_t count : {1u, 2u, 7u, 100u, 2'000u, 20'000u}) {
    const auto sprites = spawn(GetParam(), count, seed);
    ASSERT_EQ(sprites.size(), count);
    const float side = world_side(count);
    for (const Sprite& s : sprites) {
      ASSERT_TRUE(std::isfinite(s.vx) && std::isfinite(s.vy) && s.radius > 0.0f) << count;
      ASSERT_LT(s.kind, kSpriteKinds);
      Sprite clamped = s;
      clamp_into_world(clamped, side);
      ASSERT_EQ(clamped.x, s.x) << count << " sprites: x " << s.x << " radius " << s.radius;
      ASSERT_EQ(clamped.y, s.y) << count << " sprites: y " << s.y << " radius " << s.radius;
    }
  }
}

TEST_P(EveryScene, TheSameSeedGivesTheSameSpritesAndAnotherSeedOthers) {
  const auto seed = test::announce_seed("EveryScene.Seeds", 12);
  const auto a = spawn(GetParam(), 3'000, seed);
  EXPECT_TRUE(same_sprites(a, spawn(GetParam(), 3'000, seed)));
  EXPECT_FALSE(same_sprites(a, spawn(GetParam(), 3'000, seed + 1)));
}

TEST_P(EveryScene, EverySpriteMovesAtMostAtTheConfiguredSpeed) {
  const auto sprites = spawn_sprites({.seed = 3, .sprites = 5'000, .speed = 0.8f, .kind = GetParam()});
  for (const Sprite& s : sprites) {
    ASSERT_LE(std::hypot(s.vx, s.vy), 0.8f * 1.0001f);
  }
}

INSTANTIATE_TEST_SUITE_P(Kinds, EveryScene, ::testing::ValuesIn(kSceneKinds), name_of);

TEST(Scene, TheKindsReallyDiffer) {
  std::vector<std::vector<Sprite>> scenes;
  for (const SceneKind kind : kSceneKinds) scenes.push_back(spawn(kind, 1'000, 5));
  for (std::size_t i = 0; i < scenes.size(); ++i) {
    for (std::size_t j = i + 1; j < scenes.size(); ++j) {
      EXPECT_FALSE(same_sprites(scenes[i], scenes[j])) << i << " and " << j;
    }
  }
}

// --- shapes --------------------------------------------------------------------------------------

TEST(UniformScene, RadiiSpeedsAndPositionsAreSpreadEvenly) {
  const auto seed = test::announce_seed("UniformScene", 13);
  const auto sprites = spawn(SceneKind::Uniform, 20'000, seed);
  const float side = world_side(sprites.size());
  for (const Sprite& s : sprites) {
    ASSERT_GE(s.radius, 2.0f);
    ASSERT_LE(s.radius, 6.0f);
    ASSERT_NEAR(std::hypot(s.vx, s.vy), 0.5f, 1e-5f);
  }
  // 10% of the cells hold about 10% of the sprites (a little more from the noise).
  EXPECT_LT(share_in_densest_cells(sprites, side, 0.1), 0.15);
}

TEST(ClusteredScene, MostSpritesCrowdIntoAFewDenseBlobs) {
  const auto seed = test::announce_seed("ClusteredScene", 14);
  for (const std::size_t count : {2'000u, 20'000u}) {
    const auto sprites = spawn(SceneKind::Clustered, count, seed);
    const float side = world_side(count);
    // The blobs hold 85% of the sprites in well under half of the world: the densest third of
    // it holds about two thirds of the sprites, against about 40% in the uniform scene (a
    // little more at 2,000 sprites, where a cell holds a handful and the noise is larger).
    const double clumped = share_in_densest_cells(sprites, side, 0.33);
    const double even = share_in_densest_cells(spawn(SceneKind::Uniform, count, seed), side, 0.33);
    EXPECT_GT(clumped, 0.6) << count;
    EXPECT_GT(clumped, even + 0.15) << count;
    // Blob sprites are slow, the rest move at full speed.
    const auto slow = std::count_if(sprites.begin(), sprites.end(), [](const Sprite& s) {
      return std::hypot(s.vx, s.vy) < 0.5f / kClusteredSlowdown * 1.001f;
    });
    EXPECT_NEAR(static_cast<double>(slow) / static_cast<double>(count), kClusteredShare, 0.03);
  }
}

TEST(MixedScene, AboutOnePercentAreLargeAndSlowTheRestAreSmall) {
  const auto seed = test::announce_seed("MixedScene", 15);
  for (const std::size_t count : {2'000u, 20'000u, 100u}) {
    const auto sprites = spawn(SceneKind::Mixed, count, seed);
    std::size_t large = 0;
    for (const Sprite& s : sprites) {
      if (s.radius >= 20.0f) {
        ++large;
        ASSERT_LE(s.radius, 60.0f);
        ASSERT_NEAR(std::hypot(s.vx, s.vy), 0.05f, 1e-5f);
      } else {
        ASSERT_GE(s.radius, 2.0f);
        ASSERT_LE(s.radius, 6.0f);
        ASSERT_NEAR(std::hypot(s.vx, s.vy), 0.5f, 1e-5f);
      }
    }
    EXPECT_EQ(large, count / 100) << count << " sprites";
    EXPECT_GE(largest_radius(sprites), 20.0f);
  }
}

TEST(MixedScene, IsTheUniformSceneOfTheSameSeedExceptForTheLargeSprites) {
  const auto seed = test::announce_seed("MixedScene.Uniform", 17);
  const auto mixed = spawn(SceneKind::Mixed, 5'000, seed);
  const auto uniform = spawn(SceneKind::Uniform, 5'000, seed);
  std::size_t same = 0;
  for (std::size_t i = 0; i < mixed.size(); ++i) {
    if (mixed[i].radius < 20.0f) {
      same += same_sprites({mixed[i]}, {uniform[i]}) ? 1 : 0;
    } else {
      // Ten times the radius and a tenth of the speed: the same kinetic energy.
      EXPECT_NEAR(mixed[i].radius, 10.0f * uniform[i].radius, 1e-3f);
      EXPECT_NEAR(mixed[i].vx, 0.1f * uniform[i].vx, 1e-6f);
    }
  }
  EXPECT_EQ(same, 5'000u - 50u);
}

TEST(StreamsScene, TwoCrowdsInAlternateLanesHeadAtEachOtherFromOppositeWalls) {
  const auto seed = test::announce_seed("StreamsScene", 16);
  const auto sprites = spawn(SceneKind::Streams, 10'000, seed);
  const float side = world_side(sprites.size());
  std::size_t rightward = 0;
  double right_x = 0.0;
  double left_x = 0.0;
  for (const Sprite& s : sprites) {
    ASSERT_EQ(s.vy, 0.0f);
    ASSERT_EQ(std::abs(s.vx), 0.5f);
    ASSERT_EQ(s.kind, s.vx > 0.0f ? 0 : 1) << "a crowd has one look";
    if (s.vx > 0.0f) {
      ++rightward;
      right_x += s.x;
    } else {
      left_x += s.x;
    }
  }
  const auto leftward = sprites.size() - rightward;
  EXPECT_NEAR(static_cast<double>(rightward) / static_cast<double>(sprites.size()), 0.5, 0.02);
  // The crowd heading right starts on the left and the other way round.
  EXPECT_LT(right_x / static_cast<double>(rightward), 0.45 * side);
  EXPECT_GT(left_x / static_cast<double>(leftward), 0.55 * side);
  // Sprites of different crowds never share a lane: a lane (a y) holds one direction only.
  std::vector<std::pair<float, float>> lanes;  // (y, vx)
  for (const Sprite& s : sprites) lanes.emplace_back(s.y, s.vx);
  std::sort(lanes.begin(), lanes.end());
  for (std::size_t i = 1; i < lanes.size(); ++i) {
    if (lanes[i].first == lanes[i - 1].first) {
      ASSERT_EQ(lanes[i].second, lanes[i - 1].second);
    }
  }
  // ... and lanes are far enough apart that no two sprites of different lanes touch.
  lanes.erase(std::unique(lanes.begin(), lanes.end(),
                          [](const auto& a, const auto& b) { return a.first == b.first; }),
              lanes.end());
  ASSERT_GT(lanes.size(), 10u);
  for (std::size_t i = 1; i < lanes.size(); ++i) {
    ASSERT_GT(lanes[i].first - lanes[i - 1].first, 2.0f * 6.0f);
    ASSERT_NE(lanes[i].second, lanes[i - 1].second) << "neighbouring lanes head opposite ways";
  }
}

// --- helpers -------------------------------------------------------------------------------------

TEST(LargestRadius, IsTheLargestRadiusOrZeroForNoSprites) {
  EXPECT_EQ(largest_radius({}), 0.0f);
  std::vector<Sprite> sprites = spawn(SceneKind::Uniform, 50, 1);
  sprites[17].radius = 42.5f;
  EXPECT_EQ(largest_radius(sprites), 42.5f);
}

TEST(WorldSide, IsTheSameForEveryKindAndGrowsWithTheSquareRootOfTheCount) {
  EXPECT_FLOAT_EQ(world_side(100'000), 4096.0f);
  EXPECT_FLOAT_EQ(world_side(25'000), 2048.0f);
}

// What the spawned sprites really cover: their areas over the world's.
double measured_coverage(const SceneConfig& config) {
  double area = 0.0;
  for (const Sprite& s : spawn_sprites(config)) {
    area += std::numbers::pi * static_cast<double>(s.radius) * static_cast<double>(s.radius);
  }
  const double side = world_side(config.sprites);
  return area / (side * side);
}

TEST(Coverage, IsTheCountTimesTheMeanAreaOverTheWorldsArea) {
  // pi * 100^2 * 100000 / 4096^2: a replay that asked for this ran 45 million pairs a tick.
  EXPECT_NEAR(coverage({.sprites = 100'000, .min_radius = 100.0f, .max_radius = 100.0f}),
              187.25, 0.01);
  // Radii uniform in [2, 6]: pi * E[r^2] = pi * 52 / 3 over 4096^2 / 100000 a sprite.
  EXPECT_NEAR(coverage({.sprites = 100'000}), 0.3246, 0.0001);
  EXPECT_EQ(coverage({.sprites = 0}), 0.0);
  // Mixed: its one large sprite at 50 sprites (2% of them) has 100 times a small one's area.
  const SceneConfig mixed{.sprites = 50, .min_radius = 4.0f, .max_radius = 4.0f,
                          .kind = SceneKind::Mixed};
  EXPECT_DOUBLE_EQ(coverage(mixed), coverage({.sprites = 50, .min_radius = 4.0f,
                                              .max_radius = 4.0f}) * (49.0 + 100.0) / 50.0);
}

TEST_P(EveryScene, CoverageIsWhatTheSpawnedSpritesCover) {
  for (const std::size_t sprites : {50u, 2'000u, 20'000u}) {
    // Equal radii leave nothing to chance: the formula must match exactly, large sprites and all.
    const SceneConfig fixed{.sprites = sprites, .min_radius = 3.0f, .max_radius = 3.0f,
                            .kind = GetParam()};
    EXPECT_NEAR(coverage(fixed), measured_coverage(fixed), 1e-4 * coverage(fixed)) << sprites;
  }
  // Random radii: the mean of enough of them (Mixed's 2,000 large ones among 200,000).
  for (const auto& [lo, hi] : {std::pair{2.0f, 6.0f}, std::pair{0.5f, 7.25f}}) {
    const SceneConfig config{.sprites = 200'000, .min_radius = lo, .max_radius = hi,
                             .kind = GetParam()};
    EXPECT_NEAR(coverage(config), measured_coverage(config), 0.02 * coverage(config))
        << "radii " << lo << ".." << hi;
  }
}

// The numbers coverage() documents, at every count from 1 to a million: a third of the world
// for the default radii, Mixed at most 0.97 (50 sprites, one of them large).
TEST(Coverage, TheDefaultScenesCoverAThirdOfTheWorldAndMixedUnderOneAtEveryCount) {
  for (const SceneKind kind : kSceneKinds) {
    double most = 0.0;
    std::size_t most_at = 0;
    for (std::size_t sprites = 1; sprites <= 1'000'000; ++sprites) {
      const double c = coverage({.sprites = sprites, .kind = kind});
      if (c > most) {
        most = c;
        most_at = sprites;
      }
    }
    if (kind == SceneKind::Mixed) {
      EXPECT_EQ(most_at, 50u);
      EXPECT_NEAR(most, 0.967, 0.001);
      EXPECT_NEAR(coverage({.sprites = 1'000'000, .kind = kind}), 0.646, 0.001);
    } else {
      EXPECT_NEAR(most, 0.3246, 0.0001) << scene_name(kind);
    }
  }
}

}  // namespace
}  // namespace quadpool::scene
