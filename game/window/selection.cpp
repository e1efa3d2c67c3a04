#include "game/window/selection.hpp"

namespace quadpool::game::window {

void Selection::set_mode(QueryMode mode) noexcept {
  clear();
  mode_ = mode;
}

void Selection::begin_drag(ScreenPoint at) noexcept {
  clear();
  dragging_ = true;
  shape_ = QueryShape{mode_, at, at};
}

void Selection::drag_to(ScreenPoint at) noexcept {
  if (!dragging_ || !shape_) return;
  shape_->to = at;
}

void Selection::end_drag(float world_per_pixel) noexcept {
  if (!dragging_) return;
  dragging_ = false;
  if (!shape_ || shape_->mode == QueryMode::Nearest) return;
  const float click = 3.0f * world_per_pixel;
  const spatial::Aabb covered = box_of(*shape_);
  if (covered.max_x - covered.min_x < click && covered.max_y - covered.min_y < click) {
    pick_.request(shape_->from, kPickPixels * world_per_pixel);
    shape_.reset();
  }
}

void Selection::clear() noexcept {
  shape_.reset();
  dragging_ = false;
  ids_.clear();
  stats_.reset();
  pick_.clear();
}

std::optional<spatial::Aabb> Selection::region() const noexcept {
  if (!shape_ || shape_->mode != QueryMode::Box) return std::nullopt;
  return box_of(*shape_);
}

void Selection::update(const sim::Simulation& sim) {
  ids_.clear();
  stats_.reset();
  if (sim.ticks() > 0 && shape_) stats_ = run_timed_query(sim, *shape_, ids_, brute_ids_);
  pick_.update(sim);
  if (pick_.picked()) ids_.push_back(*pick_.picked());
}

}  // namespace quadpool::game::window
