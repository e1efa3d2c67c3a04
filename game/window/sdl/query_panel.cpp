// The panel's query section.
#include "game/window/sdl/query_panel.hpp"

#include <imgui.h>

#include <cstdint>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "engine/spatial/aabb.hpp"
#include "game/window/sdl/panel_style.hpp"

namespace quadpool::game::window::sdl {

namespace {

constexpr ImU32 kPickedLeafText = IM_COL32(255, 150, 40, 255);  // the leaf's outline in the world

// One query's answer, its time beside the scan's, and a red line when the two disagree.
void draw_query_result(const window::Selection& selection, const window::QueryStats& q) {
  const char* call = "QuadTree::query";
  switch (q.mode) {
    case window::QueryMode::Box:
      text(fmt::format("box: {} hits", q.hits));
      break;
    case window::QueryMode::Ray:
      call = "QuadTree::ray_cast";
      if (q.hits == 0 || selection.ids().empty()) {
        text("ray: no sprite along the segment");
      } else {
        text(fmt::format("ray: sprite {} first, {:.0f}% along the segment", selection.ids()[0],
                         100.0 * static_cast<double>(q.ray_t)));
      }
      break;
    case window::QueryMode::Nearest:
      call = "QuadTree::nearest";
      text(fmt::format("nearest: the {} sprites nearest the cross", q.hits));
      break;
  }
  text(fmt::format("{} {:.1f} us, brute force {:.1f} us ({:.0f}x)", call, q.tree_us, q.brute_us,
                   q.tree_us > 0 ? q.brute_us / q.tree_us : 0.0));
  if (!q.agree) {
    ImGui::TextColored(colour(kNewDeleteColour),
                       "brute force found another answer (%zu hits): the tree is wrong",
                       q.brute_hits);
  }
}

}  // namespace

void draw_query_panel(const window::Selection& selection, std::span<const scene::Sprite> sprites) {
  const window::QueryMode mode = selection.mode();
  if (!selection.stats() && !selection.pick().picking() && mode == window::QueryMode::Box) return;
  // The mode in the header, the same ImGui id in every mode so that folding it stays.
  const std::string header =
      fmt::format("Query: {} (Q: mode, X clears)###query", window::query_mode_name(mode));
  if (!ImGui::CollapsingHeader(header.c_str(), ImGuiTreeNodeFlags_DefaultOpen)) return;
  if (const std::optional<window::QueryStats>& q = selection.stats()) {
    draw_query_result(selection, *q);
  } else if (!selection.pick().picking()) {
    text(mode == window::QueryMode::Ray ? "shift + drag a segment: its first sprite"
                                        : "shift + click: the 8 sprites nearest the point");
  }
  const std::optional<std::uint32_t> id = selection.pick().picked();
  if (!id || *id >= sprites.size()) return;
  const scene::Sprite& s = sprites[*id];
  text(fmt::format("sprite {} at ({:.1f}, {:.1f}), radius {:.1f}", *id, s.x, s.y, s.radius));
  if (const std::optional<spatial::Aabb>& leaf = selection.pick().leaf()) {
    ImGui::TextColored(colour(kPickedLeafText), "its leaf (orange): %.0f x %.0f at (%.0f, %.0f)",
                       static_cast<double>(leaf->max_x - leaf->min_x),
                       static_cast<double>(leaf->max_y - leaf->min_y),
                       static_cast<double>(leaf->min_x), static_cast<double>(leaf->min_y));
  }
}

}  // namespace quadpool::game::window::sdl
