#include "game/window/selection.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "common/scene/scene.hpp"

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
    pick_at_ = from_;
    pick_reach_ = kPickPixels * world_per_pixel;
  }
}

void Selection::clear() noexcept {
  region_.reset();
  dragging_ = false;
  ids_.clear();
  stats_.reset();
  pick_at_.reset();
  picked_id_.reset();
  picked_.reset();
  leaf_.reset();
}

void Selection::update(const sim::Simulation& sim) {
  ids_.clear();
  stats_.reset();
  leaf_.reset();
  picked_.reset();
  if (sim.ticks() == 0) return;
  if (region_) run_query(sim);
  if (pick_at_) {
    // A click picks once; the pick then follows its sprite. A click on empty space clears.
    picked_ = sprite_at(sim, *pick_at_, pick_reach_);
    picked_id_.reset();
    if (picked_) picked_id_ = sim.ids()[*picked_];
    pick_at_.reset();
  } else if (picked_id_) {
    // The sprite's index changes when the simulation sorts or removes sprites; its id does not.
    const std::span<const std::uint32_t> ids = sim.ids();
    const auto found = std::find(ids.begin(), ids.end(), *picked_id_);
    if (found != ids.end()) picked_ = static_cast<std::uint32_t>(found - ids.begin());
  }
  if (picked_) {
    ids_.push_back(*picked_);
    leaf_ = leaf_of(sim, *picked_);
  } else {
    picked_id_.reset();  // removed from the scene
  }
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

std::optional<std::uint32_t> Selection::sprite_at(const sim::Simulation& sim, ScreenPoint at,
                                                  float reach) {
  const std::span<const scene::Sprite> sprites = sim.sprites();
  reach = std::max(reach, 0.0f);
  std::optional<std::uint32_t> found;
  float best_gap = std::numeric_limits<float>::infinity();
  float best_d2 = best_gap;
  // A circle within `reach` of the point has its box within `reach` of it on both axes, so
  // the query on this box returns every candidate.
  const spatial::Aabb around{at.x - reach, at.y - reach, at.x + reach, at.y + reach};
  sim.tree().query(around, [&](std::uint32_t id) {
    if (id >= sprites.size()) return;
    const scene::Sprite& s = sprites[id];
    const float d2 = (s.x - at.x) * (s.x - at.x) + (s.y - at.y) * (s.y - at.y);
    const float gap = std::max(0.0f, std::sqrt(d2) - s.radius);
    if (gap > reach) return;
    if (gap < best_gap || (gap == best_gap && d2 < best_d2)) {
      best_gap = gap;
      best_d2 = d2;
      found = id;
    }
  });
  return found;
}

std::optional<spatial::Aabb> Selection::leaf_of(const sim::Simulation& sim, std::uint32_t id) {
  // The leaf that holds a box is the deepest node whose quadrant holds the box's centre (the
  // tree's placement rule), so the deepest visited quadrant holding the centre of the box the
  // tree was built from.
  const std::span<const spatial::Aabb> boxes = sim.last_boxes();
  if (id >= boxes.size()) return std::nullopt;
  const spatial::Aabb& box = boxes[id];
  const float cx = 0.5f * (box.min_x + box.max_x), cy = 0.5f * (box.min_y + box.max_y);
  std::optional<spatial::Aabb> leaf;
  int deepest = -1;
  sim.tree().for_each_node([&](const spatial::Aabb& quadrant, int depth) {
    const bool holds = cx >= quadrant.min_x && cx <= quadrant.max_x && cy >= quadrant.min_y &&
                       cy <= quadrant.max_y;
    if (holds && depth > deepest) {
      deepest = depth;
      leaf = quadrant;
    }
  });
  return leaf;
}

}  // namespace quadpool::game::window
