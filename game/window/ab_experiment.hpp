#pragma once
/// The A/B experiment: the same seeded scene run for kLegFrames ticked frames per leg in the
/// order pool, new-delete, pool, new-delete (alternating evens out drift in machine load),
/// then the two allocators' tick and frame times compared (AlternatingLegs, which the ramp
/// measures with too). The App applies what it asks for (a fresh scene on the leg's allocator),
/// locks whatever would change the measurement while it runs, and restores the controls it
/// saved when it ends or is cancelled.

#include <cstddef>
#include <cstdint>
#include <optional>

#include "common/scene/scene.hpp"
#include "engine/memory/allocator_kind.hpp"
#include "game/sim/simulation.hpp"
#include "game/window/allocator_legs.hpp"
#include "game/window/controls.hpp"
#include "game/window/frame_stats.hpp"

namespace quadpool::game::window {

/// The legs' figures (every leg restarts the scene, so each has its warm-up ticks) and what
/// they ran on.
struct AbResult : LegFigures {
  std::size_t sprites = 0;
  std::uint64_t seed = 0;
  scene::SceneKind scene = scene::SceneKind::Uniform;
  int tree_max_depth = 0, tree_leaf_capacity = 0;  // the tree settings it ran with
  Controls settings{};  // the draw toggles and panel it ran with (speed 1, never paused)
};

class AbExperiment {
 public:
  static constexpr int kLegs = 4;
  static constexpr std::uint64_t kLegFrames = 150;

  /// What the App does after record().
  using Next = AlternatingLegs::Next;

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
  memory::AllocatorKind leg_allocator() const noexcept { return legs_.leg_allocator(); }
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
  AlternatingLegs legs_;
  sim::SimulationConfig subject_;  // the scene and tree settings measured
  bool cancelled_ = false;
  std::optional<AbResult> result_;
  Controls saved_controls_{};
  memory::AllocatorKind saved_allocator_ = memory::AllocatorKind::Pool;
};

}  // namespace quadpool::game::window
