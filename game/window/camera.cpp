#include "game/window/camera.hpp"

#include <algorithm>

namespace quadpool::game::window {

void Camera::fit(float world_side, const ScreenRect& area) noexcept {
  const float margin = 8.0f;
  const float usable = std::max(1.0f, std::min(area.w, area.h) - 2 * margin);
  scale_ = std::clamp(usable / std::max(world_side, 1e-3f), kMinScale, kMaxScale);
  offset_x_ = area.x + 0.5f * (area.w - world_side * scale_);
  offset_y_ = area.y + 0.5f * (area.h - world_side * scale_);
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

void Camera::center_on(float world_x, float world_y, const ScreenRect& area) noexcept {
  offset_x_ = area.x + 0.5f * area.w - world_x * scale_;
  offset_y_ = area.y + 0.5f * area.h - world_y * scale_;
}

namespace {

// The offset on one axis that keeps [area_lo, area_lo + area_len] inside the world's
// [offset, offset + world_len] on screen, or centres the world when it is the shorter.
float clamped_offset(float offset, float area_lo, float area_len, float world_len) noexcept {
  if (world_len <= area_len) return area_lo + 0.5f * (area_len - world_len);
  return std::clamp(offset, area_lo + area_len - world_len, area_lo);
}

}  // namespace

void Camera::center_within(float world_x, float world_y, float world_side,
                           const ScreenRect& area) noexcept {
  center_on(world_x, world_y, area);
  const float world_len = world_side * scale_;
  offset_x_ = clamped_offset(offset_x_, area.x, area.w, world_len);
  offset_y_ = clamped_offset(offset_y_, area.y, area.h, world_len);
}

spatial::Aabb Camera::visible_world(const ScreenRect& area) const noexcept {
  const ScreenPoint lo = to_world(area.x, area.y);
  const ScreenPoint hi = to_world(area.x + area.w, area.y + area.h);
  return {lo.x, lo.y, hi.x, hi.y};
}

}  // namespace quadpool::game::window
