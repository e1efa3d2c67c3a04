#pragma once
/// The headless runner behind `quadpool --headless`: runs the simulation for a number of ticks
/// without a window, optionally checks every tick's pairs against a reference, and reports the
/// timings, allocations, pool and tree statistics as a readable summary or one JSON object.

#include <cstdint>
#include <cstdio>
#include <string>

#include "game/headless/headless_options.hpp"
#include "game/headless/report.hpp"
#include "game/sim/simulation.hpp"

namespace quadpool::game::headless {

/// Runs the ticks. `heap_counter` may be nullptr (then no allocation counts). When `progress`
/// is not nullptr, a progress line goes there about once a second.
HeadlessOutcome run_ticks(const HeadlessOptions& options, sim::HeapCounter heap_counter,
                          std::FILE* progress);

/// The report as exactly one JSON object (one line, no trailing newline).
std::string format_json(const HeadlessReport& report);
/// The report as a few aligned lines for people.
std::string format_summary(const HeadlessReport& report);

/// The whole of `quadpool --headless`: runs, prints to stdout (and progress and errors to
/// stderr), returns the exit code: 0, or 1 when --verify found a mismatch. With --play or
/// --replay it plays the game (play_run.hpp) and returns that run's exit code.
int run_headless(const HeadlessOptions& options, sim::HeapCounter heap_counter);

}  // namespace quadpool::game::headless
