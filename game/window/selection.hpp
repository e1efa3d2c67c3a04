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
#include "game/window/camera.hpp"
#include "game/sim/simulation.hpp"

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
  /// A point pick's sprite, if one was under the cursor: its index at the last update() (the
  /// simulation moves sprites in memory; the pick follows its sprite by id), and its leaf's
  /// quadrant.
  std::optional<std::uint32_t> picked() const noexcept { return picked_; }
  /// The picked sprite's id (Simulation::ids()), which stays with it.
  std::optional<std::uint32_t> picked_id() const noexcept { return picked_id_; }
  const std::optional<spatial::Aabb>& picked_leaf() const noexcept { return leaf_; }
  /// A sprite is picked.
  bool picking() const noexcept { return picked_id_.has_value(); }

  /// How far from a sprite's edge a click still picks it, screen pixels: at the default zoom
  /// sprites are a few pixels across, and a click needs no pixel precision.
  static constexpr float kPickPixels = 6.0f;

  /// The sprite nearest world point `at` among those whose circle comes within `reach` world
  /// units of it: the least distance to the circle (0 inside it), then the nearest centre.
  /// Found through the tree's query on a box of half-size `reach` around the point; none when
  /// nothing is that close.
  static std::optional<std::uint32_t> sprite_at(const sim::Simulation& sim, ScreenPoint at,
                                                float reach);
  /// The quadrant of the leaf that holds sprite `id` in the last tick's tree.
  static std::optional<spatial::Aabb> leaf_of(const sim::Simulation& sim, std::uint32_t id);

 private:
  void run_query(const sim::Simulation& sim);

  std::optional<spatial::Aabb> region_;
  ScreenPoint from_{0, 0};
  bool dragging_ = false;
  std::vector<std::uint32_t> ids_;
  std::optional<QueryStats> stats_;
  std::optional<ScreenPoint> pick_at_;      // world point of a click not yet resolved
  float pick_reach_ = 0.0f;                 // its reach in world units (kPickPixels at its zoom)
  std::optional<std::uint32_t> picked_id_;  // the pick, by id
  std::optional<std::uint32_t> picked_;     // its index at the last update()
  std::optional<spatial::Aabb> leaf_;
};

}  // namespace quadpool::game::window
