#pragma once
/// The measuring pilots beside BotPilot: a key-masher and a pilot who does nothing. They play
/// through InputCommands only, as a player does, so a run with each tells how much the rules
/// reward skill (the bot against the masher) and how long an idle ship lives: `--pilot random`
/// and `--pilot idle`. Both press restart after a game over, so one run measures game after
/// game. Same seed, same world: same commands.

#include <cstdint>

#include "engine/core/random.hpp"
#include "game/play/input_command.hpp"
#include "game/play/play_world.hpp"

namespace quadpool::game::play {

/// Mashes keys: holds a random set of thrust, fire and a turn for 3 to 20 ticks, then draws
/// again, from its own seeded generator. It never aims with the mouse.
class RandomPilot {
 public:
  explicit RandomPilot(std::uint64_t seed) noexcept : rng_(seed) {}

  /// The command for the world's next tick.
  InputCommand decide(const PlayWorld& world) noexcept;

 private:
  Random rng_;
  InputCommand held_;
  int ticks_left_ = 0;
};

/// Presses nothing, but restart after a game over.
InputCommand idle_command(const PlayWorld& world) noexcept;

}  // namespace quadpool::game::play
