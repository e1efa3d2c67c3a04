#pragma once
// QuadTree::ray_cast() and nearest() against their brute-force references, one query at a time:
// shared by spatial_tests (quad_tree_queries_test.cpp) and the fuzz input
// (quad_tree_input.hpp). Each check returns "" when the tree agrees, else a description that
// names the query with its floats in hex (%a), so that a failure can be replayed exactly.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "engine/spatial/aabb.hpp"
#include "engine/spatial/brute_force.hpp"
#include "engine/spatial/quad_tree.hpp"
#include "engine/spatial/ray.hpp"

namespace quadpool::test {

struct RayHit {
  std::uint32_t id;
  float t;
  bool operator==(const RayHit&) const = default;
  bool operator<(const RayHit& o) const { return std::tie(t, id) < std::tie(o.t, o.id); }
};

inline std::string describe(const spatial::Ray& ray) {
  char text[160];
  std::snprintf(text, sizeof text, "ray {%a, %a, %a, %a, %a}", static_cast<double>(ray.origin_x),
                static_cast<double>(ray.origin_y), static_cast<double>(ray.dir_x),
                static_cast<double>(ray.dir_y), static_cast<double>(ray.max_t));
  return text;
}

/// Every box on the ray (a callback that keeps the limit), sorted by (t, id).
template <class Cast>
std::vector<RayHit> all_hits(Cast&& cast) {
  std::vector<RayHit> hits;
  cast([&](std::uint32_t id, float t) {
    hits.push_back({id, t});
    return std::numeric_limits<float>::infinity();
  });
  std::sort(hits.begin(), hits.end());
  return hits;
}

/// Compares three callbacks whose answers do not depend on the order: visit all, closest hit,
/// stop at the first.
inline std::string check_ray(const spatial::QuadTree& tree, std::span<const spatial::Aabb> boxes,
                             const spatial::Ray& ray) {
  const auto tree_cast = [&](auto&& f) { tree.ray_cast(ray, f); };
  const auto brute_cast = [&](auto&& f) { spatial::brute_force_ray_cast(boxes, ray, f); };
  const std::vector<RayHit> expected = all_hits(brute_cast);
  const std::vector<RayHit> reported = all_hits(tree_cast);
  if (reported != expected) {
    return describe(ray) + ": visiting all, the tree reports " + std::to_string(reported.size()) +
           " hits, brute force " + std::to_string(expected.size()) +
           " (or the same count with other ids or t)";
  }
  // Closest hit: the callback returns its t, so the tree may stop early.
  RayHit best{0, std::numeric_limits<float>::infinity()};
  bool any = false;
  tree.ray_cast(ray, [&](std::uint32_t id, float t) {
    if (!any || RayHit{id, t} < best) best = {id, t};
    any = true;
    return t;
  });
  if (any != !expected.empty() ||
      (any && std::find(expected.begin(), expected.end(), best) == expected.end()) ||
      (any && best.t != expected.front().t)) {
    return describe(ray) + ": the closest hit differs from brute force's";
  }
  // Stop at the first: exactly one report, of a box on the ray.
  std::vector<RayHit> first;
  tree.ray_cast(ray, [&](std::uint32_t id, float t) {
    first.push_back({id, t});
    return 0.0f;
  });
  if (first.size() != (expected.empty() ? 0u : 1u) ||
      (!first.empty() && std::find(expected.begin(), expected.end(), first[0]) == expected.end())) {
    return describe(ray) + ": a callback returning 0 did not stop after one box on the ray";
  }
  return {};
}

/// Compares nearest(x, y) for k boxes: the same ids in the same order.
inline std::string check_nearest(const spatial::QuadTree& tree,
                                 std::span<const spatial::Aabb> boxes, float x, float y,
                                 std::size_t k) {
  std::vector<std::uint32_t> reported(k, 0xDEADBEEF), expected(k, 0xDEADBEEF);
  const std::size_t got = tree.nearest(x, y, reported);
  const std::size_t want = spatial::brute_force_nearest(boxes, x, y, expected);
  if (got != want || reported != expected) {
    char text[200];
    std::snprintf(text, sizeof text,
                  "nearest(%a, %a) with k = %zu: the tree returns %zu ids, brute force %zu%s",
                  static_cast<double>(x), static_cast<double>(y), k, got, want,
                  got == want ? " (other ids or another order)" : "");
    return text;
  }
  return {};
}

}  // namespace quadpool::test
