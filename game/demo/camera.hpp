#pragma once
/// The demo's 2D camera: screen = world * scale + offset, world y pointing down like the screen.

#include "engine/spatial/aabb.hpp"

namespace quadpool::game::demo {

struct ScreenPoint {
  float x, y;
};

class Camera {
 public:
  /// Shows the square world [0, world_side]^2 whole and centred in a viewport of
  /// `width` x `height` pixels, with a small margin, leaving the `left_inset` pixels on the
  /// left free (for the overlay) when the window is wide enough for that to help.
  void fit(float world_side, int width, int height, float left_inset = 0) noexcept;

  /// Zooms by `factor` (> 1 zooms in) keeping the world point under (screen_x, screen_y) in
  /// place, within [kMinScale, kMaxScale] pixels per world unit.
  void zoom_at(float screen_x, float screen_y, float factor) noexcept;

  /// Moves the view by a mouse motion of (dx, dy) pixels.
  void pan(float dx, float dy) noexcept;

  ScreenPoint to_screen(float world_x, float world_y) const noexcept {
    return {world_x * scale_ + offset_x_, world_y * scale_ + offset_y_};
  }
  ScreenPoint to_world(float screen_x, float screen_y) const noexcept {
    return {(screen_x - offset_x_) / scale_, (screen_y - offset_y_) / scale_};
  }
  /// The world rectangle a `width` x `height` viewport shows.
  spatial::Aabb visible_world(int width, int height) const noexcept;

  float scale() const noexcept { return scale_; }

  static constexpr float kMinScale = 0.01f;
  static constexpr float kMaxScale = 200.0f;

 private:
  float scale_ = 1.0f;
  float offset_x_ = 0.0f;
  float offset_y_ = 0.0f;
};

}  // namespace quadpool::game::demo
