#pragma once
/// The ramp: the lab's field grown step by step from a hundredth of its top to the top (by
/// default 10k, 20k, 50k, 100k, 200k, 500k and 1M sprites), and at each step the tick timed
/// with the pools against new/delete the way the A/B run times it (AlternatingLegs: legs of
/// ticked frames, pool first, alternating). It advances one recorded frame at a time, so the
/// window keeps drawing the field while it runs: the App grows the field when told to, switches
/// the allocator between legs, and restores the controls and the allocator it saved at the end.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "common/scene/scene.hpp"
#include "engine/memory/allocator_kind.hpp"
#include "game/window/allocator_legs.hpp"
#include "game/window/controls.hpp"
#include "game/window/frame_stats.hpp"

namespace quadpool::game::window {

/// One measured step: its sprite count and both allocators' figures.
struct RampStep {
  std::size_t sprites = 0;
  LegFigures figures;
};

class RampExperiment {
 public:
  static constexpr int kSteps = 7;
  static constexpr int kLegs = 4;
  static constexpr std::uint64_t kLegFrames = 15;
  /// Ticked frames after each step's new field that are not timed: a new field's first ticks
  /// grow its buffers and the node pool.
  static constexpr std::uint64_t kWarmupFrames = 5;

  /// The steps' sprite counts for `top`: a hundredth, a fiftieth, a twentieth, a tenth, a
  /// fifth, a half and all of it (at least 1 each).
  static std::array<std::size_t, kSteps> steps_for(std::size_t top) noexcept;

  /// None: never started; Stopped: stopped before its last step (the steps done are kept).
  enum class State { None, Running, Stopped, Done };
  /// What the App does after start() and record(). Grow: a new field of step_sprites() sprites
  /// (scene() gives its kind and seed) on leg_allocator(). Switch: the allocator to
  /// leg_allocator(). Done: restore saved_controls() and saved_allocator(), keep the field.
  enum class Next { Continue, Grow, Switch, Done };

  /// Starts a ramp up to `top` on the kind and seed of `scene`, saving `controls` and
  /// `allocator` to restore at the end; returns Grow for its first step.
  Next start(const scene::SceneConfig& scene, std::size_t top, const Controls& controls,
             memory::AllocatorKind allocator);
  /// Records one frame; a frame that did not tick does not count.
  Next record(const FrameSample& sample);
  /// Stops a running ramp; the steps measured so far stay. The caller restores the saved state.
  void stop() noexcept;

  State state() const noexcept { return state_; }
  bool running() const noexcept { return state_ == State::Running; }
  /// The last ramp's top, scene kind and seed (the steps' sprite counts: steps_for(top())).
  std::size_t top() const noexcept { return top_; }
  const scene::SceneConfig& scene() const noexcept { return scene_; }
  /// The step being measured, 0 to kSteps - 1, and its sprite count.
  int step() const noexcept { return step_; }
  std::size_t step_sprites() const noexcept { return steps_[static_cast<std::size_t>(step_)]; }
  /// The allocator the current frames tick on (pool while a step warms up).
  memory::AllocatorKind leg_allocator() const noexcept { return legs_.leg_allocator(); }
  bool warming_up() const noexcept { return warmup_left_ > 0; }
  /// Fraction of the ramp's frames done, 0..1.
  float progress() const noexcept;
  /// The steps measured, in order.
  std::span<const RampStep> results() const noexcept { return results_; }
  const Controls& saved_controls() const noexcept { return saved_controls_; }
  memory::AllocatorKind saved_allocator() const noexcept { return saved_allocator_; }

 private:
  Next finish_step();

  State state_ = State::None;
  std::size_t top_ = 0;
  scene::SceneConfig scene_{};
  std::array<std::size_t, kSteps> steps_{};
  int step_ = 0;
  std::uint64_t warmup_left_ = 0;
  AlternatingLegs legs_;
  std::vector<RampStep> results_;
  Controls saved_controls_{};
  memory::AllocatorKind saved_allocator_ = memory::AllocatorKind::Pool;
};

/// "none", "running", "stopped" or "done": the summary's and the log's spelling.
const char* ramp_state_name(RampExperiment::State state) noexcept;

}  // namespace quadpool::game::window
