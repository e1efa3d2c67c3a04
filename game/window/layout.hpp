#pragma once
/// The demo's window layout: the overlay is a panel docked on the left, of a fixed width that
/// scales with the window, and the world gets the rest; the two never share a pixel. The UI
/// scale (ImGui's font scale) follows the window size, so the panel reads the same from
/// 1280x720 to 4K.

#include "game/window/camera.hpp"

namespace quadpool::game::window {

struct Layout {
  ScreenRect window;
  ScreenRect panel;  // zero width when the panel is hidden
  ScreenRect world;  // where the world is drawn (clipped to)
  float ui_scale = 1.0f;
};

/// The panel's width at ui_scale 1, pixels.
inline constexpr float kPanelWidth = 390.0f;

/// The layout of a `width` x `height` window (renderer pixels), with or without the panel. The
/// panel takes kPanelWidth * ui_scale, but never more than 60% of a narrow window.
Layout layout_for(int width, int height, bool panel_shown) noexcept;

/// How far the panel's content has reached past its edges, the most over every frame drawn,
/// pixels (0: nothing was ever cut or needed the scrollbar).
struct PanelFit {
  float overflow_x = 0.0f;  // past the right edge of the content area: cut off
  float overflow_y = 0.0f;  // past the bottom: only the scrollbar shows it
};

}  // namespace quadpool::game::window
