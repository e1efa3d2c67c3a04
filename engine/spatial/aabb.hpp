#pragma once
/// Axis-aligned bounding boxes in world units.

namespace quadpool::spatial {

/// A closed box [min_x, max_x] x [min_y, max_y]. A box with min == max on an axis is a valid
/// box of zero size on that axis.
struct Aabb {
  float min_x, min_y, max_x, max_y;
};

/// True when the closed boxes share at least one point: boxes that touch overlap.
inline bool overlaps(const Aabb& a, const Aabb& b) noexcept {
  // `&`, not `&&`: in a broad phase most tests fail, each comparison on its own is a coin toss
  // that the branch predictor loses, and the combined result (mostly false) is easy to predict.
  // Four comparisons are cheaper than one mispredicted branch.
  return (a.min_x <= b.max_x) & (b.min_x <= a.max_x) & (a.min_y <= b.max_y) & (b.min_y <= a.max_y);
}

/// The squared distance from the point (x, y) to the closed box: 0 inside or on its edge, else
/// dx * dx + dy * dy with dx, dy the gaps along each axis. QuadTree::nearest() orders boxes by
/// it, and its vector kernel computes exactly this, step by step (the maxima as SSE's maxps).
/// For a finite point and a box without NaN the result is never NaN, negative or -0 (a gap of
/// -0 loses to the +0 in the maxima), which nearest() relies on to compare the bits.
inline float squared_distance(const Aabb& box, float x, float y) noexcept {
  const auto max_of = [](float a, float b) { return a > b ? a : b; };
  const float dx = max_of(max_of(box.min_x - x, x - box.max_x), 0.0f);
  const float dy = max_of(max_of(box.min_y - y, y - box.max_y), 0.0f);
  return dx * dx + dy * dy;
}

}  // namespace quadpool::spatial
