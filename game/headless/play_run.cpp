#include "game/headless/play_run.hpp"

#include <chrono>
#include <optional>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "engine/memory/allocator_kind.hpp"
#include "game/headless/run_loop.hpp"
#include "game/play/game_options.hpp"
#include "game/play/input_command.hpp"
#include "game/play/play_report.hpp"
#include "game/play/play_session.hpp"
#include "game/play/replay.hpp"
#include "game/sim/tick_recorder.hpp"
#include "common/worker_pool.hpp"

namespace quadpool::game::headless {

HeadlessOutcome run_play(const HeadlessOptions& given, sim::HeapCounter heap_counter,
                         std::FILE* progress) {
  using Clock = std::chrono::steady_clock;
  std::optional<play::Replay> replay;
  if (!given.game.replay.empty()) {
    try {
      replay = play::read_replay(given.game.replay);
    } catch (const play::ReplayError& e) {
      return HeadlessOutcome{std::nullopt, fmt::format("quadpool: {}", e.what()), 2};
    }
  }
  // Headless, a pilot flies unless a replay does: the command line refuses --play without one,
  // and a caller that gives none gets the bot.
  play::GameOptions game = given.game;
  if (game.pilot == play::Pilot::Player) game.pilot = play::Pilot::Bot;
  WorkerPool workers(game.threads);
  play::SessionStart start =
      play::session_start(game, std::move(replay), workers.task_system(), heap_counter);
  start.expected_ticks = start.replay ? start.replay->commands.size() : given.ticks;
  play::PlaySession session(std::move(start));

  // A replay's start decides the game and its length: the report names the game played.
  HeadlessReport report;
  report.options = given;
  report.options.game.config = session.config();
  report.options.game.config.field.heap_counter = nullptr;
  report.options.game.config.field.tasks = {};
  const std::uint64_t ticks =
      session.pilot() == play::Pilot::Replay ? session.replay_ticks() : given.ticks;
  report.options.ticks = ticks;
  report.kinetic_energy_first = sim::kinetic_energy(session.world().field().sprites());
  sim::TickRecorder recorder;
  recorder.reserve(ticks);
  play::EntityLoad load;

  const Clock::time_point started = Clock::now();
  auto failure = run_tick_loop(
      given, ticks, session.world().field(), recorder, progress,
      [&](memory::AllocatorKind kind) { session.set_allocator(kind); },
      [&] {
        session.step(play::InputCommand{});
        load.add(session.world().last_tick());
        return session.last_sample();
      });
  if (failure) return HeadlessOutcome{std::nullopt, std::move(*failure), 1};
  report.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  report_field(report, session.world().field(), recorder);
  report.state_hash = session.world().state_hash();
  play::GameReport& result = report.game.emplace(session.report());
  result.load = load;

  HeadlessOutcome outcome{std::nullopt, {}, 0};
  if (std::string mismatch = session.replay_mismatch(); !mismatch.empty()) {
    outcome.failure = std::move(mismatch);
    outcome.exit_code = 1;
  }
  if (!given.game.record.empty()) {
    if (std::string problem = session.write_recording(given.game.record); !problem.empty()) {
      outcome.failure = std::move(problem);
      outcome.exit_code = 1;
    } else {
      result.recorded_to = given.game.record;
    }
  }
  outcome.report = std::move(report);
  return outcome;
}

}  // namespace quadpool::game::headless
