#pragma once
/// The headless runner's settings, beside the runner (headless.hpp) and free of any display
/// library, so that a build without the demo has everything the runner needs.

#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/memory/allocator_kind.hpp"
#include "common/scene/scene.hpp"

namespace quadpool::game {

/// The most ticks one run takes (named in --help): enough for any real use, few enough that no
/// value makes the runner's per-tick samples run out of memory.
inline constexpr std::uint64_t kMaxTicks = 1'000'000;

struct HeadlessOptions {
  std::size_t sprites = 10'000;
  std::uint64_t ticks = 1'000;
  std::uint64_t seed = 1;
  scene::SceneKind scene = scene::SceneKind::Uniform;
  memory::AllocatorKind allocator = memory::AllocatorKind::Pool;
  // The threads the tick runs on, the caller's included (1..kMaxThreads of worker_pool.hpp); the
  // command line's default is every hardware thread. The state does not depend on it.
  std::uint32_t threads = 1;
  std::uint64_t switch_allocator_every = 0;  // 0: never switch
  bool verify = false;
  bool json = false;
  // Play (game/play/): the bot plays the game on the field instead of the field running alone.
  bool play = false;    // --play --bot
  bool storm = false;   // the rules' stress setting
  std::string record;   // write the game's replay here (empty: none)
  std::string replay;   // play this replay file instead (empty: none); it decides the game
};

}  // namespace quadpool::game
