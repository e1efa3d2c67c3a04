// The A/B run's result in the panel.
#include "game/window/sdl/ab_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cinttypes>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "common/scene/scene.hpp"
#include "game/window/sdl/panel_style.hpp"

namespace quadpool::game::window::sdl {

namespace {

// The table's rows; the last is the longest and sets the names' column width.
constexpr const char* kAbRowNames[5] = {"tick median", "tick p99", "frame median", "frame p99",
                                        "heap allocs/tick"};

// One row: the name, then the pool's and new/delete's figure, the smaller one green.
void figures_row(const char* name, double pool, double new_delete, const char* format) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(name);
  ImGui::TableNextColumn();
  ImGui::TextColored(colour(pool <= new_delete ? kBetterText : kPlainText), format, pool);
  ImGui::TableNextColumn();
  ImGui::TextColored(colour(new_delete < pool ? kBetterText : kPlainText), format, new_delete);
}

}  // namespace

void draw_ab_result(const window::AbExperiment& ab, bool with_table) {
  const std::optional<window::AbResult>& result = ab.result();
  if (!result) return;
  text(fmt::format("new/delete tick median = {:.2f}x pool", result->tick_median_ratio()));
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("%s, seed %" PRIu64 ", depth %d, leaf capacity %d",
                      scene::scene_name(result->scene), result->seed, result->tree_max_depth,
                      result->tree_leaf_capacity);
  }
  if (!with_table) {
    ImGui::TextDisabled("the table: X clears the query");
    return;
  }
  if (!ImGui::BeginTable("ab", 3, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg)) return;
  // The row names' column as wide as its longest name; the figures share the rest.
  const std::string sprites = fmt::format("{} sprites", result->sprites);
  const float names_w =
      std::max(ImGui::CalcTextSize(kAbRowNames[4]).x, ImGui::CalcTextSize(sprites.c_str()).x);
  ImGui::TableSetupColumn(sprites.c_str(), ImGuiTableColumnFlags_WidthFixed, names_w);
  ImGui::TableSetupColumn("pool", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableSetupColumn("new/delete", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableHeadersRow();
  figures_row(kAbRowNames[0], result->tick_ms[0].median, result->tick_ms[1].median, "%.3f ms");
  figures_row(kAbRowNames[1], result->tick_ms[0].p99, result->tick_ms[1].p99, "%.3f ms");
  figures_row(kAbRowNames[2], result->frame_ms[0].median, result->frame_ms[1].median, "%.3f ms");
  figures_row(kAbRowNames[3], result->frame_ms[0].p99, result->frame_ms[1].p99, "%.3f ms");
  if (result->heap_allocations_per_tick[0] && result->heap_allocations_per_tick[1]) {
    figures_row(kAbRowNames[4], *result->heap_allocations_per_tick[0],
                *result->heap_allocations_per_tick[1], "%.1f");
  }
  ImGui::EndTable();
}

}  // namespace quadpool::game::window::sdl
