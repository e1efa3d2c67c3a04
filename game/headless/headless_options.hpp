#pragma once
/// The headless runner's settings, beside the runner (headless.hpp) and free of any display
/// library, so that a build without the window has everything the runner needs.

#include <cstdint>

#include "game/play/game_options.hpp"

namespace quadpool::game::headless {

/// The most ticks one run takes (named in --help): enough for any real use, few enough that no
/// value makes the runner's per-tick samples run out of memory.
inline constexpr std::uint64_t kMaxTicks = 1'000'000;

struct HeadlessOptions {
  /// The flags the window takes too: the scene and the field (game.config.field, which the
  /// field runner runs alone), --threads, and the game's --bot, --storm, --record, --replay.
  play::GameOptions game;
  std::uint64_t ticks = 1'000;
  std::uint64_t switch_allocator_every = 0;  // 0: never switch
  bool verify = false;
  bool json = false;
  bool play = false;  // --play --bot: the bot plays the game on the field instead of the field alone
};

}  // namespace quadpool::game::headless
