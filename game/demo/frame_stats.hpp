#pragma once
/// The demo's frame statistics: a window of recent frames for the overlay's graph, and the
/// whole run's samples for the A/B comparison and the summary printed at exit.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/memory/allocator_kind.hpp"
#include "game/percentiles.hpp"

namespace quadpool::game::demo {

/// One frame, in milliseconds. A paused frame has zero tick phases.
struct FrameSample {
  float integrate = 0, rebuild = 0, pairs = 0, resolve = 0;
  float render = 0;  // drawing, the overlay and presenting
  float total = 0;   // the whole frame, events included
  bool ticked = false;
  memory::AllocatorKind allocator = memory::AllocatorKind::Pool;
  std::optional<std::uint64_t> tick_heap_allocations;
  bool warm = false;  // the tick was past warm-up (see App), so pool mode must allocate nothing
};

/// Per-allocator figures over a run.
struct ModeSummary {
  std::uint64_t frames = 0;  // frames whose tick used this allocator
  Percentiles frame_ms, tick_ms;
  std::uint64_t warm_ticks = 0;  // ticks past warm-up with a heap count
  std::uint64_t warm_ticks_with_heap_allocations = 0;
  std::uint64_t max_warm_tick_heap_allocations = 0;
};

class FrameStats {
 public:
  /// Frames the overlay's graph shows.
  static constexpr std::size_t kHistory = 300;
  /// Samples kept per allocator for the summary; later frames still count, but are not kept.
  static constexpr std::size_t kMaxKeptSamples = 1'000'000;

  void record(const FrameSample& sample);

  /// The last kHistory frames, oldest first: at most kHistory entries.
  std::size_t history_size() const noexcept { return count_ < kHistory ? count_ : kHistory; }
  const FrameSample& history(std::size_t i) const noexcept;

  std::uint64_t frames() const noexcept { return count_; }
  /// Mean frames per second over the last kHistory frames.
  double recent_fps() const noexcept;

  ModeSummary summary(memory::AllocatorKind kind) const;
  Percentiles frame_ms() const;
  /// Median of each phase over every ticked frame (render over every frame).
  FrameSample phase_medians() const;

 private:
  struct ModeSamples {
    std::vector<double> frame_ms, tick_ms;
    std::uint64_t frames = 0, warm_ticks = 0, warm_allocating = 0, max_warm_allocations = 0;
  };

  std::array<FrameSample, kHistory> ring_{};
  std::uint64_t count_ = 0;
  ModeSamples pool_, new_delete_;
  std::vector<double> all_frame_ms_, render_ms_;
  std::array<std::vector<double>, 4> phase_ms_;  // integrate, rebuild, pairs, resolve
};

}  // namespace quadpool::game::demo
