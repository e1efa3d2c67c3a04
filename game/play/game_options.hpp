#pragma once
/// GameOptions: what the command line says about the game, the same for both front ends. The
/// command line binds each of these flags once (game/cli.cpp), and each front end's options
/// (HeadlessOptions, WindowOptions) hold one. session_start() turns them into the session the
/// runner and the window both play, so a flag means the same game in either.

#include <cstdint>
#include <optional>
#include <string>

#include "engine/core/task_system.hpp"
#include "game/play/play_config.hpp"
#include "game/play/play_session.hpp"
#include "game/play/replay.hpp"
#include "game/sim/simulation.hpp"

namespace quadpool::game::play {

struct GameOptions {
  /// --sprites, --seed, --scene and --allocator (config.field), --storm. The field's runtime
  /// parts (heap_counter, tasks) stay empty here: they are the caller's, given to
  /// session_start(). The field runner runs config.field alone.
  PlayConfig config;
  std::uint32_t threads = 1;  ///< --threads: the tick's threads, the caller's included
  /// --pilot bot|random|idle (--bot is --pilot bot): who flies instead of the player. Headless
  /// play needs one: without a window there is no player.
  Pilot pilot = Pilot::Player;
  std::string record;         ///< --record FILE: the game's replay is written there (empty: none)
  std::string replay;         ///< --replay FILE: its start decides the game (empty: none)
};

/// The session `options` describe, with `replay` the content of options.replay (read by the
/// caller, who words its errors; empty when there is none) and the caller's workers and heap
/// counter (nullptr: no allocation counts). The bot is seeded with the scene's seed, so the same
/// flags fly the same game in the window and headless.
SessionStart session_start(const GameOptions& options, std::optional<Replay> replay,
                           TaskSystem tasks, sim::HeapCounter heap_counter);

}  // namespace quadpool::game::play
