#include "game/demo/camera.hpp"

#include <algorithm>

namespace quadpool::game::demo {

void Camera::fit(float world_side, int width, int height, float left_inset) noexcept {
  const float margin = 8.0f;
  const float w = static_cast<float>(width), h = static_cast<float>(height);
  // Only worth it when the world keeps at least the size it would have centred in the window.
  const float inset = w - left_inset >= std::min(w, h) ? std::max(left_inset, 0.0f) : 0.0f;
  const float usable = std::max(1.0f, std::min(w - inset, h) - 2 * margin);
  scale_ = std::clamp(usable / std::max(world_side, 1e-3f), kMinScale, kMaxScale);
  offset_x_ = inset + 0.5f * (w - inset - world_side * scale_);
  offset_y_ = 0.5f * (h - world_side * scale_);
}

void Camera::zoom_at(float screen_x, float screen_y, float factor) noexcept {
  const ScreenPoint anchor = to_world(screen_x, screen_y);
  scale_ = std::clamp(scale_ * factor, kMinScale, kMaxScale);
  offset_x_ = screen_x - anchor.x * scale_;
  offset_y_ = screen_y - anchor.y * scale_;
}

void Camera::pan(float dx, float dy) noexcept {
  offset_x_ += dx;
  offset_y_ += dy;
}

spatial::Aabb Camera::visible_world(int width, int height) const noexcept {
  const ScreenPoint lo = to_world(0.0f, 0.0f);
  const ScreenPoint hi = to_world(static_cast<float>(width), static_cast<float>(height));
  return {lo.x, lo.y, hi.x, hi.y};
}

}  // namespace quadpool::game::demo
