#pragma once
/// The A/B experiment: the same seeded scene run for kLegFrames ticked frames per leg in the
/// order pool, new-delete, pool, new-delete (alternating evens out drift in machine load),
/// then the two allocators' tick and frame times compared. The App applies what it asks for
/// (a fresh scene on the leg's allocator), locks whatever would change the measurement while it
/// runs, and restores the controls it saved when it ends or is cancelled.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "engine/memory/allocator_kind.hpp"
#include "game/window/controls.hpp"
#include "game/window/frame_stats.hpp"
#include "game/sim/percentiles.hpp"
#include "game/sim/simulation.hpp"
#include "game/sim/tick_recorder.hpp"
#include "common/scene/scene.hpp"

namespace quadpool::game::window {

/// Index [0] is pool, [1] new-delete.
struct AbResult {
  std::size_t sprites = 0;
  std::uint64_t seed = 0;
  scene::SceneKind scene = scene::SceneKind::Uniform;
  int tree_max_depth = 0, tree_leaf_capacity = 0;  // the tree settings it ran with
  Controls settings{};  // the draw toggles and panel it ran with (speed 1, never paused)
  sim::Percentiles frame_ms[2], tick_ms[2];
  // Per ticked frame past warm-up (HeapWarmup: every leg restarts the scene); empty without a
  // heap counter.
  std::optional<double> heap_allocations_per_tick[2];
  /// new-delete's tick median over pool's: above 1 when the pool is faster.
  double tick_median_ratio() const noexcept {
    return tick_ms[0].median > 0 ? tick_ms[1].median / tick_ms[0].median : 0.0;
  }
};

class AbExperiment {
 public:
  static constexpr int kLegs = 4;
  static constexpr std::uint64_t kLegFrames = 150;

  /// What the App does after record().
  enum class Next { Continue, NewLeg, Done };

  /// Starts a run on `subject`'s scene and tree settings, saving `controls` and `allocator` to
  /// restore at the end. The caller then resets the scene on leg_allocator().
  void start(const sim::SimulationConfig& subject, const Controls& controls,
             memory::AllocatorKind allocator);
  /// Stops a running experiment without a result; the caller restores the saved state.
  void cancel() noexcept;
  /// Records one frame. NewLeg: reset the scene on leg_allocator(). Done: result() holds the
  /// comparison; restore saved_controls() and saved_allocator().
  Next record(const FrameSample& sample);

  bool running() const noexcept { return running_; }
  /// The allocator of the current leg.
  memory::AllocatorKind leg_allocator() const noexcept {
    return leg_ % 2 == 0 ? memory::AllocatorKind::Pool : memory::AllocatorKind::NewDelete;
  }
  /// Fraction of the run done, 0..1.
  float progress() const noexcept;
  /// Seconds left at the frame rate so far (0 before the first frame is recorded).
  double seconds_left() const noexcept;
  /// The last run was cancelled (until the next start).
  bool cancelled() const noexcept { return cancelled_; }
  const std::optional<AbResult>& result() const noexcept { return result_; }
  const Controls& saved_controls() const noexcept { return saved_controls_; }
  memory::AllocatorKind saved_allocator() const noexcept { return saved_allocator_; }

 private:
  bool running_ = false;
  int leg_ = 0;
  std::uint64_t frames_in_leg_ = 0;
  sim::SimulationConfig subject_;  // the scene and tree settings measured
  bool cancelled_ = false;
  double elapsed_ms_ = 0;            // the recorded frames' total
  std::vector<double> frame_ms_[2];  // [0] pool, [1] new-delete
  sim::TickRecorder ticks_;          // the ticked frames' ticks
  std::optional<AbResult> result_;
  Controls saved_controls_{};
  memory::AllocatorKind saved_allocator_ = memory::AllocatorKind::Pool;
};

}  // namespace quadpool::game::window
