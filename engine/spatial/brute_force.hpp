#pragma once
/// The obvious O(n^2) broad phase: the reference that the QuadTree's tests and benchmark compare
/// against. Same callback contract as QuadTree, same ids (a box's index). Also the references
/// for QuadTree::ray_cast() and nearest(): every box, the same slab test and distance.

#include <cstddef>
#include <cstdint>
#include <span>

#include "engine/spatial/aabb.hpp"
#include "engine/spatial/ray.hpp"

namespace quadpool::spatial {

/// Calls f(a, b) with a < b for every overlapping pair, in (a, b) lexicographic order. O(n^2).
template <class F>
void brute_force_pairs(std::span<const Aabb> boxes, F&& f) {
  const auto count = static_cast<std::uint32_t>(boxes.size());
  for (std::uint32_t a = 0; a < count; ++a) {
    const Aabb box = boxes[a];
    for (std::uint32_t b = a + 1; b < count; ++b) {
      if (overlaps(box, boxes[b])) f(a, b);
    }
  }
}

/// Calls f(id) for every box that overlaps `area`, in id order. O(n).
template <class F>
void brute_force_query(std::span<const Aabb> boxes, const Aabb& area, F&& f) {
  const auto count = static_cast<std::uint32_t>(boxes.size());
  for (std::uint32_t id = 0; id < count; ++id) {
    if (overlaps(boxes[id], area)) f(id);
  }
}

/// False for a box that QuadTree leaves out (a NaN coordinate, or min > max on an axis): the
/// ray and nearest references skip it as the tree does.
inline bool kept_by_tree(const Aabb& box) noexcept {
  return box.min_x <= box.max_x && box.min_y <= box.max_y;
}

/// QuadTree::ray_cast()'s contract over every box, in id order: f(id, t) for each box that the
/// ray enters (RaySlabs::enters) at t <= the current limit; f's answer moves the limit the same
/// way (0 stops, a smaller positive value lowers it, anything else keeps it). O(n).
template <class F>
void brute_force_ray_cast(std::span<const Aabb> boxes, const Ray& ray, F&& f) {
  const RaySlabs slabs(ray);
  if (!slabs.valid) return;
  float limit = slabs.max_t;
  const auto count = static_cast<std::uint32_t>(boxes.size());
  for (std::uint32_t id = 0; id < count; ++id) {
    float t;
    if (!kept_by_tree(boxes[id]) || !slabs.enters(boxes[id], limit, t)) continue;
    const auto next = static_cast<float>(f(id, t));
    if (next == 0.0f) return;
    if (next > 0.0f && next < limit) limit = next;
  }
}

/// QuadTree::nearest()'s contract over every box: the out.size() nearest by squared_distance(),
/// equal distances by smaller id, nearest first; returns how many (0 for a NaN or infinite
/// point). A scan that keeps `out` sorted, inserting each box that beats the worst kept:
/// O(n + insertions * k), no heap allocation.
inline std::size_t brute_force_nearest(std::span<const Aabb> boxes, float x, float y,
                                       std::span<std::uint32_t> out) {
  const auto finite = [](float v) { return v - v == 0.0f; };
  if (out.empty() || !finite(x) || !finite(y)) return 0;
  std::size_t kept = 0;
  float worst = 0.0f;  // the distance of out[kept - 1] once out is full
  const auto count = static_cast<std::uint32_t>(boxes.size());
  for (std::uint32_t id = 0; id < count; ++id) {
    if (!kept_by_tree(boxes[id])) continue;
    const float d2 = squared_distance(boxes[id], x, y);
    // Ids rise through the scan, so a box at the worst kept distance never beats it.
    if (kept == out.size() && !(d2 < worst)) continue;
    std::size_t at = kept < out.size() ? kept++ : kept - 1;
    while (at > 0 && d2 < squared_distance(boxes[out[at - 1]], x, y)) {
      out[at] = out[at - 1];
      --at;
    }
    out[at] = id;
    if (kept == out.size()) worst = squared_distance(boxes[out[kept - 1]], x, y);
  }
  return kept;
}

}  // namespace quadpool::spatial
