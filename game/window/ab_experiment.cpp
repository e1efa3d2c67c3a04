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
  legs_.start(kLegs, kLegFrames);
  subject_ = subject;
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
  if (!running_) return Next::Continue;
  // Every leg replays the same seeded scene from its start, in the other mode.
  const Next next = legs_.record(sample);
  if (next != Next::Done) return next;

  AbResult result;
  static_cast<LegFigures&>(result) = legs_.figures();
  result.sprites = subject_.scene.sprites;
  result.seed = subject_.scene.seed;
  result.scene = subject_.scene.kind;
  result.tree_max_depth = subject_.tree_max_depth;
  result.tree_leaf_capacity = subject_.tree_leaf_capacity;
  result.settings = saved_controls_;
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
  util::logger().info("A/B cancelled in leg {} of {}", legs_.leg() + 1, kLegs);
}

double AbExperiment::seconds_left() const noexcept {
  const std::uint64_t done = legs_.frames_done();
  if (!running_ || done == 0) return 0.0;
  const std::uint64_t left = legs_.frames_total() - done;
  return static_cast<double>(left) * legs_.elapsed_ms() / static_cast<double>(done) / 1000.0;
}

float AbExperiment::progress() const noexcept {
  if (!running_) return result_ ? 1.0f : 0.0f;
  return static_cast<float>(legs_.frames_done()) / static_cast<float>(legs_.frames_total());
}

}  // namespace quadpool::game::window
