#pragma once
/// The measurement the A/B run and the ramp share: legs of ticked frames that alternate the
/// allocator, pool first (pool, new-delete, pool, new-delete: a change in machine load hits
/// both), each frame recorded under the allocator its tick ran on, then both allocators' tick
/// and frame times side by side. The caller switches the allocator when a leg ends.

#include <cstdint>
#include <optional>
#include <vector>

#include "engine/memory/allocator_kind.hpp"
#include "game/sim/percentiles.hpp"
#include "game/sim/tick_recorder.hpp"
#include "game/window/frame_stats.hpp"

namespace quadpool::game::window {

/// Both allocators' figures over the legs. Index [0] is pool, [1] new-delete.
struct LegFigures {
  sim::Percentiles frame_ms[2], tick_ms[2];
  // Per ticked frame past warm-up (HeapWarmup); empty without a heap counter.
  std::optional<double> heap_allocations_per_tick[2];
  /// new-delete's tick median over pool's: above 1 when the pool is faster.
  double tick_median_ratio() const noexcept {
    return tick_ms[0].median > 0 ? tick_ms[1].median / tick_ms[0].median : 0.0;
  }
};

class AlternatingLegs {
 public:
  /// What the caller does after record().
  enum class Next { Continue, NewLeg, Done };

  /// Starts `legs` legs of `leg_frames` ticked frames each; reserves every sample up front, so
  /// that record() never allocates.
  void start(int legs, std::uint64_t leg_frames);
  /// Records one frame (a frame that did not tick does not count). NewLeg: switch to
  /// leg_allocator(). Done: figures() holds the comparison.
  Next record(const FrameSample& sample);

  /// The allocator of the current leg.
  memory::AllocatorKind leg_allocator() const noexcept {
    return leg_ % 2 == 0 ? memory::AllocatorKind::Pool : memory::AllocatorKind::NewDelete;
  }
  int leg() const noexcept { return leg_; }
  /// Ticked frames recorded so far, and in all.
  std::uint64_t frames_done() const noexcept {
    return static_cast<std::uint64_t>(leg_) * leg_frames_ + frames_in_leg_;
  }
  std::uint64_t frames_total() const noexcept {
    return static_cast<std::uint64_t>(legs_) * leg_frames_;
  }
  /// The recorded frames' total time, ms.
  double elapsed_ms() const noexcept { return elapsed_ms_; }
  /// Both allocators' figures over what was recorded.
  LegFigures figures() const;

 private:
  int legs_ = 0, leg_ = 0;
  std::uint64_t leg_frames_ = 0, frames_in_leg_ = 0;
  double elapsed_ms_ = 0;
  std::vector<double> frame_ms_[2];  // [0] pool, [1] new-delete
  sim::TickRecorder ticks_;          // the ticked frames' ticks
};

}  // namespace quadpool::game::window
