#pragma once
/// The demo's 2D camera: screen = world * scale + offset, world y pointing down like the screen.

#include "engine/spatial/aabb.hpp"

namespace quadpool::game::window {

struct ScreenPoint {
  float x, y;
};

/// An axis-aligned rectangle in window pixels: left, top, width, height.
struct ScreenRect {
  float x = 0, y = 0, w = 0, h = 0;

  /// True when the two rectangles share pixels (touching edges do not).
  bool overlaps(const ScreenRect& o) const noexcept {
    return x < o.x + o.w && o.x < x + w && y < o.y + o.h && o.y < y + h;
  }
  /// True when `o` lies wholly inside this rectangle.
  bool contains(const ScreenRect& o) const noexcept {
    return o.x >= x && o.y >= y && o.x + o.w <= x + w && o.y + o.h <= y + h;
  }
};

class Camera {
 public:
  /// Shows the square world [0, world_side]^2 whole and centred in `area` (window pixels),
  /// with a small margin.
  void fit(float world_side, const ScreenRect& area) noexcept;

  /// Zooms by `factor` (> 1 zooms in) keeping the world point under (screen_x, screen_y) in
  /// place, within [kMinScale, kMaxScale] pixels per world unit.
  void zoom_at(float screen_x, float screen_y, float factor) noexcept;

  /// Puts the world point (world_x, world_y) at the centre of `area`, keeping the zoom: the
  /// game's chase camera.
  void center_on(float world_x, float world_y, const ScreenRect& area) noexcept;
  /// center_on(), then moved back so that `area` shows no space past the world square
  /// [0, world_side]^2 on an axis where the world is wider than the view; on an axis where it is
  /// narrower, the world is centred on it. The game's chase camera near the world's edge.
  void center_within(float world_x, float world_y, float world_side,
                     const ScreenRect& area) noexcept;

  /// Moves the view by a mouse motion of (dx, dy) pixels.
  void pan(float dx, float dy) noexcept;

  ScreenPoint to_screen(float world_x, float world_y) const noexcept {
    return {world_x * scale_ + offset_x_, world_y * scale_ + offset_y_};
  }
  ScreenPoint to_world(float screen_x, float screen_y) const noexcept {
    return {(screen_x - offset_x_) / scale_, (screen_y - offset_y_) / scale_};
  }
  /// The world rectangle `area` (window pixels) shows.
  spatial::Aabb visible_world(const ScreenRect& area) const noexcept;
  /// Where the world square [0, world_side]^2 lands on screen.
  ScreenRect world_on_screen(float world_side) const noexcept {
    return {offset_x_, offset_y_, world_side * scale_, world_side * scale_};
  }

  float scale() const noexcept { return scale_; }

  static constexpr float kMinScale = 0.01f;
  static constexpr float kMaxScale = 200.0f;

 private:
  float scale_ = 1.0f;
  float offset_x_ = 0.0f;
  float offset_y_ = 0.0f;
};

}  // namespace quadpool::game::window
