#pragma once
/// The query tool. Shift + left drag: a world rectangle whose sprites QuadTree::query returns
/// after each tick, timed against a brute-force scan of every sprite for the same rectangle.
/// Shift + click: a point pick, the sprite under the cursor and the tree leaf that holds it.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "engine/spatial/aabb.hpp"
#include "game/sim/simulation.hpp"
#include "game/window/camera.hpp"
#include "game/window/pick.hpp"

namespace quadpool::game::window {

/// The last box query, as the overlay shows it.
struct QueryStats {
  std::size_t hits = 0;        // sprites QuadTree::query returned
  std::size_t brute_hits = 0;  // sprites the brute-force scan found (the same, or a bug)
  double tree_us = 0;          // the tree's query, microseconds (best of a few runs)
  double brute_us = 0;         // the scan of every sprite's box, microseconds (likewise)
};

class Selection {
 public:
  /// Starts a drag at world point `at`.
  void begin_drag(ScreenPoint at) noexcept;
  /// Stretches the rectangle to world point `at` while a drag is going.
  void drag_to(ScreenPoint at) noexcept;
  /// Ends a drag. One that covers under 3 pixels (`world_per_pixel` world units each) was a
  /// click: it becomes a point pick at its start, reaching kPickPixels around it.
  void end_drag(float world_per_pixel) noexcept;
  /// Forgets the rectangle, the pick and their sprites.
  void clear() noexcept;
  /// Runs the query (or the pick) on `sim`'s tree (nothing before the first tick).
  void update(const sim::Simulation& sim);

  bool dragging() const noexcept { return dragging_; }
  const std::optional<spatial::Aabb>& region() const noexcept { return region_; }
  /// The sprites the last update() found: the query's, in the tree's order, or the picked one.
  std::span<const std::uint32_t> ids() const noexcept { return ids_; }
  /// The box query's numbers (no value for a pick or without a rectangle).
  const std::optional<QueryStats>& stats() const noexcept { return stats_; }
  /// The point pick (a click), its sprite and leaf.
  const Pick& pick() const noexcept { return pick_; }

  /// How far from a sprite's edge a click still picks it, screen pixels: at the default zoom
  /// sprites are a few pixels across, and a click needs no pixel precision.
  static constexpr float kPickPixels = 6.0f;

 private:
  void run_query(const sim::Simulation& sim);

  std::optional<spatial::Aabb> region_;
  ScreenPoint from_{0, 0};
  bool dragging_ = false;
  std::vector<std::uint32_t> ids_;
  std::optional<QueryStats> stats_;
  Pick pick_;
};

}  // namespace quadpool::game::window
