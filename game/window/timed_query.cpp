#include "game/window/timed_query.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <iterator>
#include <limits>
#include <span>

#include "engine/spatial/brute_force.hpp"
#include "engine/spatial/ray.hpp"

namespace quadpool::game::window {

namespace {

// Best of kRuns: one run of a few microseconds is mostly timer and cache noise.
constexpr int kRuns = 3;

template <class F>
double best_microseconds(F&& f) {
  using Clock = std::chrono::steady_clock;
  double best = std::numeric_limits<double>::infinity();
  for (int run = 0; run < kRuns; ++run) {
    const Clock::time_point start = Clock::now();
    f();
    best = std::min(best, std::chrono::duration<double, std::micro>(Clock::now() - start).count());
  }
  return best;
}

QueryStats run_box(const sim::Simulation& sim, const spatial::Aabb& area,
                   std::vector<std::uint32_t>& ids, std::vector<std::uint32_t>& brute_ids) {
  QueryStats stats;
  stats.tree_us = best_microseconds([&] {
    ids.clear();
    sim.tree().query(area, [&ids](std::uint32_t id) { ids.push_back(id); });
  });
  stats.brute_us = best_microseconds([&] {
    brute_ids.clear();
    spatial::brute_force_query(sim.last_boxes(), area,
                               [&brute_ids](std::uint32_t id) { brute_ids.push_back(id); });
  });
  stats.hits = ids.size();
  stats.brute_hits = brute_ids.size();
  // The scan answers in id order, the tree in its own (which ids() keeps): compare a sorted
  // copy of the tree's with the scan's.
  if (stats.hits == stats.brute_hits) {
    std::vector<std::uint32_t> sorted(ids);
    std::sort(sorted.begin(), sorted.end());
    stats.agree = sorted == brute_ids;
  } else {
    stats.agree = false;
  }
  return stats;
}

// The closest hit: the least t, then the smaller id. Returning t keeps the limit at t, so
// boxes entered at the same t still come, whichever order the walk takes; but 0 would end the
// cast at the first box holding the segment's start, so t = 0 becomes the least positive float,
// which only a box entered at 0 (or at that float) still meets.
struct ClosestHit {
  float t = std::numeric_limits<float>::infinity();
  std::uint32_t id = std::numeric_limits<std::uint32_t>::max();
  bool found = false;
  float operator()(std::uint32_t hit, float at) noexcept {
    if (!found || at < t || (at == t && hit < id)) {
      t = at;
      id = hit;
      found = true;
    }
    return std::max(at, std::numeric_limits<float>::denorm_min());
  }
};

QueryStats run_ray(const sim::Simulation& sim, const QueryShape& shape,
                   std::vector<std::uint32_t>& ids, std::vector<std::uint32_t>& brute_ids) {
  // The segment as a ray of length 1 in units of its direction: t is the fraction of the drag.
  const spatial::Ray ray{shape.from.x, shape.from.y, shape.to.x - shape.from.x,
                         shape.to.y - shape.from.y, 1.0f};
  QueryStats stats;
  ClosestHit tree_hit, brute_hit;
  stats.tree_us = best_microseconds([&] {
    tree_hit = {};
    sim.tree().ray_cast(ray, [&tree_hit](std::uint32_t id, float t) { return tree_hit(id, t); });
  });
  stats.brute_us = best_microseconds([&] {
    brute_hit = {};
    spatial::brute_force_ray_cast(sim.last_boxes(), ray, [&brute_hit](std::uint32_t id, float t) {
      return brute_hit(id, t);
    });
  });
  ids.clear();
  brute_ids.clear();
  if (tree_hit.found) ids.push_back(tree_hit.id);
  if (brute_hit.found) brute_ids.push_back(brute_hit.id);
  stats.hits = ids.size();
  stats.brute_hits = brute_ids.size();
  stats.ray_t = tree_hit.found ? tree_hit.t : 0.0f;
  stats.agree = ids == brute_ids && (!tree_hit.found || tree_hit.t == brute_hit.t);
  return stats;
}

QueryStats run_nearest(const sim::Simulation& sim, ScreenPoint at, std::vector<std::uint32_t>& ids,
                       std::vector<std::uint32_t>& brute_ids) {
  QueryStats stats;
  std::array<std::uint32_t, kNearestCount> tree_out{}, brute_out{};
  std::size_t tree_count = 0, brute_count = 0;
  stats.tree_us = best_microseconds([&] { tree_count = sim.tree().nearest(at.x, at.y, tree_out); });
  stats.brute_us = best_microseconds(
      [&] { brute_count = spatial::brute_force_nearest(sim.last_boxes(), at.x, at.y, brute_out); });
  ids.assign(tree_out.begin(), tree_out.begin() + static_cast<std::ptrdiff_t>(tree_count));
  brute_ids.assign(brute_out.begin(), brute_out.begin() + static_cast<std::ptrdiff_t>(brute_count));
  stats.hits = tree_count;
  stats.brute_hits = brute_count;
  stats.agree = ids == brute_ids;
  return stats;
}

}  // namespace

// In QueryMode's order.
constexpr const char* kModeNames[] = {"box", "ray", "nearest"};
constexpr int kModes = static_cast<int>(std::size(kModeNames));

const char* query_mode_name(QueryMode mode) noexcept {
  const int index = static_cast<int>(mode);
  return index >= 0 && index < kModes ? kModeNames[index] : "?";
}

QueryMode next_query_mode(QueryMode mode) noexcept {
  return static_cast<QueryMode>((static_cast<int>(mode) + 1) % kModes);
}

spatial::Aabb box_of(const QueryShape& shape) noexcept {
  return {std::min(shape.from.x, shape.to.x), std::min(shape.from.y, shape.to.y),
          std::max(shape.from.x, shape.to.x), std::max(shape.from.y, shape.to.y)};
}

QueryStats run_timed_query(const sim::Simulation& sim, const QueryShape& shape,
                           std::vector<std::uint32_t>& ids, std::vector<std::uint32_t>& brute_ids) {
  QueryStats stats;
  switch (shape.mode) {
    case QueryMode::Box:
      stats = run_box(sim, box_of(shape), ids, brute_ids);
      break;
    case QueryMode::Ray:
      stats = run_ray(sim, shape, ids, brute_ids);
      break;
    case QueryMode::Nearest:
      stats = run_nearest(sim, shape.to, ids, brute_ids);
      break;
  }
  stats.mode = shape.mode;
  return stats;
}

}  // namespace quadpool::game::window
