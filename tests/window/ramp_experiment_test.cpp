// Unit tests of the ramp (game/window/ramp_experiment.*) and of the legs it shares with the A/B
// run (game/window/allocator_legs.*), headless: the steps and their order, the warm-up, the
// alternation of the allocator, the figures per step, a stop and the end.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include <gtest/gtest.h>

#include "common/scene/scene.hpp"
#include "engine/memory/allocator_kind.hpp"
#include "game/window/allocator_legs.hpp"
#include "game/window/controls.hpp"
#include "game/window/frame_stats.hpp"
#include "game/window/ramp_experiment.hpp"

namespace quadpool::game::window {
namespace {

using memory::AllocatorKind;

// A ticked frame on `allocator` whose tick took `tick_ms`.
FrameSample ticked(AllocatorKind allocator, double tick_ms) {
  FrameSample sample;
  sample.ticked = true;
  sample.tick.allocator = allocator;
  sample.tick.ms.total = tick_ms;
  sample.total = static_cast<float>(tick_ms) + 5.0f;
  return sample;
}

TEST(AlternatingLegs, LegsAlternatePoolFirstAndEachAllocatorGetsItsOwnFrames) {
  AlternatingLegs legs;
  legs.start(4, 3);
  std::vector<AllocatorKind> order{legs.leg_allocator()};
  AlternatingLegs::Next next = AlternatingLegs::Next::Continue;
  int frames = 0;
  while (next != AlternatingLegs::Next::Done) {
    const bool pool = legs.leg_allocator() == AllocatorKind::Pool;
    next = legs.record(ticked(legs.leg_allocator(), pool ? 2.0 : 6.0));
    EXPECT_EQ(legs.record(FrameSample{}), AlternatingLegs::Next::Continue);  // no tick
    ++frames;
    if (next == AlternatingLegs::Next::NewLeg) order.push_back(legs.leg_allocator());
  }
  EXPECT_EQ(frames, 12);
  EXPECT_EQ(legs.frames_done(), legs.frames_total());
  EXPECT_EQ(order, (std::vector<AllocatorKind>{AllocatorKind::Pool, AllocatorKind::NewDelete,
                                               AllocatorKind::Pool, AllocatorKind::NewDelete}));
  const LegFigures figures = legs.figures();
  EXPECT_DOUBLE_EQ(figures.tick_ms[0].median, 2.0);
  EXPECT_DOUBLE_EQ(figures.tick_ms[1].median, 6.0);
  EXPECT_DOUBLE_EQ(figures.tick_median_ratio(), 3.0);
  // Past the last leg nothing more is recorded.
  EXPECT_EQ(legs.record(ticked(AllocatorKind::Pool, 100.0)), AlternatingLegs::Next::Continue);
  EXPECT_DOUBLE_EQ(legs.figures().tick_ms[0].median, 2.0);
}

TEST(RampExperiment, StepsClimbAOneTwoFiveLadderFromAHundredthOfTheTop) {
  EXPECT_EQ(RampExperiment::steps_for(1'000'000),
            (std::array<std::size_t, RampExperiment::kSteps>{10'000, 20'000, 50'000, 100'000,
                                                             200'000, 500'000, 1'000'000}));
  EXPECT_EQ(RampExperiment::steps_for(1000),
            (std::array<std::size_t, RampExperiment::kSteps>{10, 20, 50, 100, 200, 500, 1000}));
  // At the smallest top the first step is one sprite, never none.
  EXPECT_EQ(RampExperiment::steps_for(100)[0], 1u);
  EXPECT_EQ(RampExperiment::steps_for(150)[0], 1u);
}

// What the App does, in order: a new field on Grow, the allocator on Switch. Pool ticks take
// 1 ms per thousand sprites, new/delete's 1.5 ms; frames without a tick come in between.
struct Driven {
  std::vector<std::size_t> grown;         // each Grow's sprite count
  std::vector<AllocatorKind> allocators;  // the allocator of every timed frame, in order
  std::uint64_t frames = 0;               // ticked frames recorded
};

Driven drive(RampExperiment& ramp, RampExperiment::Next next, std::uint64_t max_frames) {
  Driven driven;
  std::size_t sprites = 0;
  AllocatorKind allocator = AllocatorKind::NewDelete;  // the user's, before the ramp
  while (ramp.running() && driven.frames < max_frames) {
    if (next == RampExperiment::Next::Grow) {
      sprites = ramp.step_sprites();
      driven.grown.push_back(sprites);
      allocator = ramp.leg_allocator();
    } else if (next == RampExperiment::Next::Switch) {
      allocator = ramp.leg_allocator();
    }
    const double per_thousand = allocator == AllocatorKind::Pool ? 1.0 : 1.5;
    if (!ramp.warming_up()) driven.allocators.push_back(allocator);
    next = ramp.record(ticked(allocator, per_thousand * static_cast<double>(sprites) / 1000.0));
    EXPECT_EQ(ramp.record(FrameSample{}), RampExperiment::Next::Continue);  // no tick, no count
    ++driven.frames;
  }
  return driven;
}

TEST(RampExperiment, EachStepGrowsTheFieldWarmsUpThenAlternatesTheAllocatorAndTheRampEnds) {
  RampExperiment ramp;
  EXPECT_EQ(ramp.state(), RampExperiment::State::None);
  scene::SceneConfig scene;
  scene.kind = scene::SceneKind::Clustered;
  scene.seed = 9;
  scene.sprites = 123;
  Controls controls;
  controls.speed = 3.0f;
  controls.paused = true;
  const RampExperiment::Next first = ramp.start(scene, 1000, controls, AllocatorKind::NewDelete);
  EXPECT_EQ(first, RampExperiment::Next::Grow);
  EXPECT_TRUE(ramp.running());
  EXPECT_EQ(ramp.leg_allocator(), AllocatorKind::Pool);
  EXPECT_TRUE(ramp.warming_up());

  const Driven driven = drive(ramp, first, 100'000);
  EXPECT_EQ(ramp.state(), RampExperiment::State::Done);
  EXPECT_FLOAT_EQ(ramp.progress(), 1.0f);
  constexpr std::uint64_t kStepFrames =
      RampExperiment::kWarmupFrames + RampExperiment::kLegs * RampExperiment::kLegFrames;
  EXPECT_EQ(driven.frames, RampExperiment::kSteps * kStepFrames);
  EXPECT_EQ(driven.grown, (std::vector<std::size_t>{10, 20, 50, 100, 200, 500, 1000}));
  // Every step's timed frames: kLegFrames on pool, then new/delete, pool, new/delete.
  ASSERT_EQ(driven.allocators.size(),
            RampExperiment::kSteps * RampExperiment::kLegs * RampExperiment::kLegFrames);
  for (std::size_t i = 0; i < driven.allocators.size(); ++i) {
    const std::size_t leg = i / RampExperiment::kLegFrames % RampExperiment::kLegs;
    EXPECT_EQ(driven.allocators[i], leg % 2 == 0 ? AllocatorKind::Pool : AllocatorKind::NewDelete)
        << "frame " << i;
  }
  ASSERT_EQ(ramp.results().size(), static_cast<std::size_t>(RampExperiment::kSteps));
  for (const RampStep& step : ramp.results()) {
    // The recorder keeps its samples as floats.
    const double pool = static_cast<double>(step.sprites) / 1000.0;
    EXPECT_NEAR(step.figures.tick_ms[0].median, pool, 1e-6 * pool) << step.sprites;
    EXPECT_NEAR(step.figures.tick_ms[1].median, 1.5 * pool, 1e-6 * pool) << step.sprites;
    EXPECT_NEAR(step.figures.tick_median_ratio(), 1.5, 1e-6) << step.sprites;
  }
  // The end hands back what was there before: the controls, the allocator, the scene's kind
  // and seed it ran on.
  EXPECT_EQ(ramp.top(), 1000u);
  EXPECT_EQ(ramp.scene().kind, scene::SceneKind::Clustered);
  EXPECT_EQ(ramp.scene().seed, 9u);
  EXPECT_FLOAT_EQ(ramp.saved_controls().speed, 3.0f);
  EXPECT_TRUE(ramp.saved_controls().paused);
  EXPECT_EQ(ramp.saved_allocator(), AllocatorKind::NewDelete);
  // Done, it records nothing more.
  EXPECT_EQ(ramp.record(ticked(AllocatorKind::Pool, 1.0)), RampExperiment::Next::Continue);
}

TEST(RampExperiment, WarmUpFramesAreNotTimed) {
  RampExperiment ramp;
  ramp.start(scene::SceneConfig{}, 100'000, Controls{}, AllocatorKind::Pool);
  // A slow first tick of a new field must not reach the step's figures.
  for (std::uint64_t i = 0; i < RampExperiment::kWarmupFrames; ++i) {
    EXPECT_TRUE(ramp.warming_up());
    ramp.record(ticked(AllocatorKind::Pool, 1000.0));
  }
  EXPECT_FALSE(ramp.warming_up());
  RampExperiment::Next next = RampExperiment::Next::Continue;
  while (next != RampExperiment::Next::Grow) {
    next = ramp.record(ticked(ramp.leg_allocator(), 1.0));
  }
  ASSERT_EQ(ramp.results().size(), 1u);
  EXPECT_DOUBLE_EQ(ramp.results()[0].figures.tick_ms[0].p99, 1.0);
  EXPECT_EQ(ramp.step(), 1);
  EXPECT_EQ(ramp.step_sprites(), 2000u);
}

TEST(RampExperiment, AStopKeepsTheStepsDoneAndAStartBeginsAfresh) {
  RampExperiment ramp;
  const RampExperiment::Next first =
      ramp.start(scene::SceneConfig{}, 1000, Controls{}, AllocatorKind::Pool);
  constexpr std::uint64_t kStepFrames =
      RampExperiment::kWarmupFrames + RampExperiment::kLegs * RampExperiment::kLegFrames;
  drive(ramp, first, 2 * kStepFrames + 3);  // two steps and into the third
  ASSERT_TRUE(ramp.running());
  EXPECT_EQ(ramp.step(), 2);
  EXPECT_GT(ramp.progress(), 0.28f);
  EXPECT_LT(ramp.progress(), 0.30f);
  ramp.stop();
  EXPECT_EQ(ramp.state(), RampExperiment::State::Stopped);
  EXPECT_FALSE(ramp.running());
  EXPECT_EQ(ramp.results().size(), 2u);
  EXPECT_EQ(ramp.record(ticked(AllocatorKind::Pool, 1.0)), RampExperiment::Next::Continue);

  EXPECT_EQ(ramp.start(scene::SceneConfig{}, 500, Controls{}, AllocatorKind::Pool),
            RampExperiment::Next::Grow);
  EXPECT_TRUE(ramp.results().empty());
  EXPECT_EQ(ramp.step(), 0);
  EXPECT_EQ(ramp.step_sprites(), 5u);
}

}  // namespace
}  // namespace quadpool::game::window
