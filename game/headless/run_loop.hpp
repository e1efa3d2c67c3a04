#pragma once
/// The tick loop that the field run (headless.cpp) and the play run (play_run.cpp) share, so both
/// switch allocators, check pairs, record ticks and print progress the same way, and the report's
/// field figures that both fill from the last tick.

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <span>
#include <string>

#include "engine/memory/allocator_kind.hpp"
#include "engine/spatial/aabb.hpp"
#include "engine/spatial/pair.hpp"
#include "engine/spatial/pair_check.hpp"
#include "game/headless/headless_options.hpp"
#include "game/headless/report.hpp"
#include "game/sim/simulation.hpp"
#include "game/sim/tick_recorder.hpp"

namespace quadpool::game::headless {

/// --switch-allocator-every: which allocator a tick runs on.
class AllocatorAlternation {
 public:
  /// Starts on `first` and alternates every `every` ticks (0: never).
  AllocatorAlternation(memory::AllocatorKind first, std::uint64_t every) noexcept
      : kind_(first), every_(every) {}
  /// The allocator to switch to before tick `t` (from 0), or empty when tick t keeps the one
  /// the tick before it ran on.
  std::optional<memory::AllocatorKind> before_tick(std::uint64_t t) noexcept;

 private:
  memory::AllocatorKind kind_;
  std::uint64_t every_;
};

/// The progress line of a long run, about once a second, to `out` (nullptr: none).
class ProgressLine {
 public:
  ProgressLine(std::FILE* out, std::uint64_t ticks) noexcept;
  /// Tick `t` (from 0) took `tick_ms`.
  void after_tick(std::uint64_t t, double tick_ms);

 private:
  using Clock = std::chrono::steady_clock;
  std::FILE* out_;
  std::uint64_t ticks_;
  Clock::time_point last_;
};

/// The --verify check of one tick: empty when `pairs` are exactly the overlapping pairs of
/// `boxes`, otherwise the one-line failure message naming the tick, the pair and both boxes.
std::optional<std::string> verify_tick(spatial::PairChecker& checker, std::uint64_t tick,
                                       std::span<const spatial::Aabb> boxes,
                                       std::span<const spatial::Pair> pairs);

/// Runs `ticks` ticks as options say: before each, set_allocator(kind) when
/// --switch-allocator-every switches; then step(), which runs one tick of `field` (or of a game
/// on it) and returns its TickSample; then --verify on `field`, the recorder, the progress line.
/// Returns the --verify failure, or empty when every tick ran.
template <class SetAllocator, class Step>
std::optional<std::string> run_tick_loop(const HeadlessOptions& options, std::uint64_t ticks,
                                         const sim::Simulation& field, sim::TickRecorder& recorder,
                                         std::FILE* progress, SetAllocator&& set_allocator,
                                         Step&& step) {
  spatial::PairChecker checker;
  AllocatorAlternation alternation(options.game.config.field.allocator,
                                   options.switch_allocator_every);
  ProgressLine progress_line(progress, ticks);
  for (std::uint64_t t = 0; t < ticks; ++t) {
    if (const auto kind = alternation.before_tick(t)) set_allocator(*kind);
    const sim::TickSample sample = step();
    recorder.record(sample);
    if (options.verify) {
      if (auto failure = verify_tick(checker, t, field.last_boxes(), field.last_pairs())) return failure;
    }
    progress_line.after_tick(t, sample.ms.total);
  }
  return std::nullopt;
}

/// Fills the report's field figures (state hash, pairs, contacts, pool, tree, kinetic energy
/// after the run) from `sim` and the tick figures from `recorder`.
void report_field(HeadlessReport& report, const sim::Simulation& sim,
                  const sim::TickRecorder& recorder);

}  // namespace quadpool::game::headless
