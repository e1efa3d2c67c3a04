#pragma once
/// The query tool's three questions to the tree, each timed against a scan of every sprite's
/// box that asks the same question with the same test: a box (QuadTree::query), a ray's closest
/// hit (QuadTree::ray_cast) and the k nearest boxes to a point (QuadTree::nearest).

#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/spatial/aabb.hpp"
#include "game/sim/simulation.hpp"
#include "game/window/camera.hpp"

namespace quadpool::game::window {

/// What a shift + drag asks the tree.
enum class QueryMode { Box, Ray, Nearest };

/// "box", "ray", "nearest": the panel's and the summary's spelling.
const char* query_mode_name(QueryMode mode) noexcept;
/// Box, then Ray, then Nearest, then Box again (the Q key's order).
QueryMode next_query_mode(QueryMode mode) noexcept;

/// A query as drawn, in world units: the rectangle between `from` and `to`, the segment from
/// `from` to `to`, or the point `to` (the cursor, for Nearest).
struct QueryShape {
  QueryMode mode = QueryMode::Box;
  ScreenPoint from{0, 0}, to{0, 0};
};

/// The rectangle between a shape's two points.
spatial::Aabb box_of(const QueryShape& shape) noexcept;

/// The sprites a Nearest query asks for.
inline constexpr std::size_t kNearestCount = 8;

/// The last query's numbers, as the overlay and the summary show them.
struct QueryStats {
  QueryMode mode = QueryMode::Box;
  std::size_t hits = 0;        // sprites the tree returned (a ray: 1 or 0)
  std::size_t brute_hits = 0;  // sprites the scan returned (the same, or a bug)
  double tree_us = 0;          // the tree's query, microseconds (best of a few runs)
  double brute_us = 0;         // the scan of every sprite's box, microseconds (likewise)
  bool agree = true;           // the scan's answer is the tree's (see run_timed_query)
  float ray_t = 0;             // a ray's hit: where along the segment, 0 at `from`, 1 at `to`
};

/// Asks `sim`'s tree the question of `shape` and writes its answer to `ids`: the boxes that
/// overlap the rectangle, in the tree's order; the sprite whose box the segment enters first
/// (the least t, then the smaller index); the kNearestCount nearest boxes to the point, nearest
/// first. Then asks a scan of Simulation::last_boxes() the same (the engine's brute-force
/// references, the same slab test and distance), into `brute_ids`, and compares: the same set
/// of boxes, the same hit at the same t, the same ids in the same order. Each side is timed,
/// best of 3 runs. Allocates when the buffers grow, and for a box a sorted copy of the tree's
/// answer to compare.
QueryStats run_timed_query(const sim::Simulation& sim, const QueryShape& shape,
                           std::vector<std::uint32_t>& ids, std::vector<std::uint32_t>& brute_ids);

}  // namespace quadpool::game::window
