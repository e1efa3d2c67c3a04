// Tests of game/window/score_popups.hpp: a tick's points become pop-ups that rise, fade and go
// after their life; a busy tick overwrites the oldest, never growing.
#include "game/window/score_popups.hpp"

#include <vector>

#include <gtest/gtest.h>

namespace quadpool::game::window {
namespace {

play::PlayTick tick_scoring(std::initializer_list<int> points) {
  play::PlayTick tick;
  for (const int p : points) {
    tick.pops[tick.pop_count++] = {play::Vec2{10.0f, 50.0f}, p};
  }
  return tick;
}

std::vector<ScorePopups::Popup> showing(const ScorePopups& popups) {
  std::vector<ScorePopups::Popup> out;
  popups.for_each([&](const ScorePopups::Popup& p) { out.push_back(p); });
  return out;
}

TEST(ScorePopups, ATicksPointsRiseFadeAndGoAfterTheirLife) {
  ScorePopups popups;
  popups.after_tick(tick_scoring({50, 100}));
  ASSERT_EQ(showing(popups).size(), 2u);
  EXPECT_EQ(showing(popups)[0].points, 50);
  const float first_y = showing(popups)[0].at.y;
  EXPECT_LT(first_y, 50.0f) << "it rises (y points down)";
  const float first_strength = showing(popups)[0].strength();
  for (int t = 1; t < ScorePopups::kLifeTicks - 1; ++t) popups.after_tick({});
  ASSERT_EQ(showing(popups).size(), 2u);
  EXPECT_LT(showing(popups)[0].strength(), first_strength);
  EXPECT_NEAR(showing(popups)[0].at.y, 50.0f - ScorePopups::kRise, ScorePopups::kRise * 0.05f);
  popups.after_tick({});
  EXPECT_TRUE(showing(popups).empty()) << "gone after " << ScorePopups::kLifeTicks << " ticks";
}

TEST(ScorePopups, ABusySecondKeepsTheNewestInItsSlots) {
  ScorePopups popups;
  for (int t = 0; t < 10; ++t) popups.after_tick(tick_scoring({1, 2, 3, 4, 5}));
  const std::vector<ScorePopups::Popup> shown = showing(popups);
  EXPECT_EQ(shown.size(), ScorePopups::kSlots);
  for (const ScorePopups::Popup& p : shown) EXPECT_LE(p.age, 7) << "an old one outlived a new one";
}

}  // namespace
}  // namespace quadpool::game::window
