#pragma once
/// Rays for QuadTree::ray_cast(), and the one slab test that the tree, brute_force_ray_cast()
/// and the benchmark's Box2D callback all use, so that their answers agree to the last bit.

#include <limits>

#include "engine/spatial/aabb.hpp"

namespace quadpool::spatial {

/// A point moving along origin + t * dir for 0 <= t <= max_t. `dir` need not be unit length:
/// t is in units of `dir`, so with a unit `dir`, t is a distance.
///
/// Degenerate rays have a defined answer (RaySlabs gives it):
/// - a NaN anywhere, an infinite origin or direction, or max_t < 0: no box is hit;
/// - max_t == +inf: a ray without end;
/// - a direction component that is 0 (or so small that 1 / it is infinite): the ray stays at
///   the origin's coordinate on that axis, so it meets a box only where that coordinate lies
///   within the box's (closed) extent there; with both components 0 the ray is its origin, and
///   it hits, at t = 0, exactly the boxes that contain the origin.
struct Ray {
  float origin_x, origin_y, dir_x, dir_y, max_t;
};

/// A ray prepared for the slab test: the inverse direction and, per axis, which face is entered
/// first. Plain data, so that a vectorised kernel reads the same fields as enters().
struct RaySlabs {
  float origin_x = 0.0f, origin_y = 0.0f;
  float inv_x = 0.0f, inv_y = 0.0f;  // 1 / dir; unused on a flat axis
  float max_t = -1.0f;
  bool flat_x = false, flat_y = false;        // dir is 0 on the axis (see Ray)
  bool backward_x = false, backward_y = false;  // dir < 0: the max face is entered first
  bool valid = false;                          // false: the ray hits nothing (see Ray)

  explicit RaySlabs(const Ray& ray) noexcept {
    constexpr float inf = std::numeric_limits<float>::infinity();
    const auto finite = [](float v) { return v - v == 0.0f; };  // false for inf and NaN
    valid = finite(ray.origin_x) && finite(ray.origin_y) && finite(ray.dir_x) &&
            finite(ray.dir_y) && ray.max_t >= 0.0f;  // false for a NaN max_t
    if (!valid) return;
    origin_x = ray.origin_x;
    origin_y = ray.origin_y;
    max_t = ray.max_t;
    inv_x = 1.0f / ray.dir_x;
    inv_y = 1.0f / ray.dir_y;
    // 1 / 0 and 1 / a tiny subnormal are infinite, and (face - origin) * inf would be NaN at a
    // face through the origin: such an axis is tested as a closed interval instead.
    flat_x = inv_x == inf || inv_x == -inf;
    flat_y = inv_y == inf || inv_y == -inf;
    backward_x = inv_x < 0.0f;
    backward_y = inv_y < 0.0f;
  }

  /// True when the ray meets the closed `box` at some t in [0, limit]; `t` is then the slab
  /// entry: where it enters the box, 0 when the origin is inside or on its edge. The entry and
  /// exit along each axis come from (face - origin) / dir, as products with 1 / dir, and every
  /// step is rounded the same way in every caller: the tree's bounds contain its boxes, so a
  /// node's entry is never later than any of its boxes', and pruning by it loses nothing. A
  /// box with min > max on an axis is never met.
  bool enters(const Aabb& box, float limit, float& t) const noexcept {
    float near_x, far_x, near_y, far_y;
    axis(box.min_x, box.max_x, origin_x, inv_x, flat_x, backward_x, near_x, far_x);
    axis(box.min_y, box.max_y, origin_y, inv_y, flat_y, backward_y, near_y, far_y);
    const float enter = max_of(max_of(near_x, near_y), 0.0f);
    const float exit = min_of(min_of(far_x, far_y), limit);
    t = enter + 0.0f;  // -0 becomes +0, whichever zero the comparisons kept
    return enter <= exit;
  }

  // The slab of one axis as [near, far]; on a flat axis all of t or none of it.
  static void axis(float lo, float hi, float origin, float inv, bool flat, bool backward,
                   float& near, float& far) noexcept {
    constexpr float inf = std::numeric_limits<float>::infinity();
    if (flat) {
      const bool inside = lo <= origin && origin <= hi;
      near = inside ? -inf : inf;
      far = inside ? inf : -inf;
    } else {
      near = ((backward ? hi : lo) - origin) * inv;
      far = ((backward ? lo : hi) - origin) * inv;
    }
  }
  // As SSE's maxps and minps (the second operand on a tie), so that the vector kernels and
  // this function keep the same zero when +0 meets -0.
  static float max_of(float a, float b) noexcept { return a > b ? a : b; }
  static float min_of(float a, float b) noexcept { return a < b ? a : b; }
};

}  // namespace quadpool::spatial
