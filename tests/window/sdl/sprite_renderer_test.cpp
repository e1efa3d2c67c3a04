// The sprite renderer's level of detail: when the sprites are one quad each and when they are
// the density map. The pictures themselves are checked through the executable in
// demo_smoke_test.cpp.
#include <gtest/gtest.h>

#include "game/window/sdl/sprite_renderer.hpp"

namespace quadpool::game::window::sdl {
namespace {

constexpr std::size_t kBudget = SpriteRenderer::kMostSpritesOneByOne;

TEST(SpriteRenderer, SpritesUnderTwoPixelsAreTheDensityMapHoweverFewAreInView) {
  EXPECT_TRUE(SpriteRenderer::draws_density_map(1.99f, 0));
  EXPECT_TRUE(SpriteRenderer::draws_density_map(0.5f, 1));
}

TEST(SpriteRenderer, SmallSpritesAreTheDensityMapOnlyWhenMoreThanTheBudgetAreInView) {
  // 100,000 sprites fitted into 1920x1080 are 2.07 px across: one quad each, they took twice
  // the CPU time per frame that the map takes.
  EXPECT_TRUE(SpriteRenderer::draws_density_map(2.07f, 100'000));
  EXPECT_TRUE(SpriteRenderer::draws_density_map(3.99f, kBudget + 1));
  EXPECT_FALSE(SpriteRenderer::draws_density_map(2.0f, kBudget));
  EXPECT_FALSE(SpriteRenderer::draws_density_map(3.3f, 40'000));
}

TEST(SpriteRenderer, SpritesOfFourPixelsOrMoreAreAlwaysDrawnOneByOne) {
  EXPECT_FALSE(SpriteRenderer::draws_density_map(4.0f, 1'000'000));
  EXPECT_FALSE(SpriteRenderer::draws_density_map(40.0f, 1'000'000));
}

}  // namespace
}  // namespace quadpool::game::window::sdl
