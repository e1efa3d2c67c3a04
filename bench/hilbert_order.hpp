#pragma once
// The order in which the benchmarks create Box2D's proxies: along a Hilbert curve through the
// boxes' centres, so that b2DynamicTree, which inserts one leaf at a time and keeps its nodes in
// allocation order, gets nearby nodes near in memory, as a level created region by region does
// (bench/box2d_pairs.hpp says what random order costs).

#include <cstdint>
#include <span>
#include <vector>

#include "engine/spatial/aabb.hpp"

namespace quadpool::bench {

/// The indices of `boxes`, sorted by the distance along a Hilbert curve over a 65536 x 65536
/// grid laid on the centres' bounding box. O(n log n).
std::vector<std::uint32_t> hilbert_order(std::span<const spatial::Aabb> boxes);

}  // namespace quadpool::bench
