#pragma once
/// What a headless run reports: the field's figures, a play run's game figures, and the outcome
/// (report, failure line, exit code). Beside the runners and the formatters, so that a part of
/// the runner that fills or reads a report includes this and not the runner.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "engine/memory/pool_allocator.hpp"
#include "engine/spatial/quad_tree.hpp"
#include "game/headless/headless_options.hpp"
#include "game/play/play_report.hpp"
#include "game/sim/percentiles.hpp"
#include "game/sim/simulation.hpp"
#include "game/sim/tick_recorder.hpp"

namespace quadpool::game::headless {

/// Everything the runner reports. Times are milliseconds.
struct HeadlessReport {
  HeadlessOptions options;
  std::uint64_t state_hash = 0;
  std::size_t pairs_last_tick = 0;
  std::uint64_t contacts_total = 0;
  sim::Percentiles tick_ms;
  sim::PhaseTimes phase_ms;                            // medians; total is the median tick
  sim::AllocatorSummary pool_ticks, new_delete_ticks;  // per allocator; a sample is a tick
  // Over the warm ticks (HeapWarmup); empty without a counter or with too few ticks.
  std::optional<sim::Percentiles> heap_allocs_per_tick;
  memory::PoolStats pool{};               // after the last tick; high_water is the run's peak
  spatial::QuadTreeConfig tree_config{};  // the settings the game's tree ran with
  spatial::QuadTreeStats tree{};          // after the last tick
  double kinetic_energy_first = 0;        // before the first tick
  double kinetic_energy_last = 0;         // after the last tick
  double seconds = 0;                     // wall-clock time of the whole run
  std::optional<play::GameReport>
      game;  // a play run's (--play, --replay); state_hash is the game's
};

/// What a run ends with: the report to print (when there is one), the failure line (a --verify
/// mismatch, a bad replay file, a replay that missed its hash, a record that could not be
/// written; empty when none) and the exit code.
struct HeadlessOutcome {
  std::optional<HeadlessReport> report;
  std::string failure;
  int exit_code = 0;
};

}  // namespace quadpool::game::headless
