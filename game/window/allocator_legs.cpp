#include "game/window/allocator_legs.hpp"

#include "engine/memory/allocator_kind.hpp"

namespace quadpool::game::window {

void AlternatingLegs::start(int legs, std::uint64_t leg_frames) {
  legs_ = legs;
  leg_ = 0;
  leg_frames_ = leg_frames;
  frames_in_leg_ = 0;
  elapsed_ms_ = 0;
  for (std::vector<double>& frame_ms : frame_ms_) {
    frame_ms.clear();
    frame_ms.reserve(frames_total() / 2 + leg_frames);
  }
  ticks_.clear();
  ticks_.reserve(frames_total());
}

AlternatingLegs::Next AlternatingLegs::record(const FrameSample& sample) {
  if (leg_ >= legs_ || !sample.ticked) return Next::Continue;
  const int mode = sample.tick.allocator == memory::AllocatorKind::Pool ? 0 : 1;
  frame_ms_[mode].push_back(sample.total);
  ticks_.record(sample.tick);
  elapsed_ms_ += sample.total;
  if (++frames_in_leg_ < leg_frames_) return Next::Continue;
  frames_in_leg_ = 0;
  return ++leg_ < legs_ ? Next::NewLeg : Next::Done;
}

LegFigures AlternatingLegs::figures() const {
  LegFigures figures;
  for (int m = 0; m < 2; ++m) {
    const sim::AllocatorSummary ticks =
        ticks_.summary(m == 0 ? memory::AllocatorKind::Pool : memory::AllocatorKind::NewDelete);
    figures.frame_ms[m] = sim::percentiles(frame_ms_[m]);
    figures.tick_ms[m] = ticks.tick_ms;
    figures.heap_allocations_per_tick[m] = ticks.warm_heap_allocations_mean;
  }
  return figures;
}

}  // namespace quadpool::game::window
