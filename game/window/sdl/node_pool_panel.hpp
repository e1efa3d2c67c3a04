#pragma once
/// The lab panel's node pool section: the tree's pools' occupancy as a bar (per worker in its
/// tooltip), their counters, and a strip of every chunk's blocks, live, free or never used. In
/// play the game pools' table (play_hud.hpp) shows the tree's pool as its last row instead.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/memory/pool_allocator.hpp"
#include "engine/spatial/quad_tree.hpp"

namespace quadpool::game::window::sdl {

class NodePoolPanel {
 public:
  /// Inside the panel's ImGui window, `width` pixels wide at UI scale `scale`. `nodes_from` is
  /// the allocator of the last rebuild, `workers` the task system's; `frame` paces the strip's
  /// refresh.
  void draw(const spatial::QuadTree& tree, memory::AllocatorKind nodes_from, std::uint32_t workers,
            std::uint64_t frame, float width, float scale);

 private:
  void refresh_chunk_states(const spatial::QuadTree& tree, std::size_t chunks, std::uint64_t frame);
  void draw_chunk_strip(std::size_t chunks, std::size_t per_chunk, float width, float scale);

  std::vector<memory::BlockState> chunk_states_;  // every chunk's blocks, refreshed now and then
};

}  // namespace quadpool::game::window::sdl
