#pragma once
/// What the overlay's panels share: the colours that mean the same thing in every panel (the
/// pools green, new/delete red) and a few small ImGui helpers. Call between ImGui's NewFrame
/// and Render.

#include <imgui.h>

#include <cstdint>
#include <string>

#include <fmt/format.h>

namespace quadpool::game::window::sdl {

/// The pools (and a live block); new/delete (and an answer that is wrong).
inline constexpr ImU32 kPoolColour = IM_COL32(90, 210, 110, 255);
inline constexpr ImU32 kNewDeleteColour = IM_COL32(255, 90, 80, 255);
/// The better of two figures; a figure with nothing to say.
inline constexpr ImU32 kBetterText = IM_COL32(110, 230, 120, 255);
inline constexpr ImU32 kPlainText = IM_COL32(230, 230, 230, 255);

inline ImVec4 colour(ImU32 c) {
  return ImGui::ColorConvertU32ToFloat4(c);
}

inline void text(const std::string& s) {
  ImGui::TextUnformatted(s.c_str());
}

/// "12 B", "3.5 KiB", "1.2 MiB".
inline std::string bytes_text(std::uint64_t bytes) {
  if (bytes >= (1u << 20)) return fmt::format("{:.1f} MiB", static_cast<double>(bytes) / (1 << 20));
  if (bytes >= (1u << 10)) return fmt::format("{:.1f} KiB", static_cast<double>(bytes) / (1 << 10));
  return fmt::format("{} B", bytes);
}

/// Room for a `width` x `height` drawing in the window's layout; returns its top-left corner.
inline ImVec2 reserve_bar(float width, float height) {
  const ImVec2 at = ImGui::GetCursorScreenPos();
  ImGui::Dummy(ImVec2(width, height));
  return at;
}

}  // namespace quadpool::game::window::sdl
