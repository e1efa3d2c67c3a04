#pragma once
/// The demo's frame statistics: a window of recent frames for the overlay's graph, and the
/// whole run's samples for the summary printed at exit. The ticks' figures go through the
/// TickRecorder that the headless runner uses too, so both count warm-up the same way.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "engine/memory/allocator_kind.hpp"
#include "game/sim/percentiles.hpp"
#include "game/sim/simulation.hpp"
#include "game/sim/tick_recorder.hpp"

namespace quadpool::game::window {

/// One frame, in milliseconds.
struct FrameSample {
  sim::TickSample tick;  // the frame's ticks, summed; all zero when ticked is false (paused)
  bool ticked = false;
  float render = 0;  // drawing, the overlay and presenting
  float total = 0;   // the whole frame, events included
};

/// Per-allocator figures over a run.
struct ModeSummary {
  std::uint64_t frames = 0;  // frames whose tick used this allocator
  sim::Percentiles frame_ms, tick_ms;
  std::uint64_t warm_ticks = 0;  // ticked frames past warm-up with a heap count
  std::uint64_t warm_ticks_with_heap_allocations = 0;
  std::uint64_t max_warm_tick_heap_allocations = 0;
};

class FrameStats {
 public:
  /// Frames the overlay's graph shows.
  static constexpr std::size_t kHistory = 300;
  /// Samples kept per allocator for the summary; later frames still count, but are not kept.
  static constexpr std::size_t kMaxKeptSamples = sim::TickRecorder::kMaxKept;

  void record(const FrameSample& sample);

  /// The last kHistory frames, oldest first: at most kHistory entries.
  std::size_t history_size() const noexcept { return count_ < kHistory ? count_ : kHistory; }
  const FrameSample& history(std::size_t i) const noexcept;
  /// The last frame that ran a tick (a paused frame after a single step shows that step's
  /// figures); empty before the first tick.
  const std::optional<FrameSample>& last_ticked() const noexcept { return last_ticked_; }

  std::uint64_t frames() const noexcept { return count_; }
  /// Mean frames per second over the last kHistory frames.
  double recent_fps() const noexcept;

  ModeSummary summary(memory::AllocatorKind kind) const;
  sim::Percentiles frame_ms() const;
  /// Median of each tick phase over every ticked frame.
  sim::PhaseTimes phase_medians() const { return ticks_.phase_medians(); }
  /// Median render time over every frame.
  double render_median() const;

 private:
  std::array<FrameSample, kHistory> ring_{};
  std::uint64_t count_ = 0;
  std::optional<FrameSample> last_ticked_;
  sim::TickRecorder ticks_;
  std::array<std::vector<double>, 2> ticked_frame_ms_;  // [0] pool, [1] new-delete
  std::vector<double> all_frame_ms_, render_ms_;
};

}  // namespace quadpool::game::window
