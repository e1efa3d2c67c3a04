#include "game/window/ab_experiment.hpp"

#include <string>

#include "engine/memory/allocator_kind.hpp"
#include "game/util/log.hpp"
#include "common/scene/scene.hpp"

namespace quadpool::game::window {

void AbExperiment::start(const sim::SimulationConfig& subject, const Controls& controls,
                         memory::AllocatorKind allocator) {
  running_ = true;
  cancelled_ = false;
  elapsed_ms_ = 0;
  leg_ = 0;
  frames_in_leg_ = 0;
  subject_ = subject;
  for (std::vector<double>& frame_ms : frame_ms_) {
    frame_ms.clear();
    frame_ms.reserve(kLegFrames * kLegs / 2);
  }
  ticks_.clear();
  ticks_.reserve(kLegFrames * kLegs);
  result_.reset();
  saved_controls_ = controls;
  saved_allocator_ = allocator;
  util::logger().info(
      "A/B: {} scene, {} sprites, seed {}, tree depth {} leaf capacity {}, {} legs of {} "
      "frames",
      scene::scene_name(subject.scene.kind), subject.scene.sprites, subject.scene.seed,
      subject.tree_max_depth, subject.tree_leaf_capacity, kLegs, kLegFrames);
}

AbExperiment::Next AbExperiment::record(const FrameSample& sample) {
  if (!running_ || !sample.ticked) return Next::Continue;
  const int mode = sample.tick.allocator == memory::AllocatorKind::Pool ? 0 : 1;
  frame_ms_[mode].push_back(sample.total);
  ticks_.record(sample.tick);
  elapsed_ms_ += sample.total;
  if (++frames_in_leg_ < kLegFrames) return Next::Continue;
  frames_in_leg_ = 0;
  // Every leg replays the same seeded scene from its start, in the other mode.
  if (++leg_ < kLegs) return Next::NewLeg;

  AbResult result;
  result.sprites = subject_.scene.sprites;
  result.seed = subject_.scene.seed;
  result.scene = subject_.scene.kind;
  result.tree_max_depth = subject_.tree_max_depth;
  result.tree_leaf_capacity = subject_.tree_leaf_capacity;
  result.settings = saved_controls_;
  for (int m = 0; m < 2; ++m) {
    const sim::AllocatorSummary ticks =
        ticks_.summary(m == 0 ? memory::AllocatorKind::Pool : memory::AllocatorKind::NewDelete);
    result.frame_ms[m] = sim::percentiles(frame_ms_[m]);
    result.tick_ms[m] = ticks.tick_ms;
    result.heap_allocations_per_tick[m] = ticks.warm_heap_allocations_mean;
  }
  const std::string heap =
      result.heap_allocations_per_tick[0] && result.heap_allocations_per_tick[1]
          ? fmt::format("{:.1f} pool, {:.1f} new-delete", *result.heap_allocations_per_tick[0],
                        *result.heap_allocations_per_tick[1])
          : std::string("not counted");
  util::logger().info(
      "A/B done ({} scene, {} sprites, seed {}): tick median / p99 {:.3f} / {:.3f} ms pool, {:.3f} "
      "/ "
      "{:.3f} ms new-delete (new-delete / pool {:.2f}x); frame median / p99 {:.2f} / {:.2f} ms "
      "pool, {:.2f} / {:.2f} ms new-delete; heap allocations per tick {}",
      scene::scene_name(result.scene), result.sprites, result.seed, result.tick_ms[0].median,
      result.tick_ms[0].p99, result.tick_ms[1].median, result.tick_ms[1].p99,
      result.tick_median_ratio(), result.frame_ms[0].median, result.frame_ms[0].p99,
      result.frame_ms[1].median, result.frame_ms[1].p99, heap);
  result_ = result;
  running_ = false;
  return Next::Done;
}

void AbExperiment::cancel() noexcept {
  if (!running_) return;
  running_ = false;
  cancelled_ = true;
  util::logger().info("A/B cancelled in leg {} of {}", leg_ + 1, kLegs);
}

double AbExperiment::seconds_left() const noexcept {
  const std::uint64_t done = static_cast<std::uint64_t>(leg_) * kLegFrames + frames_in_leg_;
  if (!running_ || done == 0) return 0.0;
  const std::uint64_t left = kLegs * kLegFrames - done;
  return static_cast<double>(left) * elapsed_ms_ / static_cast<double>(done) / 1000.0;
}

float AbExperiment::progress() const noexcept {
  if (!running_) return result_ ? 1.0f : 0.0f;
  return static_cast<float>(static_cast<std::uint64_t>(leg_) * kLegFrames + frames_in_leg_) /
         static_cast<float>(kLegs * kLegFrames);
}

}  // namespace quadpool::game::window
