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

}  // namespace quadpool::spatial
