#pragma once
/// The per-frame quad-tree. (The class arrives with its issue; the configuration types are
/// fixed by the contract already.)

#include <cstddef>

#include "engine/spatial/aabb.hpp"

namespace quadpool::spatial {

enum class AllocatorKind { Pool, NewDelete };

struct QuadTreeConfig {
  Aabb bounds;
  int max_depth = 8;
  int leaf_capacity = 8;
};

struct QuadTreeStats {
  std::size_t nodes, leaves, items, max_depth_reached;
};

}  // namespace quadpool::spatial
