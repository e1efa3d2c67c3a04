// PlayRenderer drawn into an SDL software renderer on a plain surface (no window, no video
// driver): the ship, the shots, the threats, hunters and missiles show where and in the colour
// they should, nothing lands outside the world's rectangle, and a warm frame allocates nothing.
#include <SDL.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <gtest/gtest.h>

#include "common/heap_counter.hpp"
#include "game/window/sdl/play_renderer.hpp"
#include "game/window/camera.hpp"
#include "game/play/bot_pilot.hpp"
#include "game/play/play_world.hpp"
#include "tests/play/play_configs.hpp"

namespace quadpool::game::window::sdl {
namespace {

constexpr int kWidth = 480, kHeight = 360;
constexpr Rgba kBackground{12, 14, 30, 255};

// A software renderer drawing into its own ARGB8888 surface.
class Canvas {
 public:
  Canvas() {
    surface_ = SDL_CreateRGBSurfaceWithFormat(0, kWidth, kHeight, 32, SDL_PIXELFORMAT_ARGB8888);
    if (surface_ == nullptr) ADD_FAILURE() << "SDL_CreateRGBSurfaceWithFormat: " << SDL_GetError();
    renderer_ = surface_ ? SDL_CreateSoftwareRenderer(surface_) : nullptr;
    if (renderer_ == nullptr) ADD_FAILURE() << "SDL_CreateSoftwareRenderer: " << SDL_GetError();
  }
  ~Canvas() {
    if (renderer_ != nullptr) SDL_DestroyRenderer(renderer_);
    if (surface_ != nullptr) SDL_FreeSurface(surface_);
  }
  Canvas(const Canvas&) = delete;
  Canvas& operator=(const Canvas&) = delete;

  SDL_Renderer* renderer() const { return renderer_; }
  void clear() {
    SDL_SetRenderDrawColor(renderer_, kBackground.r, kBackground.g, kBackground.b, 255);
    SDL_RenderClear(renderer_);
  }
  // Clears, draws `world` with `renderer` over all of the canvas, and reads the pixels back.
  std::vector<std::uint32_t> render(PlayRenderer& renderer, const window::Camera& camera,
                                    const play::PlayWorld& world) {
    clear();
    renderer.draw(renderer_, camera, {0, 0, kWidth, kHeight}, world);
    return pixels();
  }
  // The surface's pixels as 0xAARRGGBB, after every queued command ran.
  std::vector<std::uint32_t> pixels() {
    std::vector<std::uint32_t> out(static_cast<std::size_t>(kWidth) * kHeight);
    EXPECT_EQ(
        SDL_RenderReadPixels(renderer_, nullptr, SDL_PIXELFORMAT_ARGB8888, out.data(), kWidth * 4),
        0)
        << SDL_GetError();
    return out;
  }

 private:
  SDL_Surface* surface_ = nullptr;
  SDL_Renderer* renderer_ = nullptr;
};

std::uint32_t argb(Rgba c) {
  return 0xFF000000u | (std::uint32_t{c.r} << 16) | (std::uint32_t{c.g} << 8) | c.b;
}

// Near `c`: the software rasteriser's blend may round an opaque colour by one step.
bool near(std::uint32_t pixel, Rgba c) {
  const auto channel = [](std::uint32_t p, int shift) {
    return static_cast<int>((p >> shift) & 0xFF);
  };
  return std::abs(channel(pixel, 16) - c.r) <= 2 && std::abs(channel(pixel, 8) - c.g) <= 2 &&
         std::abs(channel(pixel, 0) - c.b) <= 2;
}

std::uint32_t at(const std::vector<std::uint32_t>& pixels, int x, int y) {
  return pixels[static_cast<std::size_t>(y) * kWidth + static_cast<std::size_t>(x)];
}

std::uint32_t at(const std::vector<std::uint32_t>& pixels, window::ScreenPoint p) {
  return at(pixels, static_cast<int>(p.x), static_cast<int>(p.y));
}

const window::ScreenRect kWhole{0, 0, static_cast<float>(kWidth), static_cast<float>(kHeight)};

window::Camera fitted(const play::PlayWorld& world, const window::ScreenRect& area) {
  window::Camera camera;
  camera.fit(world.field().world_side(), area);
  return camera;
}

// Steps `world` with the bot until a shot flies and the ship shows (not blinked out, game on),
// at least `min_ticks` ticks; false when that never happens within `max_ticks`.
bool step_until_shots_fly(play::PlayWorld& world, play::BotPilot& bot, int min_ticks,
                          int max_ticks) {
  for (int t = 0; t < max_ticks; ++t) {
    const play::Ship& ship = world.ship();
    if (t >= min_ticks && world.entities().shots.size() > 0 && ship.invulnerable_ticks == 0 &&
        !world.status().game_over) {
      return true;
    }
    world.step(bot.decide(world));
  }
  return false;
}

TEST(PlayRenderer, AnEmptyWorldDrawsOnlyTheShipInItsColourAtItsPlace) {
  Canvas canvas;
  ASSERT_NE(canvas.renderer(), nullptr);
  play::PlayWorld world(play::test::play_config(300, 11));
  ASSERT_EQ(world.entities().live(), 0u);
  const window::Camera camera = fitted(world, kWhole);
  PlayRenderer renderer;
  const std::vector<std::uint32_t> pixels = canvas.render(renderer, camera, world);
  const PlayDrawCounts& counts = renderer.last_counts();
  ASSERT_TRUE(counts.ship) << "invulnerable for " << world.ship().invulnerable_ticks
                           << " ticks: the blink should show the ship now";
  EXPECT_EQ(counts.shots + counts.debris + counts.sparks + counts.explosions, 0u);

  const window::ScreenPoint ship = camera.to_screen(world.ship().position.x, world.ship().position.y);
  EXPECT_TRUE(near(at(pixels, ship), PlayRenderer::kShipColour)) << std::hex << at(pixels, ship);
  // Every drawn pixel belongs to the ship or its shield ring: within its reach of the centre.
  const float reach = 1.7f * std::max(world.tuning().ship.radius * camera.scale(), 5.0f) + 4.0f;
  std::size_t drawn = 0;
  for (int y = 0; y < kHeight; ++y) {
    for (int x = 0; x < kWidth; ++x) {
      if (at(pixels, x, y) == argb(kBackground)) continue;
      ++drawn;
      const float dx = static_cast<float>(x) + 0.5f - ship.x,
                  dy = static_cast<float>(y) + 0.5f - ship.y;
      EXPECT_LE(dx * dx + dy * dy, reach * reach) << "a pixel at " << x << "," << y;
    }
  }
  EXPECT_GT(drawn, 10u);
}

std::size_t pixels_near(const std::vector<std::uint32_t>& pixels, Rgba c) {
  std::size_t n = 0;
  for (const std::uint32_t p : pixels) n += near(p, c) ? 1 : 0;
  return n;
}

TEST(PlayRenderer, TheShipBlinksWhileInvulnerableAndShowsAFlameWhenThrusting) {
  Canvas canvas;
  ASSERT_NE(canvas.renderer(), nullptr);
  play::PlayWorld world(play::test::play_config(300, 11));
  const window::Camera camera = fitted(world, kWhole);
  PlayRenderer renderer;
  // Invulnerable from the start: shown for kBlinkTicks ticks, hidden for as many, and so on.
  const int phase = (world.ship().invulnerable_ticks / PlayRenderer::kBlinkTicks) % 2;
  for (int t = 0; t < PlayRenderer::kBlinkTicks; ++t) world.step({});
  ASSERT_GT(world.ship().invulnerable_ticks, 0);
  std::vector<std::uint32_t> pixels = canvas.render(renderer, camera, world);
  EXPECT_EQ(renderer.last_counts().ship, phase != 0);
  EXPECT_EQ(pixels_near(pixels, PlayRenderer::kShipColour) > 0, phase != 0);
  for (int t = 0; t < PlayRenderer::kBlinkTicks; ++t) world.step({});
  pixels = canvas.render(renderer, camera, world);
  EXPECT_EQ(renderer.last_counts().ship, phase == 0);
  EXPECT_EQ(pixels_near(pixels, PlayRenderer::kShipColour) > 0, phase == 0);

  // On to a tick that shows the ship: the flame only while thrusting.
  while (!world.status().game_over && world.ship().invulnerable_ticks > 0 &&
         (world.ship().invulnerable_ticks / PlayRenderer::kBlinkTicks) % 2 != 0) {
    world.step({});
  }
  pixels = canvas.render(renderer, camera, world);
  EXPECT_EQ(pixels_near(pixels, PlayRenderer::kFlameColour), 0u);
  canvas.clear();
  renderer.draw(canvas.renderer(), camera, kWhole, world, true);
  EXPECT_GT(pixels_near(canvas.pixels(), PlayRenderer::kFlameColour), 0u);
}

TEST(PlayRenderer, TheShipAndTheShotsShowInTheirColoursAfterTheBotPlayed) {
  Canvas canvas;
  ASSERT_NE(canvas.renderer(), nullptr);
  play::PlayWorld world(play::test::play_config(1500, 5));
  play::BotPilot bot(5);
  ASSERT_TRUE(step_until_shots_fly(world, bot, 300, 3000)) << "the bot never fired";
  // The world in the middle half of the canvas: sparks and debris thrown past its walls show.
  window::Camera camera = fitted(world, kWhole);
  camera.zoom_at(kWhole.x + 0.5f * kWhole.w, kWhole.y + 0.5f * kWhole.h, 0.5f);
  PlayRenderer renderer;
  const std::vector<std::uint32_t> pixels = canvas.render(renderer, camera, world);
  const PlayDrawCounts& counts = renderer.last_counts();
  const play::EntityStores& live = world.entities();
  std::printf("after %llu ticks: %zu shots, %zu debris, %zu sparks, %zu explosions live\n",
              static_cast<unsigned long long>(world.ticks()), live.shots.size(), live.debris.size(),
              live.sparks.size(), live.explosions.size());
  // The camera shows the whole world and more: nothing is culled.
  EXPECT_TRUE(counts.ship);
  EXPECT_EQ(counts.shots, live.shots.size());
  EXPECT_EQ(counts.debris, live.debris.size());
  EXPECT_EQ(counts.sparks, live.sparks.size());
  EXPECT_EQ(counts.explosions, live.explosions.size());

  const window::ScreenPoint ship = camera.to_screen(world.ship().position.x, world.ship().position.y);
  EXPECT_TRUE(near(at(pixels, ship), PlayRenderer::kShipColour));
  EXPECT_GT(pixels_near(pixels, PlayRenderer::kShotColour), 0u) << "no pixel in the shots' colour";
}

TEST(PlayRenderer, TheThreatsShowWithTheirRedRimAndEveryOneInViewIsDrawn) {
  Canvas canvas;
  ASSERT_NE(canvas.renderer(), nullptr);
  play::PlayWorld world(play::test::play_config(1500, 5));
  for (int t = 0; t < 2000 && world.entities().threats.size() == 0; ++t) world.step({});
  ASSERT_GT(world.entities().threats.size(), 0u) << "no wave came";
  const window::Camera camera = fitted(world, kWhole);
  PlayRenderer renderer;
  const std::vector<std::uint32_t> pixels = canvas.render(renderer, camera, world);
  EXPECT_EQ(renderer.last_counts().threats, world.entities().threats.size());
  EXPECT_GT(pixels_near(pixels, PlayRenderer::kThreatRim), 0u) << "no pixel in the rim's colour";
  EXPECT_GT(pixels_near(pixels, PlayRenderer::kThreatColour), 0u) << "no threat's body";
}

// Hunters from the first wave and a missile in flight: each hunter in view is a dart in its
// colour, the missile a streak in its own.
TEST(PlayRenderer, HuntersAndMissilesShowInTheirColours) {
  Canvas canvas;
  ASSERT_NE(canvas.renderer(), nullptr);
  play::PlayConfig config = play::test::play_config(1500, 5);
  play::Tuning tuning = play::tuning_for(false);
  tuning.hunters.first_wave = 1;
  tuning.waves.first_breather_ticks = 10;
  config.tuning = tuning;
  play::PlayWorld world(config);
  for (int t = 0; t < 100 && world.entities().hunters.size() == 0; ++t) world.step({});
  ASSERT_GT(world.entities().hunters.size(), 0u) << "no hunter came";
  play::InputCommand launch;
  launch.buttons = play::InputCommand::kMissile;
  world.step(launch);
  ASSERT_EQ(world.entities().missiles.size(), 1u);
  const window::Camera camera = fitted(world, kWhole);
  PlayRenderer renderer;
  const std::vector<std::uint32_t> pixels = canvas.render(renderer, camera, world);
  EXPECT_EQ(renderer.last_counts().hunters, world.entities().hunters.size());
  EXPECT_EQ(renderer.last_counts().missiles, 1u);
  EXPECT_GT(pixels_near(pixels, PlayRenderer::kHunterColour), 0u) << "no hunter's body";
  EXPECT_GT(pixels_near(pixels, PlayRenderer::kMissileColour), 0u) << "no missile";
}

// Zoomed in on the ship, the threats still far away are arrows on the view's edge, one each.
TEST(PlayRenderer, ThreatsOutOfViewAreArrowsOnTheEdgePointingAtThem) {
  Canvas canvas;
  ASSERT_NE(canvas.renderer(), nullptr);
  play::PlayWorld world(play::test::play_config(1500, 5));
  while (world.entities().threats.size() == 0) world.step({});
  window::Camera camera;
  camera.fit(world.field().world_side(), kWhole);
  camera.zoom_at(kWhole.x + 0.5f * kWhole.w, kWhole.y + 0.5f * kWhole.h, 8.0f);
  PlayRenderer renderer;
  const std::vector<std::uint32_t> pixels = canvas.render(renderer, camera, world);
  const PlayDrawCounts& counts = renderer.last_counts();
  ASSERT_EQ(counts.threats, 0u) << "zoomed in on the centre, the new wave is out of view";
  EXPECT_EQ(counts.offscreen_markers, world.entities().threats.size());
  EXPECT_GT(pixels_near(pixels, PlayRenderer::kThreatRim), 0u) << "no arrow in the rim's colour";
}

TEST(PlayRenderer, NothingIsDrawnOutsideTheWorldRectangleAndTheCallersClipComesBack) {
  Canvas canvas;
  ASSERT_NE(canvas.renderer(), nullptr);
  play::PlayWorld world(play::test::play_config(1500, 5));
  play::BotPilot bot(5);
  ASSERT_TRUE(step_until_shots_fly(world, bot, 200, 3000));
  // The world rectangle is a window inside the canvas; the camera shows more than it, zoomed in
  // on the ship, so entities and the shield ring spill past its edges.
  const window::ScreenRect rect{60, 40, 240, 180};
  window::Camera camera = fitted(world, kWhole);
  const window::ScreenPoint ship = camera.to_screen(world.ship().position.x, world.ship().position.y);
  camera.zoom_at(ship.x, ship.y, 3.0f);
  const SDL_Rect caller_clip{1, 2, 300, 200};
  canvas.clear();
  SDL_RenderSetClipRect(canvas.renderer(), &caller_clip);
  PlayRenderer renderer;
  renderer.draw(canvas.renderer(), camera, rect, world);
  SDL_Rect after{};
  SDL_RenderGetClipRect(canvas.renderer(), &after);
  EXPECT_TRUE(SDL_RenderIsClipEnabled(canvas.renderer()));
  EXPECT_EQ(after.x, 1);
  EXPECT_EQ(after.w, 300);
  SDL_RenderSetClipRect(canvas.renderer(), nullptr);
  const std::vector<std::uint32_t> pixels = canvas.pixels();
  std::size_t inside = 0, outside = 0;
  for (int y = 0; y < kHeight; ++y) {
    for (int x = 0; x < kWidth; ++x) {
      if (at(pixels, x, y) == argb(kBackground)) continue;
      const bool in = x >= rect.x && x < rect.x + rect.w && y >= rect.y && y < rect.y + rect.h;
      ++(in ? inside : outside);
    }
  }
  EXPECT_EQ(outside, 0u) << "pixels drawn outside the world rectangle";
  EXPECT_GT(inside, 0u);
  const PlayDrawCounts& counts = renderer.last_counts();
  const std::size_t drawn = counts.shots + counts.debris + counts.sparks + counts.explosions;
  std::printf("zoomed in: %zu of %zu live entities drawn, the rest culled\n", drawn,
              world.entities().live());
  EXPECT_LE(drawn, world.entities().live());
}

TEST(PlayRenderer, AStormSizedWorldDrawsWithoutAllocatingOnceWarm) {
  Canvas canvas;
  ASSERT_NE(canvas.renderer(), nullptr);
  play::PlayConfig config = play::test::play_config(2500, 7);
  config.storm = true;
  play::PlayWorld world(config);
  play::BotPilot bot(7);
  for (int t = 0; t < 100; ++t) world.step(bot.decide(world));
  const window::Camera camera = fitted(world, kWhole);
  PlayRenderer renderer;
  double best_ms = 1e9;
  std::uint64_t warm_allocations = 0;
  for (int frame = 0; frame < 4; ++frame) {
    canvas.clear();
    SDL_RenderFlush(canvas.renderer());
    const std::uint64_t before = heap_allocations();
    const auto start = std::chrono::steady_clock::now();
    renderer.draw(canvas.renderer(), camera, kWhole, world);
    SDL_RenderFlush(canvas.renderer());
    const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - start;
    if (frame > 0) warm_allocations += heap_allocations() - before;
    best_ms = std::min(best_ms, took.count());
  }
  const PlayDrawCounts& counts = renderer.last_counts();
  // Not asserted: a measurement for the log, of this build. SDL's software renderer rasterises
  // inside each SDL_RenderGeometry call, so the time is the vertices and the raster together.
  std::printf(
      "storm, 2500 rocks, 100 ticks: %zu live entities, %zu vertices in %zu calls, "
      "drawn and rasterised at %dx%d in %.2f ms (best of 4)\n",
      world.entities().live(), counts.vertices, counts.draw_calls, kWidth, kHeight, best_ms);
  EXPECT_GE(world.entities().live(), 10'000u);
  EXPECT_LE(counts.draw_calls, 5u);
  EXPECT_EQ(warm_allocations, 0u) << "a warm frame allocated";
}

}  // namespace
}  // namespace quadpool::game::window::sdl
