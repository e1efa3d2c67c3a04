#include "game/window/pick.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <span>
#include <vector>

namespace quadpool::game::window {

void Pick::request(ScreenPoint at, float reach) noexcept {
  at_ = at;
  reach_ = reach;
}

void Pick::clear() noexcept {
  at_.reset();
  picked_id_.reset();
  picked_.reset();
  leaf_.reset();
}

void Pick::update(const sim::Simulation& sim) {
  leaf_.reset();
  picked_.reset();
  if (sim.ticks() == 0) return;
  if (at_) {
    // A click picks once; the pick then follows its sprite. A click on empty space clears.
    picked_ = sprite_at(sim, *at_, reach_);
    picked_id_.reset();
    if (picked_) picked_id_ = sim.ids()[*picked_];
    at_.reset();
  } else if (picked_id_) {
    // The sprite's index changes when the simulation sorts or removes sprites; its id does not.
    const std::span<const std::uint32_t> ids = sim.ids();
    const auto found = std::find(ids.begin(), ids.end(), *picked_id_);
    if (found != ids.end()) picked_ = static_cast<std::uint32_t>(found - ids.begin());
  }
  if (picked_) {
    leaf_ = leaf_of(sim, *picked_);
  } else {
    picked_id_.reset();  // removed from the scene
  }
}

float Pick::gap(const spatial::Aabb& box, ScreenPoint at, float& centre_d2) noexcept {
  const float cx = 0.5f * (box.min_x + box.max_x), cy = 0.5f * (box.min_y + box.max_y);
  const float radius = 0.5f * (box.max_x - box.min_x);
  centre_d2 = (cx - at.x) * (cx - at.x) + (cy - at.y) * (cy - at.y);
  return std::max(0.0f, std::sqrt(centre_d2) - radius);
}

std::optional<std::uint32_t> Pick::sprite_at(const sim::Simulation& sim, ScreenPoint at,
                                             float reach) {
  const std::span<const spatial::Aabb> boxes = sim.last_boxes();
  reach = std::max(reach, 0.0f);
  // The box around a circle is never farther from the point than the circle's edge, so the
  // boxes within `reach` hold every candidate. The margin covers the rounding of the two
  // measures; a candidate past `reach` is dropped below by its circle's gap.
  const float limit = reach * (1.0f + 1e-5f) + 1e-3f;
  const float limit2 = limit * limit;
  std::array<std::uint32_t, kCandidates> first{};
  std::vector<std::uint32_t> more;  // only when more than kCandidates boxes are within reach
  std::span<std::uint32_t> out = first;
  std::size_t count = sim.tree().nearest(at.x, at.y, out);
  while (count == out.size() && out.size() < boxes.size() &&
         spatial::squared_distance(boxes[out.back()], at.x, at.y) <= limit2) {
    more.resize(std::min(boxes.size(), 4 * out.size()));
    out = more;
    count = sim.tree().nearest(at.x, at.y, out);
  }
  std::optional<std::uint32_t> found;
  float best_gap = std::numeric_limits<float>::infinity();
  float best_d2 = best_gap;
  for (const std::uint32_t id : out.first(count)) {
    if (id >= boxes.size() || id >= sim.sprites().size()) continue;
    if (spatial::squared_distance(boxes[id], at.x, at.y) > limit2) break;  // nearest first
    float d2 = 0.0f;
    const float g = gap(boxes[id], at, d2);
    if (g > reach) continue;
    // Equal gaps and centres (stacked sprites) go to the smaller index, as in a scan.
    if (g < best_gap || (g == best_gap && (d2 < best_d2 || (d2 == best_d2 && id < *found)))) {
      best_gap = g;
      best_d2 = d2;
      found = id;
    }
  }
  return found;
}

std::optional<spatial::Aabb> Pick::leaf_of(const sim::Simulation& sim, std::uint32_t id) {
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
