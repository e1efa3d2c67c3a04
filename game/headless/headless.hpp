#pragma once
/// The headless runner behind `quadpool --headless`: runs the simulation for a number of ticks
/// without a window, optionally checks every tick's pairs against a reference, and reports the
/// timings, allocations, pool and tree statistics as a readable summary or one JSON object.

#include <cstdint>
#include <cstdio>
#include <optional>
#include <span>
#include <string>

#include "game/headless/headless_options.hpp"
#include "engine/spatial/pair_check.hpp"
#include "game/sim/percentiles.hpp"
#include "game/play/play_report.hpp"
#include "game/sim/simulation.hpp"
#include "game/sim/tick_recorder.hpp"

namespace quadpool::game {

/// Everything the runner reports. Times are milliseconds.
struct HeadlessReport {
  HeadlessOptions options;
  std::uint64_t state_hash = 0;
  std::size_t pairs_last_tick = 0;
  std::uint64_t contacts_total = 0;
  Percentiles tick_ms;
  PhaseTimes phase_ms;  // medians; total is the median tick
  AllocatorSummary pool_ticks, new_delete_ticks;  // per allocator; a sample is a tick
  // Over the warm ticks (HeapWarmup); empty without a counter or with too few ticks.
  std::optional<Percentiles> heap_allocs_per_tick;
  memory::PoolStats pool{};               // after the last tick; high_water is the run's peak
  spatial::QuadTreeConfig tree_config{};  // the settings the game's tree ran with
  spatial::QuadTreeStats tree{};          // after the last tick
  double kinetic_energy_first = 0;        // before the first tick
  double kinetic_energy_last = 0;         // after the last tick
  double seconds = 0;                     // wall-clock time of the whole run
  std::optional<GameReport> game;         // a play run's (--play, --replay); state_hash is the game's
};

/// What a run ends with: the report to print (when there is one), the failure line (a --verify
/// mismatch, a bad replay file, a replay that missed its hash, a record that could not be
/// written; empty when none) and the exit code.
struct HeadlessOutcome {
  std::optional<HeadlessReport> report;
  std::string failure;
  int exit_code = 0;
};

/// The --verify check of one tick: empty when `pairs` are exactly the overlapping pairs of
/// `boxes`, otherwise the one-line failure message naming the tick, the pair and both boxes.
std::optional<std::string> verify_tick(spatial::PairChecker& checker, std::uint64_t tick,
                                       std::span<const spatial::Aabb> boxes,
                                       std::span<const spatial::Pair> pairs);

/// Runs the ticks. `heap_counter` may be nullptr (then no allocation counts). When `progress`
/// is not nullptr, a progress line goes there about once a second.
HeadlessOutcome run_ticks(const HeadlessOptions& options, HeapCounter heap_counter,
                          std::FILE* progress);

/// The report as exactly one JSON object (one line, no trailing newline).
std::string format_json(const HeadlessReport& report);
/// The report as a few aligned lines for people.
std::string format_summary(const HeadlessReport& report);

/// The whole of `quadpool --headless`: runs, prints to stdout (and progress and errors to
/// stderr), returns the exit code: 0, or 1 when --verify found a mismatch. With --play or
/// --replay it plays the game (play_run.hpp) and returns that run's exit code.
int run_headless(const HeadlessOptions& options, HeapCounter heap_counter);

}  // namespace quadpool::game
