#pragma once
/// The selection tool: a world rectangle dragged with shift + left button, and the sprites
/// QuadTree::query returns for it after each tick.

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "engine/spatial/aabb.hpp"
#include "game/demo/camera.hpp"
#include "game/simulation.hpp"

namespace quadpool::game::demo {

class Selection {
 public:
  /// Starts a drag at world point `at`.
  void begin_drag(ScreenPoint at) noexcept;
  /// Stretches the rectangle to world point `at` while a drag is going.
  void drag_to(ScreenPoint at) noexcept;
  void end_drag() noexcept { dragging_ = false; }
  /// Forgets the rectangle and its sprites.
  void clear() noexcept;
  /// Queries `sim`'s tree for the rectangle (nothing before the first tick).
  void update(const Simulation& sim);

  bool dragging() const noexcept { return dragging_; }
  const std::optional<spatial::Aabb>& region() const noexcept { return region_; }
  /// The sprites the last update() found, in the tree's order.
  std::span<const std::uint32_t> ids() const noexcept { return ids_; }

 private:
  std::optional<spatial::Aabb> region_;
  ScreenPoint from_{0, 0};
  bool dragging_ = false;
  std::vector<std::uint32_t> ids_;
};

}  // namespace quadpool::game::demo
