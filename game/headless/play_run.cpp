#include "game/headless/play_run.hpp"

#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "engine/spatial/pair_check.hpp"
#include "game/play/bot_pilot.hpp"
#include "game/play/input_command.hpp"
#include "game/play/play_world.hpp"
#include "game/play/replay.hpp"
#include "game/play/play_report.hpp"
#include "game/headless/run_loop.hpp"
#include "game/sim/tick_recorder.hpp"
#include "common/worker_pool.hpp"

namespace quadpool::game {

namespace {

// A play tick as a recorder sample, so the figures mean what they mean for the field runner:
// the field's phases, and the whole play tick's time and heap allocations.
TickSample play_sample(const play::PlayTick& tick, bool warm) noexcept {
  TickSample sample = TickSample::of(tick.field, warm);
  sample.ms.total = tick.ms_total;
  sample.heap_allocations = tick.heap_allocations;
  return sample;
}

// The game to play: from the options, or from a replay file, whose start decides everything
// but the allocator and the output.
struct Game {
  HeadlessOptions options;
  play::PlayConfig config;
  std::optional<play::Replay> replay;
};

Game game_of(const HeadlessOptions& given, HeapCounter heap_counter) {
  Game game{given, {}, std::nullopt};
  if (given.replay.empty()) {
    game.config.field = field_config(given, heap_counter);
    game.config.storm = given.storm;
    return game;
  }
  game.replay = play::read_replay(given.replay);  // throws play::ReplayError
  const play::ReplayStart& start = game.replay->start;
  game.options.seed = start.seed;
  game.options.sprites = static_cast<std::size_t>(start.sprites);
  game.options.scene = start.scene;
  game.options.storm = start.storm;
  game.options.ticks = game.replay->commands.size();
  game.config = play::play_config_of(start);
  game.config.field.allocator = given.allocator;
  game.config.field.heap_counter = heap_counter;
  return game;
}

// Plays the ticks; the commands played are kept when they are to be recorded. Empty, or the
// --verify failure.
std::optional<std::string> play_ticks(const Game& game, play::PlayWorld& world,
                                      TickRecorder& recorder, EntityLoad& load,
                                      std::vector<play::InputCommand>& played,
                                      std::FILE* progress) {
  const HeadlessOptions& options = game.options;
  play::BotPilot bot(options.seed);
  HeapWarmup warmup;
  spatial::PairChecker checker;
  AllocatorAlternation alternation(options.allocator, options.switch_allocator_every);
  ProgressLine progress_line(progress, options.ticks);
  for (std::uint64_t t = 0; t < options.ticks; ++t) {
    if (const auto kind = alternation.before_tick(t)) world.set_allocator(*kind);
    const play::InputCommand command = game.replay ? game.replay->commands[t] : bot.decide(world);
    if (!options.record.empty()) played.push_back(command);
    const bool warm = warmup.next_tick(world.field());
    const play::PlayTick& tick = world.step(command);
    recorder.record(play_sample(tick, warm));
    load.add(tick);
    if (options.verify) {
      if (auto failure =
              verify_tick(checker, t, world.field().last_boxes(), world.field().last_pairs())) {
        return failure;
      }
    }
    progress_line.after_tick(t, tick.ms_total);
  }
  return std::nullopt;
}

}  // namespace

HeadlessOutcome run_play(const HeadlessOptions& given, HeapCounter heap_counter,
                         std::FILE* progress) {
  using Clock = std::chrono::steady_clock;
  std::optional<Game> loaded;
  try {
    loaded = game_of(given, heap_counter);
  } catch (const play::ReplayError& e) {
    return HeadlessOutcome{std::nullopt, fmt::format("quadpool: {}", e.what()), 2};
  }
  WorkerPool workers(given.threads);
  loaded->config.field.tasks = workers.task_system();
  loaded->options.threads = given.threads;
  const Game& game = *loaded;
  play::PlayWorld world(game.config);
  HeadlessReport report;
  report.options = game.options;
  report.kinetic_energy_first = kinetic_energy(world.field().sprites());
  TickRecorder recorder;
  recorder.reserve(game.options.ticks);
  std::vector<play::InputCommand> played;
  if (!game.options.record.empty()) played.reserve(game.options.ticks);

  EntityLoad load;
  const Clock::time_point start = Clock::now();
  if (auto failure = play_ticks(game, world, recorder, load, played, progress)) {
    return HeadlessOutcome{std::nullopt, std::move(*failure), 1};
  }
  report.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  report_field(report, world.field(), recorder);
  report.state_hash = world.state_hash();
  GameReport& result = report.game.emplace();
  result.status = world.status();
  result.storm = game.config.storm;
  result.entities = world.entity_reports();
  result.load = load;

  HeadlessOutcome outcome{std::nullopt, {}, 0};
  if (game.replay) {
    result.replay = ReplayCheck{given.replay, game.replay->final_hash,
                                game.replay->final_hash == report.state_hash};
    if (!result.replay->matches) {
      outcome.failure = fmt::format(
          "quadpool: {}: the replay ended on state hash {}, not on the {} the file recorded",
          given.replay, format_hash(report.state_hash), format_hash(game.replay->final_hash));
      outcome.exit_code = 1;
    }
  }
  if (!game.options.record.empty()) {
    try {
      play::write_replay(game.options.record, play::Replay{play::replay_start_of(game.config),
                                                           played, report.state_hash});
      result.recorded_to = game.options.record;
    } catch (const play::ReplayWriteError& e) {
      outcome.failure = fmt::format("quadpool: {}", e.what());
      outcome.exit_code = 1;
    }
  }
  outcome.report = std::move(report);
  return outcome;
}

}  // namespace quadpool::game
