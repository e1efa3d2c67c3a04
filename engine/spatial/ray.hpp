#pragma once
/// Rays for QuadTree::ray_cast(), and the one slab test that the tree, brute_force_ray_cast()
/// and the benchmark's Box2D callback all use, so that their answers agree to the last bit. A
/// thick ray (a radius) sweeps a square of half-side `radius` along the ray: the same slab test
/// against every box grown by the radius on every side.

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
///
/// With a radius (RaySlabs, QuadTree::ray_cast(ray, radius, f)) every box is tested as grown by
/// it, [min - radius, max + radius] on both axes, and the rules above hold for the grown boxes;
/// a negative, NaN or infinite radius makes the ray hit nothing, and a radius of 0 (or -0) is
/// the thin ray, to the bit.
struct Ray {
  float origin_x, origin_y, dir_x, dir_y, max_t;
};

/// A ray prepared for the slab test: the inverse direction, per axis which face is entered
/// first, and what the radius adds to each face. Plain data, so that a vectorised kernel reads
/// the same fields as enters().
struct RaySlabs {
  float origin_x = 0.0f, origin_y = 0.0f;
  float inv_x = 0.0f, inv_y = 0.0f;  // 1 / dir; unused on a flat axis
  float max_t = -1.0f;
  // Added to a box's min and max faces: -radius and +radius. A thin ray adds -0 to both, and
  // x + -0 is x to the bit for every x (+0 would turn a -0 face into +0), so that enters()
  // needs no branch to give the thin answers exactly.
  float min_offset = -0.0f, max_offset = -0.0f;
  bool flat_x = false, flat_y = false;        // dir is 0 on the axis (see Ray)
  bool backward_x = false, backward_y = false;  // dir < 0: the max face is entered first
  bool thick = false;                           // radius > 0: the faces move (a kernel's switch)
  bool valid = false;                          // false: the ray hits nothing (see Ray)

  /// `radius` grows every box by that much on every side (see Ray); 0 is the thin ray.
  explicit RaySlabs(const Ray& ray, float radius = 0.0f) noexcept {
    constexpr float inf = std::numeric_limits<float>::infinity();
    const auto finite = [](float v) { return v - v == 0.0f; };  // false for inf and NaN
    valid = finite(ray.origin_x) && finite(ray.origin_y) && finite(ray.dir_x) &&
            finite(ray.dir_y) && ray.max_t >= 0.0f &&  // false for a NaN max_t
            finite(radius) && radius >= 0.0f;
    if (!valid) return;
    thick = radius > 0.0f;
    if (thick) {
      min_offset = -radius;
      max_offset = radius;
    }
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

  /// True when the ray meets the closed `box`, grown by the radius, at some t in [0, limit];
  /// `t` is then the slab entry: where it enters the grown box, 0 when the origin is inside or
  /// on its edge. Each face is first moved (face + offset), then the entry and exit along each
  /// axis come from (face - origin) / dir, as products with 1 / dir, and every step is rounded
  /// the same way in every caller. The tree's bounds contain its boxes, and each step is
  /// monotonic under rounding (the growth too: a <= b gives a + offset <= b + offset once
  /// rounded), so a grown node's entry is never later than any of its grown boxes', and
  /// pruning by it loses nothing. A box whose grown extent has min > max on an axis is never
  /// met (with a radius, a box with min > max by less than twice the radius is met; the tree
  /// and brute_force_ray_cast() leave such boxes out anyway).
  bool enters(const Aabb& box, float limit, float& t) const noexcept {
    return enters_as<true>(box, limit, t);
  }

  /// enters() for a caller that settles the ray's thickness once per cast (the tree's walk):
  /// kThick must be `thick`. The thin form skips the growth, whose -0 offsets would change
  /// nothing, so that a thin ray's walk does exactly the steps it did before rays had a radius.
  template <bool kThick>
  bool enters_as(const Aabb& box, float limit, float& t) const noexcept {
    float near_x, far_x, near_y, far_y;
    if constexpr (kThick) {
      axis(box.min_x + min_offset, box.max_x + max_offset, origin_x, inv_x, flat_x, backward_x,
           near_x, far_x);
      axis(box.min_y + min_offset, box.max_y + max_offset, origin_y, inv_y, flat_y, backward_y,
           near_y, far_y);
    } else {
      axis(box.min_x, box.max_x, origin_x, inv_x, flat_x, backward_x, near_x, far_x);
      axis(box.min_y, box.max_y, origin_y, inv_y, flat_y, backward_y, near_y, far_y);
    }
    const float enter = max_of(max_of(near_x, near_y), 0.0f);
    const float exit = min_of(min_of(far_x, far_y), limit);
    t = enter + 0.0f;  // -0 becomes +0, whichever zero the comparisons kept
    return enter <= exit;
  }

  // The slab of one axis (its faces already grown) as [near, far]; on a flat axis all of t or
  // none of it.
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
