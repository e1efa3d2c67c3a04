#include "game/play/game_options.hpp"

#include <utility>

namespace quadpool::game::play {

SessionStart session_start(const GameOptions& options, std::optional<Replay> replay,
                           TaskSystem tasks, sim::HeapCounter heap_counter) {
  SessionStart start;
  start.config = options.config;
  start.config.field.heap_counter = heap_counter;
  start.config.field.tasks = tasks;
  start.pilot = options.pilot;
  start.bot_seed = options.config.field.scene.seed;
  start.replay = std::move(replay);  // PlaySession lets its start decide the game
  start.replay_file = options.replay;
  start.record = !options.record.empty();
  return start;
}

}  // namespace quadpool::game::play
