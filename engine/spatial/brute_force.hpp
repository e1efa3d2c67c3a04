#pragma once
/// The obvious O(n^2) broad phase: the reference that the QuadTree's tests and benchmark compare
/// against. Same callback contract as QuadTree, same ids (a box's index).

#include <cstdint>
#include <span>

#include "engine/spatial/aabb.hpp"

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

}  // namespace quadpool::spatial
