#include "game/demo/selection.hpp"

#include <algorithm>

namespace quadpool::game::demo {

void Selection::begin_drag(ScreenPoint at) noexcept {
  dragging_ = true;
  from_ = at;
  region_ = spatial::Aabb{at.x, at.y, at.x, at.y};
}

void Selection::drag_to(ScreenPoint at) noexcept {
  if (!dragging_) return;
  region_ = spatial::Aabb{std::min(from_.x, at.x), std::min(from_.y, at.y), std::max(from_.x, at.x),
                          std::max(from_.y, at.y)};
}

void Selection::clear() noexcept {
  region_.reset();
  dragging_ = false;
  ids_.clear();
}

void Selection::update(const Simulation& sim) {
  ids_.clear();
  if (!region_ || sim.ticks() == 0) return;
  sim.tree().query(*region_, [this](std::uint32_t id) { ids_.push_back(id); });
}

}  // namespace quadpool::game::demo
