#include "game/window/layout.hpp"

#include <algorithm>

namespace quadpool::game::window {

Layout layout_for(int width, int height, bool panel_shown) noexcept {
  Layout layout;
  const float w = static_cast<float>(std::max(width, 1));
  const float h = static_cast<float>(std::max(height, 1));
  layout.window = {0, 0, w, h};
  // 1 at 1280x720 and below, 3 at 3840x2160: the reference size's text stays the same size
  // relative to the window.
  layout.ui_scale = std::clamp(std::min(w / 1280.0f, h / 720.0f), 1.0f, 4.0f);
  const float panel_w = panel_shown ? std::min(kPanelWidth * layout.ui_scale, 0.6f * w) : 0.0f;
  layout.panel = {0, 0, panel_w, h};
  layout.world = {panel_w, 0, w - panel_w, h};
  return layout;
}

}  // namespace quadpool::game::window
