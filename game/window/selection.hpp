#pragma once
/// The query tool. Shift + left drag asks the tree, after each tick, the question of the mode
/// (QueryMode): the sprites in a rectangle (QuadTree::query), the first sprite along a segment
/// (QuadTree::ray_cast) or the kNearestCount sprites nearest a point (QuadTree::nearest), each
/// timed against a scan of every sprite (timed_query.hpp). Shift + click, in the box and ray
/// modes: a point pick (Pick), the sprite under the cursor and the tree leaf that holds it.

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "engine/spatial/aabb.hpp"
#include "game/sim/simulation.hpp"
#include "game/window/camera.hpp"
#include "game/window/pick.hpp"
#include "game/window/timed_query.hpp"

namespace quadpool::game::window {

class Selection {
 public:
  /// Chooses what the next drag asks; forgets the current query and the pick.
  void set_mode(QueryMode mode) noexcept;
  QueryMode mode() const noexcept { return mode_; }

  /// Starts a drag at world point `at`.
  void begin_drag(ScreenPoint at) noexcept;
  /// Moves the drag's end (the rectangle's corner, the segment's end, the nearest query's
  /// point) to world point `at` while a drag is going.
  void drag_to(ScreenPoint at) noexcept;
  /// Ends a drag. In the box and ray modes one that covers under 3 pixels (`world_per_pixel`
  /// world units each) was a click: it becomes a point pick at its start, reaching kPickPixels
  /// around it. In the nearest mode the point stays where the drag ended.
  void end_drag(float world_per_pixel) noexcept;
  /// Forgets the query, the pick and their sprites (the mode stays).
  void clear() noexcept;
  /// Runs the query and the pick on `sim`'s tree (nothing before the first tick).
  void update(const sim::Simulation& sim);

  bool dragging() const noexcept { return dragging_; }
  /// The query as drawn, if any.
  const std::optional<QueryShape>& shape() const noexcept { return shape_; }
  /// The box mode's rectangle, if any.
  std::optional<spatial::Aabb> region() const noexcept;
  /// The sprites the last update() found: the query's (a box's in the tree's order, a ray's
  /// hit, the nearest nearest first) and the picked one.
  std::span<const std::uint32_t> ids() const noexcept { return ids_; }
  /// The query's numbers (no value without a query).
  const std::optional<QueryStats>& stats() const noexcept { return stats_; }
  /// The point pick (a click), its sprite and leaf.
  const Pick& pick() const noexcept { return pick_; }

  /// How far from a sprite's edge a click still picks it, screen pixels: at the default zoom
  /// sprites are a few pixels across, and a click needs no pixel precision.
  static constexpr float kPickPixels = 6.0f;

 private:
  QueryMode mode_ = QueryMode::Box;
  std::optional<QueryShape> shape_;
  bool dragging_ = false;
  std::vector<std::uint32_t> ids_;
  std::vector<std::uint32_t> brute_ids_;  // the scan's answer, to compare
  std::optional<QueryStats> stats_;
  Pick pick_;
};

}  // namespace quadpool::game::window
