#pragma once
/// The tick statistics that the headless runner reports and the demo shows: one warm-up rule
/// for heap counts (HeapWarmup) and one recorder (TickRecorder) that turns samples into
/// per-allocator percentiles, phase medians and warm heap figures. Neither needs a display.
///
/// A sample is one tick in the headless runner and one frame's ticks in the demo (0 to 16 at
/// the speeds it offers; a frame without a tick is not a sample).

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "engine/memory/allocator_kind.hpp"
#include "game/sim/percentiles.hpp"
#include "game/sim/simulation.hpp"

namespace quadpool::game::sim {

/// One sample: the phase times, the allocator and the heap allocations of the ticks it covers.
struct TickSample {
  PhaseTimes ms;  // summed over the sample's ticks; total is their whole time
  memory::AllocatorKind allocator = memory::AllocatorKind::Pool;  // the last tick's
  std::optional<std::uint64_t> heap_allocations;  // summed; empty without a heap counter
  bool warm = false;  // every tick was past warm-up, so a pool tick must not allocate

  /// The figures of one tick; `warm` from HeapWarmup::next_tick.
  static TickSample of(const TickStats& tick, bool warm) noexcept;
  /// Adds a later tick of the same sample (the demo's frames of more than one tick).
  void add(const TickSample& later) noexcept;
};

/// The one warm-up rule. The first kHeapWarmupTicks ticks after a restart (a new scene, new
/// sprites, a new tree) grow the buffers and the node pool, so their heap allocations are
/// expected and not held against the pool; the same goes for the ticks after a switch into a
/// pool that has never held a tree as large as the last one.
class HeapWarmup {
 public:
  /// The scene or the tree was replaced, or sprites were added: warm up again.
  void restart() noexcept { ticks_since_restart_ = 0; }
  /// Call just before sim.step(): whether the tick it runs counts as warm.
  bool next_tick(const Simulation& sim) noexcept;

 private:
  std::uint64_t ticks_since_restart_ = 0;
};

/// A recorder's figures for the samples one allocator ran.
struct AllocatorSummary {
  std::uint64_t samples = 0;       // every sample recorded on this allocator, kept or not
  Percentiles tick_ms;             // of the samples' total times
  std::uint64_t warm_samples = 0;  // warm samples with a heap count
  std::uint64_t warm_samples_with_heap_allocations = 0;
  std::uint64_t max_warm_heap_allocations = 0;
  std::optional<double> warm_heap_allocations_mean;  // per sample; empty without warm samples
};

/// Collects samples and computes their statistics. Keeps at most kMaxKept samples of each kind
/// for the percentiles (later ones still count in the totals, maxima and means); reserve() the
/// expected count up front and record() never allocates.
class TickRecorder {
 public:
  static constexpr std::size_t kMaxKept = 1'000'000;

  /// Makes room for `samples` samples, so that recording them never allocates.
  void reserve(std::size_t samples);
  void record(const TickSample& sample);
  void clear() noexcept;

  std::uint64_t samples() const noexcept { return by_[0].samples + by_[1].samples; }
  AllocatorSummary summary(memory::AllocatorKind kind) const;
  /// Percentiles of every sample's total time, both allocators.
  Percentiles tick_ms() const;
  /// The median of each phase over every sample; total is the median sample.
  PhaseTimes phase_medians() const;
  /// Median and maximum heap allocations over the warm samples of both allocators; empty when
  /// there is none.
  std::optional<Percentiles> warm_heap_allocations() const;

 private:
  struct PerAllocator {
    std::vector<float> tick_ms;
    std::vector<std::uint64_t> warm_heap;
    std::uint64_t samples = 0, warm_samples = 0, warm_allocating = 0, warm_max = 0;
    std::uint64_t warm_sum = 0;
  };
  static std::size_t index(memory::AllocatorKind kind) noexcept {
    return kind == memory::AllocatorKind::Pool ? 0 : 1;
  }

  std::array<PerAllocator, 2> by_;              // [0] pool, [1] new-delete
  std::array<std::vector<float>, 4> phase_ms_;  // integrate, rebuild, pairs, resolve
};

}  // namespace quadpool::game::sim
