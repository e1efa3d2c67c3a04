// The play HUD and the pools table run in a headless Dear ImGui frame (a context, a built font
// atlas, no backend): the GAME OVER and PAUSED screens appear when they should, and the pools
// table fits a panel 360 px wide with storm-sized numbers in every cell.
#include <imgui.h>
#include <imgui_internal.h>  // ImGuiWindow, ImGuiTable: where the content reached

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <optional>

#include <gtest/gtest.h>

#include "game/window/sdl/play_hud.hpp"
#include "game/play/input_command.hpp"
#include "game/play/play_world.hpp"
#include "tests/play/play_configs.hpp"

namespace quadpool::game::window::sdl {
namespace {

// One ImGui context for a test, with its font atlas built so that NewFrame works.
class HeadlessImGui {
 public:
  HeadlessImGui() {
    context_ = ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(1280.0f, 720.0f);
    io.DeltaTime = 1.0f / 60.0f;
    unsigned char* pixels = nullptr;
    int width = 0, height = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &width, &height);
  }
  ~HeadlessImGui() { ImGui::DestroyContext(context_); }
  HeadlessImGui(const HeadlessImGui&) = delete;
  HeadlessImGui& operator=(const HeadlessImGui&) = delete;

  template <class Draw>
  void frame(Draw&& draw) {
    ImGui::NewFrame();
    draw();
    ImGui::Render();
  }

 private:
  ImGuiContext* context_;
};

// True when the window `name` was begun in the last frame and drew something.
bool shown(const char* name) {
  const ImGuiWindow* window = ImGui::FindWindowByName(name);
  return window != nullptr && window->Active && window->DrawList->VtxBuffer.Size > 0;
}

const window::ScreenRect kWorldRect{390, 0, 890, 720};

// Flies ahead, weaving, with the guns silent until the threats take the one life.
void lose_the_game(play::PlayWorld& world) {
  play::InputCommand thrust;
  thrust.buttons = play::InputCommand::kThrust;
  for (int t = 0; t < 50'000 && !world.status().game_over; ++t) {
    thrust.steer = static_cast<std::int8_t>((t / 90) % 3 - 1);  // weave
    world.step(thrust);
  }
}

TEST(PlayHud, TheGameOverScreenShowsOnlyWhenTheGameIsOver) {
  play::PlayConfig config = play::test::play_config(6000, 3);
  config.lives = 1;
  play::PlayWorld world(config);
  HeadlessImGui imgui;
  PlayHudView view{&world, 0, "", false, false, false, false, ""};
  imgui.frame([&] { draw_play_hud(view, kWorldRect); });
  EXPECT_TRUE(shown(kScoreWindow));
  EXPECT_FALSE(shown(kGameOverWindow));
  EXPECT_FALSE(shown(kPausedWindow));

  EXPECT_EQ(shown_shield(world), 1.0f);
  lose_the_game(world);
  ASSERT_TRUE(world.status().game_over) << "the ship survived " << world.ticks() << " ticks";
  EXPECT_EQ(shown_shield(world), 0.0f) << "the GAME OVER screen shows an empty shield";
  std::printf("game over after %llu ticks, score %llu\n",
              static_cast<unsigned long long>(world.ticks()),
              static_cast<unsigned long long>(world.status().score));
  view.notice = "high score not saved: /nowhere/high_score: Permission denied";
  // An auto-sized window measures itself in its first frame and shows from the second.
  imgui.frame([&] { draw_play_hud(view, kWorldRect); });
  imgui.frame([&] { draw_play_hud(view, kWorldRect); });
  EXPECT_TRUE(shown(kGameOverWindow));
  EXPECT_FALSE(shown(kPausedWindow)) << "game over takes the centre, not the pause";
  // Centred in the world's rectangle.
  const ImGuiWindow* over = ImGui::FindWindowByName(kGameOverWindow);
  const float centre_x = over->Pos.x + over->Size.x * 0.5f;
  EXPECT_NEAR(centre_x, kWorldRect.x + kWorldRect.w * 0.5f, 1.0f);
}

// Before the player's first wave, the title card with the play keys; before every later wave
// (and before the first when a pilot flies), the WAVE n banner; neither once the threats come.
TEST(PlayHud, TheTitleCardThenTheWaveBannersShowBetweenWaves) {
  play::PlayWorld world(play::test::play_config(800, 3));
  HeadlessImGui imgui;
  PlayHudView view{&world, 0, "", false, false, false, false, ""};
  const auto frames = [&] {
    imgui.frame([&] { draw_play_hud(view, kWorldRect); });
    imgui.frame([&] { draw_play_hud(view, kWorldRect); });
  };
  frames();
  EXPECT_TRUE(shown(kTitleWindow));
  EXPECT_FALSE(shown(kWaveWindow));
  // The title card fits the world's rectangle.
  const ImGuiWindow* title = ImGui::FindWindowByName(kTitleWindow);
  EXPECT_LE(title->Size.x, kWorldRect.w);
  EXPECT_LE(title->Size.y, kWorldRect.h);
  view.bot_flying = true;
  frames();
  EXPECT_FALSE(shown(kTitleWindow)) << "the bot needs no title card";
  EXPECT_TRUE(shown(kWaveWindow));
  view.bot_flying = false;
  while (world.status().breather_ticks > 0) world.step({});
  frames();
  EXPECT_FALSE(shown(kTitleWindow));
  EXPECT_FALSE(shown(kWaveWindow)) << "the threats are coming: no banner over them";
}

// A replay played to its end says whether it ended on the file's hash, and how to watch again.
TEST(PlayHud, AFinishedReplayShowsItsVerdictScreen) {
  play::PlayWorld world(play::test::play_config(500, 3));
  HeadlessImGui imgui;
  PlayHudView view{&world, 0, "", false, false, false, true, ""};
  imgui.frame([&] { draw_play_hud(view, kWorldRect); });
  imgui.frame([&] { draw_play_hud(view, kWorldRect); });
  EXPECT_FALSE(shown(kReplayOverWindow)) << "the replay is still playing";
  for (const bool matches : {true, false}) {
    view.replay_matches = matches;
    imgui.frame([&] { draw_play_hud(view, kWorldRect); });
    imgui.frame([&] { draw_play_hud(view, kWorldRect); });
    EXPECT_TRUE(shown(kReplayOverWindow)) << matches;
    EXPECT_FALSE(shown(kGameOverWindow));
  }
}

TEST(PlayHud, ThePausedScreenShowsWhilePausedInAGame) {
  play::PlayWorld world(play::test::play_config(500, 3));
  HeadlessImGui imgui;
  PlayHudView view{&world, 1234, "", true, true, true, false, "Test Pad"};
  imgui.frame([&] { draw_play_hud(view, kWorldRect); });
  imgui.frame([&] { draw_play_hud(view, kWorldRect); });
  EXPECT_TRUE(shown(kPausedWindow));
  EXPECT_FALSE(shown(kGameOverWindow));
  // Off the ship, which the chase camera keeps in the world's centre.
  const ImGuiWindow* paused = ImGui::FindWindowByName(kPausedWindow);
  const float centre_y = kWorldRect.y + kWorldRect.h * 0.5f;
  EXPECT_LT(paused->Pos.y + paused->Size.y, centre_y - 20.0f) << "PAUSED covers the ship";
  // The HUD never takes the pilot's mouse.
  EXPECT_FALSE(ImGui::GetIO().WantCaptureMouse);
  view.paused = false;
  imgui.frame([&] { draw_play_hud(view, kWorldRect); });
  EXPECT_FALSE(shown(kPausedWindow));
}

// Bot and replay scores are never saved: while they fly, HIGH is the saved score, not theirs.
TEST(PlayHud, HighIsTheSavedScoreUnlessThePlayerFliesPastIt) {
  EXPECT_EQ(shown_high_score(4000, 5000, true), 5000u);
  EXPECT_EQ(shown_high_score(4000, 3000, true), 4000u);
  EXPECT_EQ(shown_high_score(4000, 575790, false), 4000u);
  EXPECT_EQ(shown_high_score(0, 120, false), 0u);
}

TEST(PlayHud, ShortCountsKeepFiveCharactersAndNeverRoundUp) {
  EXPECT_EQ(short_count(0), "0");
  EXPECT_EQ(short_count(99'999), "99999");
  EXPECT_EQ(short_count(100'000), "100k");
  EXPECT_EQ(short_count(131'072), "131k");
  EXPECT_EQ(short_count(9'999'999), "9999k");
  EXPECT_EQ(short_count(10'000'000), "10M");
  EXPECT_EQ(short_count(9'999'999'999), "9999M");
  EXPECT_EQ(short_count(UINT64_MAX), "18446744073G");
}

// Storm-sized numbers: the widest each column can show.
std::array<play::EntityReport, play::kEntityTypes> widest_reports() {
  std::array<play::EntityReport, play::kEntityTypes> reports{};
  for (std::size_t i = 0; i < reports.size(); ++i) {
    play::EntityReport& r = reports[i];
    r.type = static_cast<play::EntityType>(i);
    r.counts.created_tick = 99'998;
    r.counts.destroyed_tick = 88'888;
    r.pool.blocks_in_use = 99'999;
    r.pool.capacity = 9'999'999;
    r.pool.high_water = 9'999'999;
    r.pool.chunks = 99'999;
  }
  return reports;
}

TEST(PlayHud, ThePoolsTableFitsAPanel360PixelsWideWithoutHorizontalOverflow) {
  HeadlessImGui imgui;
  const auto reports = widest_reports();
  memory::PoolStats tree{};
  tree.blocks_in_use = 99'999;
  tree.capacity = tree.high_water = 9'999'999;
  tree.chunks = 99'999;
  float overflow = 0.0f, worst_cell = 0.0f, table_right = 0.0f, work_right = 0.0f, needs = 0.0f;
  float name_width = 0.0f, longest_name = 0.0f;
  // Fixed-fit columns size themselves from the frame before: several frames let them settle.
  for (int frame = 0; frame < 4; ++frame) {
    imgui.frame([&] {
      ImGui::SetNextWindowPos(ImVec2(0, 0), ImGuiCond_Always);
      ImGui::SetNextWindowSize(ImVec2(360, 500), ImGuiCond_Always);
      ImGui::Begin("panel", nullptr, ImGuiWindowFlags_NoSavedSettings);
      ImGui::PushTextWrapPos(0.0f);  // as the overlay's panel does: text wraps at its edge
      draw_entity_pools(reports, tree, std::optional<std::uint64_t>(123'456));
      ImGui::PopTextWrapPos();
      const ImGuiWindow* window = ImGui::GetCurrentWindow();
      work_right = window->WorkRect.Max.x;
      overflow = window->DC.CursorMaxPos.x - work_right;
      const ImGuiTable* table = ImGui::TableFindByID(ImGui::GetID("entity pools"));
      EXPECT_NE(table, nullptr);
      worst_cell = -1e9f;
      for (int c = 0; table != nullptr && c < table->ColumnsCount; ++c) {
        const ImGuiTableColumn& column = table->Columns[c];
        // How far a cell's content (or its header's full text) reached past the column's
        // content area: > 0 means the table clipped it.
        worst_cell = std::max({worst_cell, column.ContentMaxXUnfrozen - column.WorkMaxX,
                               column.ContentMaxXHeadersIdeal - column.WorkMaxX});
      }
      if (table != nullptr) {
        const ImGuiTableColumn& names = table->Columns[0];
        name_width = names.ContentMaxXUnfrozen - names.WorkMinX;
        table_right = table->OuterRect.Max.x;
        needs = table->ColumnsAutoFitWidth;
      }
      ImGui::End();
    });
  }
  std::printf("pools table at 360 px: its columns need %.1f px, the content area is %.1f px\n",
              needs, work_right - ImGui::GetStyle().WindowPadding.x);
  EXPECT_LE(overflow, 0.0f) << "the panel's content reached past its right edge";
  EXPECT_LE(table_right, work_right + 0.5f);
  EXPECT_LE(worst_cell, 0.5f) << "a cell was clipped by its column";
  imgui.frame([&] { longest_name = ImGui::CalcTextSize("explosions").x; });
  EXPECT_GE(name_width, longest_name - 0.5f) << "a pool's name wrapped inside its cell";
}

TEST(PlayHud, TheHeapLineSaysNotApplicableWhenAllocationsAreNotCounted) {
  EXPECT_EQ(heap_allocations_line(std::nullopt), "heap allocations, last tick: n/a (not counted)");
  EXPECT_EQ(heap_allocations_line(0), "heap allocations, last tick: 0");
  EXPECT_EQ(heap_allocations_line(123'456), "heap allocations, last tick: 123456");
}

}  // namespace
}  // namespace quadpool::game::window::sdl
