#include "game/window/ramp_experiment.hpp"

#include <algorithm>

#include "game/util/log.hpp"

namespace quadpool::game::window {

namespace {

constexpr std::uint64_t kStepFrames =
    RampExperiment::kWarmupFrames + RampExperiment::kLegs * RampExperiment::kLegFrames;

}  // namespace

// A 1-2-5 ladder over two decades: evenly spaced on the plot's logarithmic axis.
std::array<std::size_t, RampExperiment::kSteps> RampExperiment::steps_for(
    std::size_t top) noexcept {
  constexpr std::size_t kHundredths[kSteps] = {1, 2, 5, 10, 20, 50, 100};
  std::array<std::size_t, kSteps> steps{};
  for (int i = 0; i < kSteps; ++i) {
    steps[static_cast<std::size_t>(i)] = std::max<std::size_t>(1, top * kHundredths[i] / 100);
  }
  return steps;
}

RampExperiment::Next RampExperiment::start(const scene::SceneConfig& scene, std::size_t top,
                                           const Controls& controls,
                                           memory::AllocatorKind allocator) {
  state_ = State::Running;
  top_ = top;
  scene_ = scene;
  steps_ = steps_for(top);
  step_ = 0;
  results_.clear();
  results_.reserve(kSteps);
  saved_controls_ = controls;
  saved_allocator_ = allocator;
  util::logger().info(
      "ramp: {} scene, seed {}, {} to {} sprites in {} steps, {} legs of {} frames each",
      scene::scene_name(scene.kind), scene.seed, steps_[0], top, kSteps, kLegs, kLegFrames);
  warmup_left_ = kWarmupFrames;
  legs_.start(kLegs, kLegFrames);
  return Next::Grow;
}

RampExperiment::Next RampExperiment::record(const FrameSample& sample) {
  if (!running() || !sample.ticked) return Next::Continue;
  if (warmup_left_ > 0) {
    --warmup_left_;
    return Next::Continue;
  }
  switch (legs_.record(sample)) {
    case AlternatingLegs::Next::Continue:
      return Next::Continue;
    case AlternatingLegs::Next::NewLeg:
      return Next::Switch;
    case AlternatingLegs::Next::Done:
      break;
  }
  return finish_step();
}

// The step's figures kept and logged; then the next step's field, or the end.
RampExperiment::Next RampExperiment::finish_step() {
  const RampStep& done = results_.emplace_back(RampStep{step_sprites(), legs_.figures()});
  util::logger().info(
      "ramp step {} of {}: {} sprites, tick median {:.3f} ms pool, {:.3f} ms new-delete "
      "(new-delete / pool {:.2f}x)",
      step_ + 1, kSteps, done.sprites, done.figures.tick_ms[0].median,
      done.figures.tick_ms[1].median, done.figures.tick_median_ratio());
  if (++step_ == kSteps) {
    step_ = kSteps - 1;
    state_ = State::Done;
    util::logger().info("ramp done: {} steps up to {} sprites", kSteps, top_);
    return Next::Done;
  }
  warmup_left_ = kWarmupFrames;
  legs_.start(kLegs, kLegFrames);
  return Next::Grow;
}

void RampExperiment::stop() noexcept {
  if (!running()) return;
  state_ = State::Stopped;
  util::logger().info("ramp stopped in step {} of {} ({} sprites)", step_ + 1, kSteps,
                      step_sprites());
}

float RampExperiment::progress() const noexcept {
  if (state_ == State::Done) return 1.0f;
  if (state_ == State::None) return 0.0f;
  const std::uint64_t done = static_cast<std::uint64_t>(step_) * kStepFrames +
                             (kWarmupFrames - warmup_left_) + legs_.frames_done();
  return static_cast<float>(done) / static_cast<float>(kSteps * kStepFrames);
}

const char* ramp_state_name(RampExperiment::State state) noexcept {
  switch (state) {
    case RampExperiment::State::None:
      return "none";
    case RampExperiment::State::Running:
      return "running";
    case RampExperiment::State::Stopped:
      return "stopped";
    case RampExperiment::State::Done:
      return "done";
  }
  return "?";
}

}  // namespace quadpool::game::window
