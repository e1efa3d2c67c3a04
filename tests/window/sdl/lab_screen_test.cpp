// The lab's screen without a window: its pace, its scene keys and widgets, and the sprites every
// A/B leg starts from.
#include <cstddef>
#include <vector>

#include <gtest/gtest.h>

#include "engine/memory/allocator_kind.hpp"
#include "game/window/sdl/lab_screen.hpp"
#include "game/window/camera.hpp"
#include "game/window/controls.hpp"
#include "game/window/frame_stats.hpp"
#include "common/scene/scene.hpp"

namespace quadpool::game::window::sdl {
namespace {

window::WindowOptions lab_options(std::size_t sprites) {
  window::WindowOptions options;
  options.game.config.field.scene.sprites = sprites;
  options.game.config.field.scene.seed = 7;
  options.lab = true;
  return options;
}

// One frame's ticks at `pace`; returns the frame's sample.
FrameSample tick(LabScreen& lab, const Camera& camera, Pace pace, float speed = 1.0f) {
  FrameSample sample;
  lab.tick({.pace = pace, .speed = speed, .camera = camera, .spawn_at = {}, .ab_running = false},
           sample);
  return sample;
}

TEST(LabScreen, APausedFrameRunsNoTickAStepOneAndARunningFrameItsSpeed) {
  LabScreen lab(lab_options(200), {});
  const Camera camera;
  EXPECT_FALSE(tick(lab, camera, Pace::Paused).ticked);
  EXPECT_EQ(lab.sim().ticks(), 0u);
  EXPECT_TRUE(tick(lab, camera, Pace::Step, 4.0f).ticked);
  EXPECT_EQ(lab.sim().ticks(), 1u);
  tick(lab, camera, Pace::Run, 3.0f);
  EXPECT_EQ(lab.sim().ticks(), 4u);
}

TEST(LabScreen, MinusAtOneSpriteChangesNothingAndSaysWhyPlusDoubles) {
  LabScreen lab(lab_options(1), {});
  const LabScreen::Change minus = lab.apply(Action::HalveSprites, 7);
  EXPECT_FALSE(minus.rebuilt);
  EXPECT_EQ(minus.notice, "-: already at the minimum of 1 sprite");
  EXPECT_EQ(lab.sim().sprites().size(), 1u);
  const LabScreen::Change plus = lab.apply(Action::DoubleSprites, 7);
  EXPECT_TRUE(plus.rebuilt);
  EXPECT_TRUE(plus.notice.empty());
  EXPECT_EQ(lab.sim().sprites().size(), 2u);
  EXPECT_EQ(lab.seed(), 7u);
  EXPECT_FALSE(lab.apply(Action::ToggleTree, 7).rebuilt);  // not the lab's to apply
}

TEST(LabScreen, ResetTakesTheSeedFieldsSeed) {
  LabScreen lab(lab_options(100), {});
  EXPECT_TRUE(lab.apply(Action::Reset, 99).rebuilt);
  EXPECT_EQ(lab.seed(), 99u);
  EXPECT_EQ(lab.sim().sprites().size(), 100u);
}

TEST(LabScreen, TheSceneListAndTreeSettingsWaitWhileAnAbRunMeasures) {
  LabScreen lab(lab_options(100), {});
  OverlayRequests pick;
  pick.scene = scene::SceneKind::Mixed;
  pick.tree_limits = OverlayRequests::TreeLimits{.max_depth = 5, .leaf_capacity = 4};
  EXPECT_FALSE(lab.apply(pick, /*ab_running=*/true).rebuilt);
  EXPECT_EQ(lab.sim().config().scene.kind, scene::SceneKind::Uniform);
  EXPECT_TRUE(lab.apply(pick, /*ab_running=*/false).rebuilt);
  EXPECT_EQ(lab.sim().config().scene.kind, scene::SceneKind::Mixed);
  EXPECT_EQ(lab.sim().config().tree_max_depth, 5);
}

TEST(LabScreen, EveryAbLegStartsFromTheSpritesAsTheRunFoundThemSpawnedOnesIncluded) {
  LabScreen lab(lab_options(100), {});
  Camera camera;
  const ScreenRect area{0, 0, 800, 600};
  lab.frame(camera, area);
  FrameSample spawned;
  lab.tick({.pace = Pace::Step, .speed = 1.0f, .camera = camera, .spawn_at = ScreenPoint{400, 300},
            .ab_running = false},
           spawned);
  const std::size_t count = lab.sim().sprites().size();
  ASSERT_GT(count, 100u);
  const sim::SimulationConfig subject = lab.ab_subject();
  EXPECT_EQ(subject.scene.sprites, count);
  const std::vector<scene::Sprite> start(lab.sim().sprites().begin(), lab.sim().sprites().end());
  for (int i = 0; i < 5; ++i) tick(lab, camera, Pace::Run);
  lab.start_ab_leg(memory::AllocatorKind::NewDelete, camera, area);
  EXPECT_EQ(lab.allocator(), memory::AllocatorKind::NewDelete);
  ASSERT_EQ(lab.sim().sprites().size(), count);
  for (std::size_t i = 0; i < count; ++i) {
    EXPECT_EQ(lab.sim().sprites()[i].x, start[i].x);
    EXPECT_EQ(lab.sim().sprites()[i].y, start[i].y);
  }
  lab.end_ab(memory::AllocatorKind::Pool);
  EXPECT_EQ(lab.allocator(), memory::AllocatorKind::Pool);
  EXPECT_EQ(lab.allocator_switches(), 2u);
}

}  // namespace
}  // namespace quadpool::game::window::sdl
