#pragma once
/// The JSON blocks that the headless runner's report and the demo's --frames summary share, so
/// that both spell the same statistics the same way: percentiles, the node pool and the tree.

#include <cstdint>
#include <string>

#include "engine/memory/pool_allocator.hpp"
#include "engine/spatial/quad_tree.hpp"
#include "game/util/json_writer.hpp"
#include "game/sim/percentiles.hpp"

namespace quadpool::game::sim {

/// "key": "SEED": a seed is written as a string of decimal digits, because most JSON tools read
/// numbers as doubles and would round a seed above 2^53, so that a replay from their output would
/// run a different scene.
inline void write_seed(util::JsonWriter& json, const char* key, std::uint64_t seed) {
  json.string(key, std::to_string(seed));
}

/// "median", "p99", "max" inside the object being written (for an object with more fields).
inline void write_percentile_fields(util::JsonWriter& json, const Percentiles& p) {
  json.number("median", p.median);
  json.number("p99", p.p99);
  json.number("max", p.max);
}

/// "key": {"median", "p99", "max"}.
inline void write_percentiles(util::JsonWriter& json, const char* key, const Percentiles& p) {
  json.begin(key);
  write_percentile_fields(json, p);
  json.end();
}

/// "pool": {"capacity", "in_use", "high_water", "chunks", "bytes_reserved"}: the node pool's
/// PoolStats, in_use being its blocks in use when read and high_water the most ever in use.
inline void write_pool_stats(util::JsonWriter& json, const memory::PoolStats& pool) {
  json.begin("pool");
  json.integer("capacity", pool.capacity);
  json.integer("in_use", pool.blocks_in_use);
  json.integer("high_water", pool.high_water);
  json.integer("chunks", pool.chunks);
  json.integer("bytes_reserved", pool.bytes_reserved);
  json.end();
}

/// "tree": {"max_depth", "leaf_capacity", "nodes", "leaves", "max_depth_reached"}: the
/// settings the tree was built with and what the last rebuild made.
inline void write_tree_stats(util::JsonWriter& json, const spatial::QuadTreeConfig& config,
                             const spatial::QuadTreeStats& tree) {
  json.begin("tree");
  json.integer("max_depth", static_cast<std::uint64_t>(config.max_depth));
  json.integer("leaf_capacity", static_cast<std::uint64_t>(config.leaf_capacity));
  json.integer("nodes", tree.nodes);
  json.integer("leaves", tree.leaves);
  json.integer("max_depth_reached", tree.max_depth_reached);
  json.end();
}

}  // namespace quadpool::game::sim
