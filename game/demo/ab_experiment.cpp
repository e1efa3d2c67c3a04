#include "game/demo/ab_experiment.hpp"

#include "engine/core/log.hpp"

namespace quadpool::game::demo {

void AbExperiment::start(std::size_t sprites, std::uint64_t seed, const Controls& controls,
                         AllocatorKind allocator) {
  running_ = true;
  leg_ = 0;
  frames_in_leg_ = 0;
  sprites_ = sprites;
  seed_ = seed;
  for (int mode = 0; mode < 2; ++mode) {
    frame_ms_[mode].clear();
    tick_ms_[mode].clear();
    frame_ms_[mode].reserve(kLegFrames * kLegs / 2);
    tick_ms_[mode].reserve(kLegFrames * kLegs / 2);
  }
  result_.reset();
  saved_controls_ = controls;
  saved_allocator_ = allocator;
  logger().info("A/B: {} sprites, seed {}, {} legs of {} frames", sprites, seed, kLegs, kLegFrames);
}

AbExperiment::Next AbExperiment::record(const FrameSample& sample) {
  if (!running_ || !sample.ticked) return Next::Continue;
  const int mode = sample.allocator == AllocatorKind::Pool ? 0 : 1;
  frame_ms_[mode].push_back(sample.total);
  tick_ms_[mode].push_back(sample.integrate + sample.rebuild + sample.pairs + sample.resolve);
  if (++frames_in_leg_ < kLegFrames) return Next::Continue;
  frames_in_leg_ = 0;
  // Every leg replays the same seeded scene from its start, in the other mode.
  if (++leg_ < kLegs) return Next::NewLeg;

  AbResult result;
  result.sprites = sprites_;
  result.seed = seed_;
  for (int m = 0; m < 2; ++m) {
    result.frame_ms[m] = percentiles(frame_ms_[m]);
    result.tick_ms[m] = percentiles(tick_ms_[m]);
  }
  logger().info(
      "A/B done: frame median {:.2f} ms pool, {:.2f} ms new-delete; tick median {:.3f} "
      "ms pool, {:.3f} ms new-delete",
      result.frame_ms[0].median, result.frame_ms[1].median, result.tick_ms[0].median,
      result.tick_ms[1].median);
  result_ = result;
  running_ = false;
  return Next::Done;
}

float AbExperiment::progress() const noexcept {
  if (!running_) return result_ ? 1.0f : 0.0f;
  return static_cast<float>(static_cast<std::uint64_t>(leg_) * kLegFrames + frames_in_leg_) /
         static_cast<float>(kLegs * kLegFrames);
}

}  // namespace quadpool::game::demo
