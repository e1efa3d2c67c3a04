#include "game/window/selection.hpp"

#include <algorithm>
#include <chrono>
#include <limits>

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

}  // namespace

void Selection::begin_drag(ScreenPoint at) noexcept {
  clear();
  dragging_ = true;
  from_ = at;
  region_ = spatial::Aabb{at.x, at.y, at.x, at.y};
}

void Selection::drag_to(ScreenPoint at) noexcept {
  if (!dragging_) return;
  region_ = spatial::Aabb{std::min(from_.x, at.x), std::min(from_.y, at.y), std::max(from_.x, at.x),
                          std::max(from_.y, at.y)};
}

void Selection::end_drag(float world_per_pixel) noexcept {
  if (!dragging_) return;
  dragging_ = false;
  const float click = 3.0f * world_per_pixel;
  if (region_ && region_->max_x - region_->min_x < click &&
      region_->max_y - region_->min_y < click) {
    region_.reset();
    pick_.request(from_, kPickPixels * world_per_pixel);
  }
}

void Selection::clear() noexcept {
  region_.reset();
  dragging_ = false;
  ids_.clear();
  stats_.reset();
  pick_.clear();
}

void Selection::update(const sim::Simulation& sim) {
  ids_.clear();
  stats_.reset();
  if (sim.ticks() > 0 && region_) run_query(sim);
  pick_.update(sim);
  if (pick_.picked()) ids_.push_back(*pick_.picked());
}

void Selection::run_query(const sim::Simulation& sim) {
  const spatial::Aabb area = *region_;
  QueryStats stats;
  stats.tree_us = best_microseconds([&] {
    ids_.clear();
    sim.tree().query(area, [this](std::uint32_t id) { ids_.push_back(id); });
  });
  stats.hits = ids_.size();
  // The same question without the tree: every box the tick built the tree from.
  const std::span<const spatial::Aabb> boxes = sim.last_boxes();
  stats.brute_us = best_microseconds([&] {
    stats.brute_hits = 0;
    for (const spatial::Aabb& box : boxes) stats.brute_hits += spatial::overlaps(box, area) ? 1 : 0;
  });
  stats_ = stats;
}

}  // namespace quadpool::game::window
