// Unit tests of the lab mode's logic, which needs no display library: the vertex stream's
// frame-deferred ranges, the camera and the layout, the A/B experiment's legs, the selection and
// query tool, and the frame statistics.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "common/scene/scene.hpp"
#include "engine/core/random.hpp"
#include "engine/memory/allocator_kind.hpp"
#include "engine/spatial/aabb.hpp"
#include "engine/spatial/ray.hpp"
#include "game/sim/simulation.hpp"
#include "game/sim/tick_recorder.hpp"
#include "game/window/ab_experiment.hpp"
#include "game/window/camera.hpp"
#include "game/window/controls.hpp"
#include "game/window/fixed_step.hpp"
#include "game/window/frame_stats.hpp"
#include "game/window/layout.hpp"
#include "game/window/pick.hpp"
#include "game/window/selection.hpp"
#include "game/window/shake.hpp"
#include "game/window/timed_query.hpp"
#include "game/window/vertex_stream.hpp"

namespace quadpool::game::window {
namespace {

// The game's clock: 60 ticks a second of wall time at any frame rate, never more than four a
// frame, and no catching up after a stop.
// Shake: nothing without trauma, never past kMaxPixels, gone half a second after the last knock,
// the same offsets for the same knocks (a replay shakes alike), and nothing when switched off.
TEST(Shake, KnocksMoveTheViewWithinItsReachAndFadeWithinHalfASecond) {
  Shake shake;
  EXPECT_EQ(shake.offset().x, 0.0f);
  EXPECT_EQ(shake.offset().y, 0.0f);
  shake.knock(0.8f);
  shake.knock(0.8f);
  EXPECT_EQ(shake.trauma(), 1.0f) << "trauma saturates";
  Shake again;
  again.knock(1.0f);
  bool moved = false;
  for (int t = 0; t < 30; ++t) {
    const ScreenPoint o = shake.offset();
    EXPECT_LE(std::abs(o.x), Shake::kMaxPixels);
    EXPECT_LE(std::abs(o.y), Shake::kMaxPixels);
    moved = moved || o.x != 0.0f || o.y != 0.0f;
    EXPECT_EQ(o.x, again.offset().x) << "deterministic";
    shake.tick();
    again.tick();
  }
  EXPECT_TRUE(moved);
  EXPECT_EQ(shake.trauma(), 0.0f) << "30 ticks after a full knock";
  EXPECT_EQ(shake.offset().x, 0.0f);

  shake.flash();
  EXPECT_EQ(shake.flash_strength(), 1.0f);
  for (int t = 0; t < 13; ++t) shake.tick();  // twelve ticks, and float rounding
  EXPECT_EQ(shake.flash_strength(), 0.0f);

  Shake off(false);
  off.knock(1.0f);
  EXPECT_EQ(off.offset().x, 0.0f);
  EXPECT_EQ(off.offset().y, 0.0f);
}

TEST(FixedStep, RunsSixtyTicksASecondAtAnyFrameRate) {
  using namespace std::chrono;
  const FixedStep::Clock::time_point start{};
  for (const int fps : {30, 60, 144, 240, 1000}) {
    FixedStep clock;
    std::uint64_t ticks = 0;
    EXPECT_EQ(clock.ticks_at(start), 0) << "the first frame has nothing to measure from";
    for (int frame = 1; frame <= 2 * fps; ++frame) {
      const int now = clock.ticks_at(start + nanoseconds(2'000'000'000LL * frame / (2 * fps)));
      EXPECT_LE(now, FixedStep::kMaxTicksPerFrame);
      ticks += static_cast<std::uint64_t>(now);
    }
    EXPECT_NEAR(static_cast<double>(ticks), 120.0, 1.0) << fps << " FPS";
    EXPECT_EQ(clock.ticks(), ticks);
    EXPECT_EQ(clock.frames_behind(), 0u) << fps << " FPS";
  }
}

TEST(FixedStep, ASlowFrameRunsFourTicksAndTheGameFallsBehindOnce) {
  using namespace std::chrono;
  const FixedStep::Clock::time_point start{};
  FixedStep clock;
  clock.ticks_at(start);
  EXPECT_EQ(clock.ticks_at(start + seconds(1)), FixedStep::kMaxTicksPerFrame);
  EXPECT_TRUE(clock.newly_behind());
  EXPECT_EQ(clock.ticks_at(start + seconds(2)), FixedStep::kMaxTicksPerFrame);
  EXPECT_FALSE(clock.newly_behind()) << "said once, not every frame";
  EXPECT_EQ(clock.frames_behind(), 2u);
  // The dropped time is not owed: a normal frame after it runs one tick.
  EXPECT_EQ(clock.ticks_at(start + seconds(2) + milliseconds(17)), 1);
  EXPECT_TRUE((clock.ticks_at(start + seconds(9)), clock.newly_behind())) << "again after 5 s";
}

TEST(FixedStep, AfterAStopTheTimeAwayIsNotCaughtUp) {
  using namespace std::chrono;
  const FixedStep::Clock::time_point start{};
  FixedStep clock;
  clock.ticks_at(start);
  EXPECT_EQ(clock.ticks_at(start + milliseconds(50)), 3);
  clock.stop();  // paused for a minute
  EXPECT_EQ(clock.ticks_at(start + seconds(60)), 0);
  EXPECT_EQ(clock.ticks_at(start + seconds(60) + milliseconds(17)), 1);
  EXPECT_EQ(clock.frames_behind(), 0u);
}

TEST(FixedStep, AScriptedRunTicksTheSameNumberEveryFrame) {
  FixedStep clock(2);
  const FixedStep::Clock::time_point start{};
  EXPECT_EQ(clock.ticks_at(start), 2);
  EXPECT_EQ(clock.ticks_at(start + std::chrono::seconds(10)), 2);
  EXPECT_EQ(clock.ticks(), 4u);
}

TEST(Camera, CenterOnPutsAWorldPointInTheMiddleOfTheAreaAndKeepsTheZoom) {
  Camera camera;
  const ScreenRect area{100, 50, 800, 600};
  camera.fit(1000.0f, area);
  camera.zoom_at(500, 350, 3.0f);
  const float scale = camera.scale();
  camera.center_on(250.0f, 750.0f, area);
  EXPECT_EQ(camera.scale(), scale);
  const ScreenPoint p = camera.to_screen(250.0f, 750.0f);
  EXPECT_FLOAT_EQ(p.x, 500.0f);
  EXPECT_FLOAT_EQ(p.y, 350.0f);
}

TEST(VertexStream, ARangeFreedInAFrameIsNotReusedWhileThatFrameIsInFlight) {
  // Room for exactly one batch of 100 vertices (plus alignment) at a time.
  VertexStream stream(100);
  for (std::uint64_t frame = 0; frame < 12; ++frame) {
    stream.begin_frame(frame);
    const std::span<Vertex> batch = stream.allocate(100);
    ASSERT_EQ(batch.size(), 100u);
    std::fill(batch.begin(), batch.end(), Vertex{1, 2, 3, 4, 5, 6, 7, 8});
    // Every range of the frames still in flight is distinct from this frame's.
    std::set<std::uint64_t> offsets;
    std::size_t ranges = 0;
    stream.for_each_range([&](const StreamRange& r) {
      offsets.insert(r.offset);
      ++ranges;
      EXPECT_GE(r.frame + VertexStream::kFramesInFlight, frame + 1) << "a completed frame's range";
    });
    EXPECT_EQ(offsets.size(), ranges) << "two ranges in flight share an offset in frame " << frame;
    EXPECT_LE(ranges, VertexStream::kFramesInFlight);
    stream.end_frame();
  }
  // Three frames of 100 vertices are in flight at once, so the one-batch buffer had to grow,
  // and then stopped growing.
  EXPECT_GE(stream.stats().grows, 1u);
  EXPECT_LE(stream.stats().grows, 3u);
}

TEST(VertexStream, StatsAccountForEveryByte) {
  VertexStream stream(10'000);
  for (std::uint64_t frame = 0; frame < 5; ++frame) {
    stream.begin_frame(frame);
    for (std::size_t batch = 1; batch <= 4; ++batch)
      ASSERT_EQ(stream.allocate(batch * 97).size(), batch * 97);
    const VertexStreamStats s = stream.stats();
    EXPECT_EQ(s.batches, 4u);
    EXPECT_GE(s.frame_bytes, (97u + 194u + 291u + 388u) * sizeof(Vertex));
    // Live (this frame) + stale (earlier frames in flight) + free = the whole buffer.
    EXPECT_EQ(s.frame_bytes + s.stale_bytes + s.free_bytes, s.capacity_bytes) << "frame " << frame;
    EXPECT_GE(s.fragmentation(), 0.0);
    EXPECT_LT(s.fragmentation(), 1.0);
    stream.end_frame();
  }
  EXPECT_EQ(stream.stats().grows, 0u);
}

TEST(VertexStream, AnEmptyBatchTakesNoRange) {
  VertexStream stream(64);
  stream.begin_frame(0);
  EXPECT_TRUE(stream.allocate(0).empty());
  EXPECT_EQ(stream.stats().batches, 0u);
  stream.end_frame();
}

// The chase camera near the world's edge: the ship leaves the centre rather than the view
// showing empty space past the wall; a world smaller than the view sits centred in it.
TEST(Camera, CenterWithinNeverShowsPastTheWorldsEdge) {
  const ScreenRect area{390, 0, 890, 720};
  Camera camera;
  camera.fit(1000.0f, area);
  camera.zoom_at(area.x + 445, 360, 4.0f);  // the view is narrower than the world now
  const float scale = camera.scale();
  for (const ScreenPoint ship :
       {ScreenPoint{5, 5}, ScreenPoint{995, 500}, ScreenPoint{500, 999}, ScreenPoint{500, 500}}) {
    camera.center_within(ship.x, ship.y, 1000.0f, area);
    const spatial::Aabb seen = camera.visible_world(area);
    EXPECT_GE(seen.min_x, -1e-3f) << ship.x << "," << ship.y;
    EXPECT_GE(seen.min_y, -1e-3f) << ship.x << "," << ship.y;
    EXPECT_LE(seen.max_x, 1000.0f + 1e-3f) << ship.x << "," << ship.y;
    EXPECT_LE(seen.max_y, 1000.0f + 1e-3f) << ship.x << "," << ship.y;
    EXPECT_EQ(camera.scale(), scale) << "the zoom is kept";
  }
  // Far from the walls the ship is in the centre, as center_on puts it.
  camera.center_within(500, 500, 1000.0f, area);
  const ScreenPoint at = camera.to_screen(500, 500);
  EXPECT_NEAR(at.x, area.x + area.w / 2, 1e-3f);
  EXPECT_NEAR(at.y, area.y + area.h / 2, 1e-3f);
  // A world smaller than the view on both axes: centred whatever the ship's place.
  camera.fit(1000.0f, area);
  camera.zoom_at(area.x + 445, 360, 0.5f);
  camera.center_within(5, 5, 1000.0f, area);
  const ScreenRect world = camera.world_on_screen(1000.0f);
  EXPECT_NEAR(world.x + world.w / 2, area.x + area.w / 2, 1e-2f);
  EXPECT_NEAR(world.y + world.h / 2, area.y + area.h / 2, 1e-2f);
}

TEST(Camera, FitShowsTheWholeWorldCentredInItsArea) {
  Camera camera;
  const ScreenRect area{390, 0, 890, 800};
  camera.fit(1000.0f, area);
  const ScreenRect world = camera.world_on_screen(1000.0f);
  EXPECT_TRUE(area.contains(world));
  EXPECT_NEAR(world.x + world.w / 2, area.x + area.w / 2, 1.0f);  // centred
  EXPECT_NEAR(world.y + world.h / 2, area.y + area.h / 2, 1.0f);
  EXPECT_GT(world.h, 700.0f);  // and not tiny
}

TEST(Layout, ThePanelAndTheWorldNeverOverlapAndCoverTheWindow) {
  for (const auto& [w, h] : std::vector<std::pair<int, int>>{
           {1280, 720}, {1280, 800}, {640, 400}, {320, 240}, {3840, 2160}, {1, 1}, {0, 0}}) {
    for (const bool shown : {true, false}) {
      const Layout layout = layout_for(w, h, shown);
      SCOPED_TRACE(testing::Message() << w << "x" << h << (shown ? " panel" : " no panel"));
      EXPECT_FALSE(layout.panel.overlaps(layout.world));
      EXPECT_TRUE(layout.window.contains(layout.panel));
      EXPECT_TRUE(layout.window.contains(layout.world));
      EXPECT_FLOAT_EQ(layout.panel.w + layout.world.w, layout.window.w);
      EXPECT_GT(layout.world.w, 0.0f);
      EXPECT_EQ(layout.panel.w > 0, shown);
      if (w < 64) continue;  // too small for the fit's margin; the clip still holds the line
      Camera camera;
      camera.fit(500.0f, layout.world);
      EXPECT_FALSE(camera.world_on_screen(500.0f).overlaps(layout.panel));
    }
  }
  EXPECT_FLOAT_EQ(layout_for(1280, 720, true).ui_scale, 1.0f);
  EXPECT_FLOAT_EQ(layout_for(3840, 2160, true).ui_scale, 3.0f);
  EXPECT_FLOAT_EQ(layout_for(1280, 720, true).panel.w, kPanelWidth);
}

TEST(Camera, ZoomKeepsThePointUnderTheCursorInPlace) {
  Camera camera;
  camera.fit(1000.0f, {0, 0, 800, 800});
  const ScreenPoint before = camera.to_world(300, 200);
  camera.zoom_at(300, 200, 2.5f);
  const ScreenPoint after = camera.to_world(300, 200);
  EXPECT_NEAR(after.x, before.x, 1e-3f);
  EXPECT_NEAR(after.y, before.y, 1e-3f);
  camera.zoom_at(300, 200, 1e9f);
  EXPECT_EQ(camera.scale(), Camera::kMaxScale);
}

TEST(Camera, PanMovesTheWorldWithTheMouse) {
  Camera camera;
  camera.fit(1000.0f, {0, 0, 800, 800});
  const ScreenPoint before = camera.to_screen(10, 20);
  camera.pan(15, -5);
  const ScreenPoint after = camera.to_screen(10, 20);
  EXPECT_FLOAT_EQ(after.x - before.x, 15.0f);
  EXPECT_FLOAT_EQ(after.y - before.y, -5.0f);
}

TEST(AbExperiment, LegsAlternateAllocatorsAndTheResultRestoresWhatWasSaved) {
  AbExperiment ab;
  Controls controls;
  controls.paused = true;
  controls.speed = 2.5f;
  sim::SimulationConfig subject;
  subject.scene.sprites = 5000;
  subject.scene.seed = 42;
  subject.scene.kind = scene::SceneKind::Mixed;
  subject.tree_leaf_capacity = 16;
  ab.start(subject, controls, memory::AllocatorKind::NewDelete);
  ASSERT_TRUE(ab.running());
  std::vector<memory::AllocatorKind> legs{ab.leg_allocator()};
  FrameSample sample;
  sample.ticked = true;
  AbExperiment::Next next = AbExperiment::Next::Continue;
  int frames = 0;
  while (next != AbExperiment::Next::Done && frames < 10'000) {
    sample.tick.allocator = ab.leg_allocator();
    sample.tick.ms.total = sample.tick.allocator == memory::AllocatorKind::Pool ? 1.0 : 3.0;
    sample.total = 10.0f;
    next = ab.record(sample);
    ++frames;
    if (next == AbExperiment::Next::NewLeg) legs.push_back(ab.leg_allocator());
    FrameSample idle;  // a frame without a tick does not count
    EXPECT_EQ(ab.record(idle), AbExperiment::Next::Continue);
  }
  EXPECT_EQ(frames, AbExperiment::kLegs * static_cast<int>(AbExperiment::kLegFrames));
  EXPECT_EQ(legs, (std::vector<memory::AllocatorKind>{memory::AllocatorKind::Pool, memory::AllocatorKind::NewDelete,
                                              memory::AllocatorKind::Pool, memory::AllocatorKind::NewDelete}));
  EXPECT_FALSE(ab.running());
  ASSERT_TRUE(ab.result().has_value());
  EXPECT_EQ(ab.result()->sprites, 5000u);
  EXPECT_EQ(ab.result()->seed, 42u);
  EXPECT_EQ(ab.result()->scene, scene::SceneKind::Mixed);
  EXPECT_EQ(ab.result()->tree_leaf_capacity, 16);
  EXPECT_EQ(ab.result()->tree_max_depth, subject.tree_max_depth);
  EXPECT_DOUBLE_EQ(ab.result()->tick_ms[0].median, 1.0);
  EXPECT_DOUBLE_EQ(ab.result()->tick_ms[1].median, 3.0);
  EXPECT_FLOAT_EQ(ab.progress(), 1.0f);
  EXPECT_TRUE(ab.saved_controls().paused);
  EXPECT_FLOAT_EQ(ab.saved_controls().speed, 2.5f);
  EXPECT_EQ(ab.saved_allocator(), memory::AllocatorKind::NewDelete);
}

std::unique_ptr<sim::Simulation> ticked_scene(std::size_t sprites) {
  sim::SimulationConfig config;
  config.scene.sprites = sprites;
  config.scene.seed = 5;
  auto sim = std::make_unique<sim::Simulation>(config);
  for (int i = 0; i < 3; ++i) sim->step();
  return sim;
}

// The simulation moves sprites in memory every few ticks; a pick stays on its sprite.
TEST(Selection, APickFollowsItsSpriteWhenTheSimulationReordersTheSprites) {
  const std::unique_ptr<sim::Simulation> sim = ticked_scene(4000);
  const scene::Sprite& target = sim->sprites()[321];
  Selection selection;
  selection.begin_drag({target.x, target.y});
  selection.end_drag(1.0f);
  selection.update(*sim);
  ASSERT_TRUE(selection.pick().picked_id().has_value());
  const std::uint32_t id = *selection.pick().picked_id();
  const float radius = sim->sprites()[*selection.pick().picked()].radius;
  bool index_changed = false;
  for (std::uint64_t t = 0; t < 2 * sim::kSpriteSortPeriod; ++t) {
    const std::uint32_t index = *selection.pick().picked();
    sim->step();
    selection.update(*sim);
    ASSERT_TRUE(selection.pick().picked().has_value()) << "tick " << t;
    EXPECT_EQ(*selection.pick().picked_id(), id);
    EXPECT_EQ(sim->ids()[*selection.pick().picked()], id);
    EXPECT_EQ(sim->sprites()[*selection.pick().picked()].radius, radius);
    index_changed |= *selection.pick().picked() != index;
  }
  EXPECT_TRUE(index_changed) << "the sort should have moved the sprite at least once";
}

TEST(Selection, ABoxQueryFindsWhatABruteForceScanFindsAndTimesBoth) {
  const std::unique_ptr<sim::Simulation> owner = ticked_scene(5000);
  const sim::Simulation& sim = *owner;
  Selection selection;
  const float side = sim.world_side();
  selection.begin_drag({0.2f * side, 0.3f * side});
  selection.drag_to({0.6f * side, 0.5f * side});
  selection.end_drag(1.0f);
  selection.update(sim);
  ASSERT_TRUE(selection.stats().has_value());
  const QueryStats& q = *selection.stats();
  std::set<std::uint32_t> expected;
  const std::span<const spatial::Aabb> boxes = sim.last_boxes();
  for (std::uint32_t i = 0; i < boxes.size(); ++i) {
    if (spatial::overlaps(boxes[i], *selection.region())) expected.insert(i);
  }
  EXPECT_GT(expected.size(), 100u);
  EXPECT_EQ(q.hits, expected.size());
  EXPECT_EQ(q.brute_hits, expected.size());
  EXPECT_TRUE(q.agree);
  EXPECT_EQ(q.mode, QueryMode::Box);
  EXPECT_EQ(std::set<std::uint32_t>(selection.ids().begin(), selection.ids().end()), expected);
  EXPECT_GE(q.tree_us, 0.0);
  EXPECT_GE(q.brute_us, 0.0);
  EXPECT_FALSE(selection.pick().picking());
}

TEST(Selection, AClickPicksTheSpriteUnderItAndItsLeafAndAClickOnEmptySpaceClears) {
  const std::unique_ptr<sim::Simulation> owner = ticked_scene(2000);
  const sim::Simulation& sim = *owner;
  const scene::Sprite& target = sim.sprites()[123];
  Selection selection;
  selection.begin_drag({target.x, target.y});
  selection.end_drag(1.0f);  // no motion: a click
  EXPECT_FALSE(selection.region().has_value());
  selection.update(sim);
  ASSERT_TRUE(selection.pick().picked().has_value());
  const scene::Sprite& picked = sim.sprites()[*selection.pick().picked()];
  EXPECT_LE(std::hypot(picked.x - target.x, picked.y - target.y), picked.radius);
  ASSERT_EQ(selection.ids().size(), 1u);
  // The leaf holds the centre of the picked sprite's box, and no deeper node does.
  ASSERT_TRUE(selection.pick().leaf().has_value());
  const spatial::Aabb leaf = *selection.pick().leaf();
  const spatial::Aabb& box = sim.last_boxes()[*selection.pick().picked()];
  const float cx = 0.5f * (box.min_x + box.max_x), cy = 0.5f * (box.min_y + box.max_y);
  EXPECT_TRUE(cx >= leaf.min_x && cx <= leaf.max_x && cy >= leaf.min_y && cy <= leaf.max_y);
  EXPECT_LT(leaf.max_x - leaf.min_x, sim.world_side());

  // Outside the world there is no sprite: the pick and everything else are cleared.
  selection.begin_drag({-50.0f, -50.0f});
  selection.end_drag(1.0f);
  selection.update(sim);
  EXPECT_FALSE(selection.pick().picking());
  EXPECT_TRUE(selection.ids().empty());
  EXPECT_FALSE(selection.pick().leaf().has_value());
}

// The sprite a scan of every sprite picks at `at`: the least gap to a circle within `reach`
// (0 inside it), then the nearest centre, then the smaller index. The circles are those the
// tick's tree was built from, one in each of the tick's boxes.
std::optional<std::uint32_t> brute_force_pick(const sim::Simulation& sim, ScreenPoint at,
                                              float reach, float& best_gap) {
  std::optional<std::uint32_t> expected;
  best_gap = std::numeric_limits<float>::infinity();
  float best_d2 = best_gap;
  const std::span<const spatial::Aabb> boxes = sim.last_boxes();
  for (std::uint32_t id = 0; id < boxes.size(); ++id) {
    float d2 = 0.0f;
    const float gap = Pick::gap(boxes[id], at, d2);
    if (gap <= reach && (gap < best_gap || (gap == best_gap && d2 < best_d2))) {
      best_gap = gap;
      best_d2 = d2;
      expected = id;
    }
  }
  return expected;
}

TEST(Selection, AClickPicksTheNearestSpriteWithinAFewPixelsAsABruteForceScanDoes) {
  // Points all over the world and around it: the pick (QuadTree::nearest, then the circles)
  // reaches kPickPixels screen pixels past a sprite's edge and picks what a scan of every
  // sprite picks. At 0.25 and 2 world units a pixel a click reaches a few sprites; at 16 it
  // reaches dozens, more than Pick::kCandidates, so the pick asks the tree again for more.
  const std::unique_ptr<sim::Simulation> owner = ticked_scene(3000);
  const sim::Simulation& sim = *owner;
  const std::uint64_t seed = 20240611;
  std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
  Random random(seed);
  for (const float world_per_pixel : {0.25f, 2.0f, 16.0f}) {
    const float reach = Selection::kPickPixels * world_per_pixel;
    int picked = 0, near_miss = 0;
    for (int i = 0; i < 2000; ++i) {
      const ScreenPoint at{random.uniform(-20.0f, sim.world_side() + 20.0f),
                           random.uniform(-20.0f, sim.world_side() + 20.0f)};
      float best_gap = 0.0f;
      const std::optional<std::uint32_t> expected = brute_force_pick(sim, at, reach, best_gap);
      Selection selection;
      selection.begin_drag(at);
      selection.end_drag(world_per_pixel);
      selection.update(sim);
      ASSERT_EQ(selection.pick().picked(), expected)
          << "seed " << seed << ", " << world_per_pixel << " units a pixel, point " << i;
      EXPECT_EQ(selection.pick().picking(), expected.has_value());
      picked += expected ? 1 : 0;
      near_miss += expected && best_gap > 0.0f ? 1 : 0;
    }
    // Both outcomes happen (a click on empty space picks nothing), and some picks are of a
    // sprite the click missed by a few pixels.
    EXPECT_GT(picked, 100) << world_per_pixel;
    EXPECT_GT(near_miss, 20) << world_per_pixel;
    if (world_per_pixel < 16.0f) {
      EXPECT_LT(picked, 1900) << world_per_pixel;
    }
  }
}

std::unique_ptr<sim::Simulation> ticked_scene_of(scene::SceneKind kind, std::size_t sprites,
                                                 std::uint64_t seed) {
  sim::SimulationConfig config;
  config.scene.kind = kind;
  config.scene.sprites = sprites;
  config.scene.seed = seed;
  auto sim = std::make_unique<sim::Simulation>(config);
  for (int i = 0; i < 3; ++i) sim->step();
  return sim;
}

// Calls f(sim, kind, random) on each game scene of 3,000 sprites made from `seed` (printed,
// so that a failure can be replayed), with one random stream for the whole test.
template <class F>
void on_each_scene(std::uint64_t seed, F&& f) {
  std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
  Random random(seed);
  for (const scene::SceneKind kind : scene::kSceneKinds) {
    const std::unique_ptr<sim::Simulation> sim = ticked_scene_of(kind, 3000, seed);
    f(*sim, kind, random);
  }
}

// Runs one drag of `mode` from `from` to `to` on `sim`.
Selection dragged(const sim::Simulation& sim, QueryMode mode, ScreenPoint from, ScreenPoint to) {
  Selection selection;
  selection.set_mode(mode);
  selection.begin_drag(from);
  selection.drag_to(to);
  selection.end_drag(0.01f);  // a tiny click distance: every test drag stays a query
  selection.update(sim);
  return selection;
}

// The ray mode against a scan written here: every box the segment enters, by the engine's one
// slab test, the least t and then the smaller index, on random segments of every length over
// each scene (from inside and outside the world).
TEST(Selection, TheRayModeFindsTheFirstSpriteAlongTheDragAsAScanOfEveryBoxDoes) {
  const std::uint64_t seed = 20261128;
  on_each_scene(seed, [&](const sim::Simulation& sim, scene::SceneKind kind, Random& random) {
    const float side = sim.world_side();
    const std::span<const spatial::Aabb> boxes = sim.last_boxes();
    int hits = 0;
    for (int i = 0; i < 300; ++i) {
      const ScreenPoint from{random.uniform(-30.0f, side + 30.0f),
                             random.uniform(-30.0f, side + 30.0f)};
      const float length = i % 3 == 0 ? 10.0f : i % 3 == 1 ? 0.3f * side : 1.5f * side;
      const float angle = random.uniform(0.0f, 6.2831853f);
      const ScreenPoint to{from.x + length * std::cos(angle), from.y + length * std::sin(angle)};
      const spatial::RaySlabs slabs(spatial::Ray{from.x, from.y, to.x - from.x, to.y - from.y, 1});
      std::optional<std::uint32_t> expected;
      float best_t = std::numeric_limits<float>::infinity();
      for (std::uint32_t id = 0; id < boxes.size(); ++id) {
        float t = 0.0f;
        if (slabs.enters(boxes[id], 1.0f, t) && t < best_t) {
          best_t = t;
          expected = id;
        }
      }
      const Selection selection = dragged(sim, QueryMode::Ray, from, to);
      ASSERT_TRUE(selection.stats().has_value());
      const QueryStats& q = *selection.stats();
      const std::string where =
          fmt::format("seed {}, {}, segment {}", seed, scene::scene_name(kind), i);
      EXPECT_EQ(q.mode, QueryMode::Ray);
      ASSERT_EQ(q.hits, expected ? 1u : 0u) << where;
      EXPECT_TRUE(q.agree) << where;
      EXPECT_EQ(q.brute_hits, q.hits) << where;
      EXPECT_FALSE(selection.region().has_value());
      if (expected) {
        ASSERT_EQ(selection.ids().size(), 1u) << where;
        EXPECT_EQ(selection.ids()[0], *expected) << where;
        EXPECT_EQ(q.ray_t, best_t) << where;
        ++hits;
      }
    }
    // Both outcomes: segments that meet a sprite and short ones in empty space or outside.
    EXPECT_GT(hits, 100) << scene::scene_name(kind);
    EXPECT_LT(hits, 300) << scene::scene_name(kind);
  });
}

// The nearest mode against a scan written here: every box's squared distance to the point,
// sorted with the index, the first kNearestCount; at points in and around each scene.
TEST(Selection, TheNearestModeFindsTheNearestSpritesAsAScanOfEveryBoxDoes) {
  const std::uint64_t seed = 20261129;
  on_each_scene(seed, [&](const sim::Simulation& sim, scene::SceneKind kind, Random& random) {
    const float side = sim.world_side();
    const std::span<const spatial::Aabb> boxes = sim.last_boxes();
    std::vector<std::pair<float, std::uint32_t>> by_distance(boxes.size());
    for (int i = 0; i < 200; ++i) {
      const ScreenPoint at{random.uniform(-50.0f, side + 50.0f),
                           random.uniform(-50.0f, side + 50.0f)};
      for (std::uint32_t id = 0; id < boxes.size(); ++id) {
        by_distance[id] = {spatial::squared_distance(boxes[id], at.x, at.y), id};
      }
      std::sort(by_distance.begin(), by_distance.end());
      std::vector<std::uint32_t> expected;
      for (std::size_t k = 0; k < kNearestCount; ++k) expected.push_back(by_distance[k].second);
      // A drag in the nearest mode asks at its end: start it somewhere else.
      const Selection selection = dragged(sim, QueryMode::Nearest, {at.x + 40, at.y - 7}, at);
      ASSERT_TRUE(selection.stats().has_value());
      const QueryStats& q = *selection.stats();
      const std::string where =
          fmt::format("seed {}, {}, point {}", seed, scene::scene_name(kind), i);
      EXPECT_EQ(q.mode, QueryMode::Nearest);
      EXPECT_EQ(q.hits, kNearestCount) << where;
      EXPECT_EQ(q.brute_hits, kNearestCount) << where;
      EXPECT_TRUE(q.agree) << where;
      EXPECT_EQ(std::vector<std::uint32_t>(selection.ids().begin(), selection.ids().end()),
                expected)
          << where;
    }
  });
}

// A short click in the nearest mode is a query at the point, not a pick; in the ray mode it is
// a pick, as in the box mode. Switching the mode forgets the query.
TEST(Selection, AClickInTheNearestModeQueriesAndInTheRayModePicks) {
  const std::unique_ptr<sim::Simulation> owner = ticked_scene(2000);
  const sim::Simulation& sim = *owner;
  const scene::Sprite& target = sim.sprites()[77];
  Selection selection;
  selection.set_mode(QueryMode::Nearest);
  selection.begin_drag({target.x, target.y});
  selection.end_drag(1.0f);
  selection.update(sim);
  ASSERT_TRUE(selection.stats().has_value());
  EXPECT_EQ(selection.stats()->hits, kNearestCount);
  EXPECT_FALSE(selection.pick().picking());

  selection.set_mode(QueryMode::Ray);
  EXPECT_FALSE(selection.shape().has_value());
  selection.begin_drag({target.x, target.y});
  selection.end_drag(1.0f);
  selection.update(sim);
  EXPECT_FALSE(selection.stats().has_value());
  EXPECT_TRUE(selection.pick().picking());
  EXPECT_EQ(next_query_mode(QueryMode::Box), QueryMode::Ray);
  EXPECT_EQ(next_query_mode(QueryMode::Ray), QueryMode::Nearest);
  EXPECT_EQ(next_query_mode(QueryMode::Nearest), QueryMode::Box);
}

TEST(FrameStats, ModesAreCountedApartAndWarmPoolAllocationsAreReported) {
  FrameStats stats;
  for (int i = 0; i < 30; ++i) {
    FrameSample s;
    s.ticked = true;
    s.total = 10.0f + static_cast<float>(i);
    s.tick.ms.total = 1.0;
    s.tick.allocator = i < 20 ? memory::AllocatorKind::Pool : memory::AllocatorKind::NewDelete;
    s.tick.warm = i >= 5;
    s.tick.heap_allocations = (i < 5 || i >= 20) ? 7u : (i == 12 ? 1u : 0u);
    stats.record(s);
  }
  FrameSample paused;  // not ticked: counts as a frame, not as a mode's tick
  paused.total = 5.0f;
  stats.record(paused);

  EXPECT_EQ(stats.frames(), 31u);
  const ModeSummary pool = stats.summary(memory::AllocatorKind::Pool);
  EXPECT_EQ(pool.frames, 20u);
  EXPECT_EQ(pool.warm_ticks, 15u);
  EXPECT_EQ(pool.warm_ticks_with_heap_allocations, 1u);
  EXPECT_EQ(pool.max_warm_tick_heap_allocations, 1u);
  EXPECT_DOUBLE_EQ(pool.tick_ms.median, 1.0);
  const ModeSummary new_delete = stats.summary(memory::AllocatorKind::NewDelete);
  EXPECT_EQ(new_delete.frames, 10u);
  EXPECT_EQ(new_delete.max_warm_tick_heap_allocations, 7u);
  EXPECT_EQ(stats.history_size(), 31u);
  EXPECT_FLOAT_EQ(stats.history(30).total, 5.0f);
}

TEST(Controls, APendingStepIsTakenOnceThenThePauseHolds) {
  Controls controls;
  EXPECT_EQ(take_pace(controls), Pace::Run);
  controls.paused = true;
  EXPECT_EQ(take_pace(controls), Pace::Paused);
  controls.step_once = true;  // the step key: paused, one tick
  EXPECT_EQ(take_pace(controls), Pace::Step);
  EXPECT_FALSE(controls.step_once);
  EXPECT_EQ(take_pace(controls), Pace::Paused);
  controls.paused = false;  // a step while running: one tick, then running again
  controls.step_once = true;
  EXPECT_EQ(take_pace(controls), Pace::Step);
  EXPECT_EQ(take_pace(controls), Pace::Run);
}

TEST(FrameStats, PausedFramesAfterASingleStepKeepThatStepsFigures) {
  FrameStats stats;
  EXPECT_FALSE(stats.last_ticked().has_value());
  FrameSample step;  // what SimRunner::tick_frame makes of the one tick that '.' runs
  step.ticked = true;
  step.tick.ms =
      sim::PhaseTimes{.integrate = 0.1, .rebuild = 0.2, .pairs = 0.3, .resolve = 0.4, .total = 1.0};
  step.tick.heap_allocations = 0u;
  step.tick.warm = true;
  stats.record(step);
  for (int i = 0; i < 3; ++i) {
    FrameSample paused;
    paused.total = 16.0f;
    stats.record(paused);
  }
  ASSERT_TRUE(stats.last_ticked().has_value());
  EXPECT_DOUBLE_EQ(stats.last_ticked()->tick.ms.pairs, 0.3);
  EXPECT_DOUBLE_EQ(stats.last_ticked()->tick.ms.total, 1.0);
  EXPECT_EQ(stats.last_ticked()->tick.heap_allocations, std::optional<std::uint64_t>(0u));
  EXPECT_FALSE(stats.history(stats.history_size() - 1).ticked);
}

TEST(AbExperiment, HeapAllocationsOfTheWarmUpTicksAfterEachLegsRestartDoNotCount) {
  AbExperiment ab;
  ab.start(sim::SimulationConfig{}, Controls{}, memory::AllocatorKind::Pool);
  std::uint64_t frame_in_leg = 0;
  AbExperiment::Next next = AbExperiment::Next::Continue;
  while (next != AbExperiment::Next::Done) {
    FrameSample sample;
    sample.ticked = true;
    sample.total = 1.0f;
    sample.tick.allocator = ab.leg_allocator();
    // As HeapWarmup marks them: the first ticks of a leg grow the buffers and the pool.
    sample.tick.warm = frame_in_leg >= sim::kHeapWarmupTicks;
    const bool pool = sample.tick.allocator == memory::AllocatorKind::Pool;
    sample.tick.heap_allocations = !sample.tick.warm ? 40u : pool ? 0u : 45u;
    next = ab.record(sample);
    frame_in_leg = next == AbExperiment::Next::NewLeg ? 0 : frame_in_leg + 1;
  }
  ASSERT_TRUE(ab.result().has_value());
  EXPECT_EQ(ab.result()->heap_allocations_per_tick[0], std::optional<double>(0.0));
  EXPECT_EQ(ab.result()->heap_allocations_per_tick[1], std::optional<double>(45.0));
}

}  // namespace
}  // namespace quadpool::game::window
