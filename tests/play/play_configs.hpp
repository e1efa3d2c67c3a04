#pragma once
// The PlayConfig the play tests start from: a Uniform field of `sprites` rocks from `seed`,
// with the heap counter on so that any tick's allocations can be checked.

#include <cstddef>
#include <cstdint>

#include "common/heap_counter.hpp"
#include "engine/spatial/quad_tree.hpp"
#include "game/play/play_config.hpp"

namespace quadpool::game::play::test {

inline PlayConfig play_config(std::size_t sprites, std::uint64_t seed,
                              memory::AllocatorKind kind = memory::AllocatorKind::Pool) {
  PlayConfig config;
  config.field.scene.sprites = sprites;
  config.field.scene.seed = seed;
  config.field.allocator = kind;
  config.field.heap_counter = &quadpool::heap_allocations;
  return config;
}

}  // namespace quadpool::game::play::test
