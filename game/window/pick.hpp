#pragma once
/// The query tool's point pick: the sprite nearest a shift + click, found with
/// QuadTree::nearest, and the tree leaf that holds it.

#include <cstddef>
#include <cstdint>
#include <optional>

#include "engine/spatial/aabb.hpp"
#include "game/sim/simulation.hpp"
#include "game/window/camera.hpp"

namespace quadpool::game::window {

class Pick {
 public:
  /// Asks for a pick at world point `at`, reaching `reach` world units past a sprite's edge;
  /// the next update() resolves it.
  void request(ScreenPoint at, float reach) noexcept;
  /// Forgets the pick and any request.
  void clear() noexcept;
  /// Resolves a request (a click on empty space clears the pick), or follows the picked sprite
  /// by its id through the simulation's reordering; clears the pick when its sprite is gone.
  void update(const sim::Simulation& sim);

  /// The picked sprite's index at the last update() (the simulation moves sprites in memory;
  /// the pick follows its sprite by id).
  std::optional<std::uint32_t> picked() const noexcept { return picked_; }
  /// The picked sprite's id (Simulation::ids()), which stays with it.
  std::optional<std::uint32_t> picked_id() const noexcept { return picked_id_; }
  /// The quadrant of the leaf that holds the picked sprite.
  const std::optional<spatial::Aabb>& leaf() const noexcept { return leaf_; }
  /// A sprite is picked.
  bool picking() const noexcept { return picked_id_.has_value(); }

  /// The boxes a pick asks the tree for at first: more than a click's reach holds at the
  /// default zoom, so that a second call is rare.
  static constexpr std::size_t kCandidates = 8;

  /// The sprite nearest world point `at` among those whose circle comes within `reach` world
  /// units of it: the least gap() (0 inside the circle), then the nearest centre, then the
  /// smaller index. The circles are those the last tick's tree was built from (the circle in
  /// each of Simulation::last_boxes(); the tick's contacts may since have pushed a sprite by a
  /// fraction of its radius), so that the tree and a scan of every box agree exactly. Found
  /// with QuadTree::nearest: the kCandidates nearest boxes, more while the last of them is
  /// within `reach` (a box is never farther than the circle inside it), then each candidate's
  /// circle; none when nothing is that close.
  static std::optional<std::uint32_t> sprite_at(const sim::Simulation& sim, ScreenPoint at,
                                                float reach);
  /// How far point `at` is from the edge of the circle inscribed in `box` (0 inside it), and in
  /// `centre_d2` the squared distance to its centre: the pick's measure, for sprite_at() and a
  /// scan of every box alike.
  static float gap(const spatial::Aabb& box, ScreenPoint at, float& centre_d2) noexcept;
  /// The quadrant of the leaf that holds sprite `id` in the last tick's tree.
  static std::optional<spatial::Aabb> leaf_of(const sim::Simulation& sim, std::uint32_t id);

 private:
  std::optional<ScreenPoint> at_;           // world point of a click not yet resolved
  float reach_ = 0.0f;                      // its reach in world units
  std::optional<std::uint32_t> picked_id_;  // the pick, by id
  std::optional<std::uint32_t> picked_;     // its index at the last update()
  std::optional<spatial::Aabb> leaf_;
};

}  // namespace quadpool::game::window
