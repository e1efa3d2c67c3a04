#include "game/window/sdl/play_hud.hpp"

#include <imgui.h>

#include <algorithm>
#include <array>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <string_view>

#include "game/window/sdl/key_map.hpp"
#include "game/window/sdl/play_renderer.hpp"
#include "game/window/sdl/sprite_renderer.hpp"
#include "game/play/ship.hpp"

namespace quadpool::game::window::sdl {

namespace {

constexpr ImU32 kHudText = IM_COL32(235, 240, 255, 255);
constexpr ImU32 kNoticeText = IM_COL32(255, 190, 90, 255);
constexpr ImU32 kGameOverText = IM_COL32(255, 110, 90, 255);
constexpr ImU32 kTagText = IM_COL32(150, 215, 255, 255);  // "bot flying", "muted", the pad
constexpr ImU32 kBannerText = IM_COL32(255, 150, 80, 255);  // WAVE n

// The HUD's ship icons and shield bar take the colours the world draws the ship and shield in.
constexpr ImU32 im_colour(Rgba c) {
  return IM_COL32(c.r, c.g, c.b, c.a);
}
constexpr ImU32 kLifeIcon = im_colour(PlayRenderer::kShipColour);
constexpr ImU32 kShieldBar = im_colour(PlayRenderer::kShieldColour);
constexpr ImU32 kThreatText = im_colour(PlayRenderer::kThreatRim);
constexpr ImU32 kStormText = im_colour(PlayRenderer::kPickupColour);
constexpr ImU32 kMissileText = im_colour(PlayRenderer::kMissileColour);

// HUD windows draw over the world and never take the mouse or keys: those are the pilot's.
constexpr ImGuiWindowFlags kHudFlags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoInputs |
                                       ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                                       ImGuiWindowFlags_NoFocusOnAppearing |
                                       ImGuiWindowFlags_NoNav | ImGuiWindowFlags_AlwaysAutoResize;

// The key the key map binds to pause, as the help panel names it.
const char* pause_key() noexcept {
  for (const KeyBinding& binding : key_bindings()) {
    if (binding.action == Action::TogglePause) return binding.input;
  }
  return "the pause key";
}

// Lives as small ships in a row, one text line high.
void draw_lives(int lives) {
  const float h = ImGui::GetTextLineHeight();
  const ImVec2 at = ImGui::GetCursorScreenPos();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  for (int i = 0; i < lives; ++i) {
    const float x = at.x + static_cast<float>(i) * h * 0.9f;
    draw->AddTriangleFilled(ImVec2(x + h * 0.35f, at.y + h * 0.1f),
                            ImVec2(x + h * 0.7f, at.y + h * 0.9f), ImVec2(x, at.y + h * 0.9f),
                            kLifeIcon);
  }
  ImGui::Dummy(ImVec2(std::max(lives, 0) * h * 0.9f, h));
}

// `text` centred on the current line of the window.
void centred(const char* text, ImU32 colour) {
  const float width = ImGui::CalcTextSize(text).x;
  const float avail = ImGui::GetContentRegionAvail().x;
  ImGui::SetCursorPosX(ImGui::GetCursorPosX() + std::max(0.0f, (avail - width) * 0.5f));
  ImGui::PushStyleColor(ImGuiCol_Text, colour);
  ImGui::TextUnformatted(text);
  ImGui::PopStyleColor();
}

// A window centred in `world_rect`, filled by `body`; it takes no input.
template <class Body>
void centred_screen(const char* name, const window::ScreenRect& world_rect, float height_share,
                    Body&& body) {
  ImGui::SetNextWindowPos(
      ImVec2(world_rect.x + world_rect.w * 0.5f, world_rect.y + world_rect.h * height_share),
      ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowBgAlpha(0.75f);
  if (ImGui::Begin(name, nullptr, kHudFlags)) body();
  ImGui::End();
}

void draw_score_line(const PlayHudView& view, const window::ScreenRect& world_rect) {
  const play::GameStatus& status = view.world->status();
  const float pad = ImGui::GetStyle().WindowPadding.x;
  ImGui::SetNextWindowPos(ImVec2(world_rect.x + pad, world_rect.y + pad), ImGuiCond_Always);
  // Dark enough behind the text to read it over the brightest rocks.
  ImGui::SetNextWindowBgAlpha(0.65f);
  if (ImGui::Begin(kScoreWindow, nullptr, kHudFlags)) {
    ImGui::PushStyleColor(ImGuiCol_Text, kHudText);
    const bool player_flies = !view.bot_flying && !view.replaying;
    ImGui::Text("SCORE %" PRIu64 "   HIGH %" PRIu64 "   WAVE %d", status.score,
                shown_high_score(view.high_score, status.score, player_flies), status.wave);
    ImGui::SameLine();
    draw_lives(status.lives);
    ImGui::PushStyleColor(ImGuiCol_PlotHistogram, kShieldBar);
    ImGui::ProgressBar(shown_shield(*view.world), ImVec2(8.0f * ImGui::GetFontSize(), 0.0f),
                       "shield");
    ImGui::PopStyleColor();
    if (const int storm = status.storm_ticks; storm > 0) {
      ImGui::SameLine();
      ImGui::TextColored(ImColor(kStormText), "STORM %.1f s", storm / 60.0);
    }
    // With a hunter about, whether a missile is ready.
    if (view.world->entities().hunters.size() > 0 && !status.game_over) {
      ImGui::SameLine();
      if (const int wait = view.world->ship().missile_cooldown; wait > 0) {
        ImGui::TextColored(ImColor(kTagText), "missile in %.1f s", wait / 60.0);
      } else {
        ImGui::TextColored(ImColor(kMissileText), "MISSILE READY (E)");
      }
    }
    // Who flies, and what is on or off.
    const char* pilot = view.replaying ? "replay" : view.bot_flying ? view.pilot_tag.c_str() : "";
    const std::string controller =
        view.controller_name.empty() ? std::string() : "pad: " + view.controller_name;
    for (const std::string_view tag : {std::string_view(pilot), std::string_view(controller),
                                       std::string_view(view.muted ? "muted" : "")}) {
      if (tag.empty()) continue;
      ImGui::SameLine();
      ImGui::TextColored(ImColor(kTagText), "%.*s", static_cast<int>(tag.size()), tag.data());
    }
    ImGui::PopStyleColor();
    if (!view.notice.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, kNoticeText);
      ImGui::PushTextWrapPos(std::max(world_rect.w - 4.0f * pad, 100.0f));
      ImGui::TextUnformatted(view.notice.c_str());
      ImGui::PopTextWrapPos();
      ImGui::PopStyleColor();
    }
  }
  ImGui::End();
}

}  // namespace

// Before the first game's first wave: what the game is and how to fly, from the key map.
void draw_title_card(const window::ScreenRect& world_rect, int breather_ticks) {
  // As wide as the longest line needs and no wider than the world: long key rows wrap.
  const float width = std::min(40.0f * ImGui::GetFontSize(), world_rect.w - 16.0f);
  ImGui::SetNextWindowSizeConstraints(ImVec2(width, 0.0f), ImVec2(width, world_rect.h));
  centred_screen(kTitleWindow, world_rect, 0.45f, [&] {
    ImGui::SetWindowFontScale(3.0f);
    centred("QUADPOOL", kHudText);
    ImGui::SetWindowFontScale(1.0f);
    centred("Shoot the red-rimmed rocks before they reach you.", kThreatText);
    centred("The dust is harmless: your shots break through it.", kHudText);
    centred("Fly over a gold ring for a storm of shots.", kStormText);
    ImGui::Spacing();
    if (ImGui::BeginTable("##title keys", 2)) {
      ImGui::TableSetupColumn("key", ImGuiTableColumnFlags_WidthFixed);
      ImGui::TableSetupColumn("what", ImGuiTableColumnFlags_WidthStretch);
      for (const KeyBinding& binding : key_bindings()) {
        if (binding.modes != Modes::Play) continue;
        ImGui::TableNextColumn();
        ImGui::TextColored(ImColor(kTagText), "%s", binding.input);
        ImGui::TableNextColumn();
        ImGui::TextWrapped("%s", binding.description);
      }
      ImGui::EndTable();
    }
    char line[64];
    std::snprintf(line, sizeof line, "wave 1 in %.0f s", std::ceil(breather_ticks / 60.0));
    centred(line, kBannerText);
  });
}

// Between waves: the wave to come, how many threats it sends, the bonus for the one cleared.
void draw_wave_banner(const PlayHudView& view, const window::ScreenRect& world_rect) {
  const play::PlayWorld& world = *view.world;
  const int wave = world.status().wave;
  centred_screen(kWaveWindow, world_rect, 0.3f, [&] {
    char line[96];
    ImGui::SetWindowFontScale(2.5f);
    std::snprintf(line, sizeof line, "WAVE %d", wave);
    centred(line, kBannerText);
    ImGui::SetWindowFontScale(1.0f);
    if (const int bonus = world.status().wave_bonus; wave > 1 && bonus > 0) {
      std::snprintf(line, sizeof line, "wave %d cleared untouched: +%d", wave - 1, bonus);
      centred(line, kHudText);
    }
    const int threats = play::threats_in_wave(world.tuning(), wave);
    const int hunters = play::hunters_in_wave(world.tuning(), wave);
    if (hunters > 0) {
      std::snprintf(line, sizeof line, "%d threats and %d hunter%s coming (E: missile)", threats,
                    hunters, hunters == 1 ? "" : "s");
    } else {
      std::snprintf(line, sizeof line, "%d threats coming", threats);
    }
    centred(line, kThreatText);
  });
}

void draw_play_hud(const PlayHudView& view, const window::ScreenRect& world_rect) {
  if (view.world == nullptr) return;
  if (view.flash > 0.0f) {
    // Under every window, over the world: the ship was hit.
    const auto alpha = static_cast<int>(std::clamp(view.flash, 0.0f, 1.0f) * 90.0f);
    ImGui::GetBackgroundDrawList()->AddRectFilled(
        ImVec2(world_rect.x, world_rect.y),
        ImVec2(world_rect.x + world_rect.w, world_rect.y + world_rect.h),
        IM_COL32(255, 40, 30, alpha));
  }
  for (const ScreenPopup& popup : view.popups) {
    char text[24];
    std::snprintf(text, sizeof text, "+%d", popup.points);
    const auto alpha = static_cast<int>(std::clamp(popup.strength, 0.0f, 1.0f) * 255.0f);
    // Bigger for bigger points: a wave's bonus reads across the screen.
    const float size = ImGui::GetFontSize() * (popup.points >= 200 ? 2.0f : 1.4f);
    ImGui::GetBackgroundDrawList()->AddText(ImGui::GetFont(), size, ImVec2(popup.at.x, popup.at.y),
                                            IM_COL32(255, 235, 140, alpha), text);
  }
  draw_score_line(view, world_rect);
  const play::GameStatus& status = view.world->status();
  if (status.game_over) {
    centred_screen(kGameOverWindow, world_rect, 0.5f, [&] {
      ImGui::SetWindowFontScale(2.0f);
      centred("GAME OVER", kGameOverText);
      ImGui::SetWindowFontScale(1.0f);
      char line[96];
      std::snprintf(line, sizeof line, "score %" PRIu64, status.score);
      centred(line, kHudText);
      if (!view.bot_flying && !view.replaying && status.score > 0 &&
          status.score >= view.high_score)
        centred("a new high score!", kLifeIcon);
      if (!view.notice.empty()) centred(view.notice.c_str(), kNoticeText);
      centred("Enter or Start: play again", kHudText);
    });
  } else if (view.replay_matches) {
    centred_screen(kReplayOverWindow, world_rect, 0.5f, [&] {
      ImGui::SetWindowFontScale(2.0f);
      centred("REPLAY OVER", kHudText);
      ImGui::SetWindowFontScale(1.0f);
      if (*view.replay_matches) {
        centred("it ended on the recorded state hash", kLifeIcon);
      } else {
        centred("it did NOT end on the recorded state hash", kGameOverText);
      }
      centred("Enter or Start: watch it again", kHudText);
    });
  } else if (status.breather_ticks > 0 && !view.paused) {
    const bool first = status.games == 1 && status.wave == 1;
    if (first && !view.bot_flying && !view.replaying) {
      draw_title_card(world_rect, status.breather_ticks);
    } else {
      draw_wave_banner(view, world_rect);
    }
  } else if (view.paused) {
    // A quarter of the way down: the chase camera keeps the ship in the centre, in view.
    centred_screen(kPausedWindow, world_rect, 0.25f, [&] {
      ImGui::SetWindowFontScale(2.0f);
      centred("PAUSED", kHudText);
      ImGui::SetWindowFontScale(1.0f);
      char line[96];
      std::snprintf(line, sizeof line, "%s: resume", pause_key());
      centred(line, kHudText);
    });
  }
}

std::uint64_t shown_high_score(std::uint64_t saved, std::uint64_t score,
                               bool player_flies) noexcept {
  return player_flies ? std::max(saved, score) : saved;
}

float shown_shield(const play::PlayWorld& world) noexcept {
  if (world.status().game_over) return 0.0f;
  const int shield_max = std::max(world.tuning().ship.shield, 1);
  return std::clamp(static_cast<float>(world.ship().shield) / static_cast<float>(shield_max), 0.0f,
                    1.0f);
}

std::string short_count(std::uint64_t n) {
  char text[24];
  if (n < 100'000) {
    std::snprintf(text, sizeof text, "%" PRIu64, n);
  } else if (n < 10'000'000) {
    std::snprintf(text, sizeof text, "%" PRIu64 "k", n / 1'000);
  } else if (n < 10'000'000'000) {
    std::snprintf(text, sizeof text, "%" PRIu64 "M", n / 1'000'000);
  } else {
    std::snprintf(text, sizeof text, "%" PRIu64 "G", n / 1'000'000'000);
  }
  return text;
}

std::string heap_allocations_line(std::optional<std::uint64_t> heap_allocations_last_tick) {
  std::string line = "heap allocations, last tick: ";
  line += heap_allocations_last_tick ? std::to_string(*heap_allocations_last_tick)
                                     : std::string("n/a (not counted)");
  return line;
}

namespace {

// One right-aligned number in the current cell; its exact value on hover when shortened.
void number_cell(std::uint64_t n) {
  ImGui::TableNextColumn();
  const std::string text = short_count(n);
  const float width = ImGui::CalcTextSize(text.c_str()).x;
  ImGui::SetCursorPosX(ImGui::GetCursorPosX() +
                       std::max(0.0f, ImGui::GetContentRegionAvail().x - width));
  ImGui::TextUnformatted(text.c_str());
  if (n >= 100'000 && ImGui::IsItemHovered()) ImGui::SetTooltip("%" PRIu64, n);
}

// A cell with nothing to show ("-"), right-aligned like the numbers.
void missing_cell() {
  ImGui::TableNextColumn();
  ImGui::SetCursorPosX(ImGui::GetCursorPosX() + std::max(0.0f, ImGui::GetContentRegionAvail().x -
                                                                   ImGui::CalcTextSize("-").x));
  ImGui::TextDisabled("-");
}

void pool_cells(const char* name, const memory::PoolStats& pool) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(name);
  number_cell(pool.blocks_in_use);
  number_cell(pool.capacity);
  number_cell(pool.high_water);
  number_cell(pool.chunks);
}

}  // namespace

void draw_entity_pools(std::span<const play::EntityReport> entities,
                       const memory::PoolStats& tree_pool,
                       std::optional<std::uint64_t> heap_allocations_last_tick) {
  // Short headers, spelled out in the line under the table: the long words would not fit.
  constexpr std::array<const char*, 7> kHeaders = {"pool",   "used", "cap",  "peak",
                                                   "chunks", "new",  "freed"};
  ImGui::PushStyleVar(ImGuiStyleVar_CellPadding, ImVec2(3.0f * ImGui::GetIO().FontGlobalScale,
                                                        ImGui::GetStyle().CellPadding.y));
  // No wrapping inside the cells, whatever the caller pushed: a fixed-fit column sized by its
  // text would otherwise shrink to the wrapped text ("shot" over "s").
  ImGui::PushTextWrapPos(-1.0f);
  if (ImGui::BeginTable("entity pools", static_cast<int>(kHeaders.size()),
                        ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg)) {
    for (const char* header : kHeaders) ImGui::TableSetupColumn(header);
    ImGui::TableHeadersRow();
    for (const play::EntityReport& report : entities) {
      pool_cells(play::entity_type_name(report.type), report.pool);
      number_cell(report.counts.created_tick);
      number_cell(report.counts.destroyed_tick);
    }
    // The tree's pool counts in total, not per tick: its per-tick columns stay empty.
    pool_cells("tree nodes", tree_pool);
    missing_cell();
    missing_cell();
    ImGui::EndTable();
  }
  ImGui::PopTextWrapPos();
  ImGui::PopStyleVar();
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled(
      "used, capacity, peak (high-water) and chunks of each pool; new and freed: "
      "objects created and destroyed this tick");
  ImGui::TextUnformatted(heap_allocations_line(heap_allocations_last_tick).c_str());
  ImGui::PopTextWrapPos();
}

}  // namespace quadpool::game::window::sdl
