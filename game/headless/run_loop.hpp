#pragma once
/// The parts of a headless run that the field runner (headless.cpp) and the play runner
/// (play_run.cpp) share, so both switch allocators, print progress and fill the report's field
/// figures the same way.

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <optional>

#include "engine/memory/allocator_kind.hpp"
#include "game/headless/headless.hpp"
#include "game/sim/simulation.hpp"
#include "game/sim/tick_recorder.hpp"

namespace quadpool::game {

/// The field's settings from the options: scene, sprites, seed, allocator, heap counter.
SimulationConfig field_config(const HeadlessOptions& options, HeapCounter heap_counter) noexcept;

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

/// Fills the report's field figures (state hash, pairs, contacts, pool, tree, kinetic energy
/// after the run) from `sim` and the tick figures from `recorder`.
void report_field(HeadlessReport& report, const Simulation& sim, const TickRecorder& recorder);

}  // namespace quadpool::game
