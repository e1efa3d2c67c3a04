#include "game/demo/frame_stats.hpp"

#include <numeric>

#include "engine/memory/allocator_kind.hpp"

namespace quadpool::game::demo {

namespace {
void keep(std::vector<double>& samples, double value) {
  if (samples.size() < FrameStats::kMaxKeptSamples) samples.push_back(value);
}
}  // namespace

void FrameStats::record(const FrameSample& sample) {
  ring_[count_ % kHistory] = sample;
  ++count_;
  keep(all_frame_ms_, sample.total);
  keep(render_ms_, sample.render);
  if (!sample.ticked) return;
  ModeSamples& mode = sample.allocator == memory::AllocatorKind::Pool ? pool_ : new_delete_;
  ++mode.frames;
  keep(mode.frame_ms, sample.total);
  keep(mode.tick_ms, sample.integrate + sample.rebuild + sample.pairs + sample.resolve);
  keep(phase_ms_[0], sample.integrate);
  keep(phase_ms_[1], sample.rebuild);
  keep(phase_ms_[2], sample.pairs);
  keep(phase_ms_[3], sample.resolve);
  if (sample.warm && sample.tick_heap_allocations) {
    const std::uint64_t made = *sample.tick_heap_allocations;
    ++mode.warm_ticks;
    if (made > 0) ++mode.warm_allocating;
    if (made > mode.max_warm_allocations) mode.max_warm_allocations = made;
  }
}

const FrameSample& FrameStats::history(std::size_t i) const noexcept {
  const std::uint64_t first = count_ - history_size();
  return ring_[(first + i) % kHistory];
}

double FrameStats::recent_fps() const noexcept {
  double total_ms = 0;
  for (std::size_t i = 0; i < history_size(); ++i) total_ms += history(i).total;
  return total_ms > 0 ? 1000.0 * static_cast<double>(history_size()) / total_ms : 0.0;
}

ModeSummary FrameStats::summary(memory::AllocatorKind kind) const {
  const ModeSamples& mode = kind == memory::AllocatorKind::Pool ? pool_ : new_delete_;
  ModeSummary s;
  s.frames = mode.frames;
  s.frame_ms = percentiles(mode.frame_ms);
  s.tick_ms = percentiles(mode.tick_ms);
  s.warm_ticks = mode.warm_ticks;
  s.warm_ticks_with_heap_allocations = mode.warm_allocating;
  s.max_warm_tick_heap_allocations = mode.max_warm_allocations;
  return s;
}

Percentiles FrameStats::frame_ms() const {
  return percentiles(all_frame_ms_);
}

FrameSample FrameStats::phase_medians() const {
  FrameSample m;
  m.integrate = static_cast<float>(percentiles(phase_ms_[0]).median);
  m.rebuild = static_cast<float>(percentiles(phase_ms_[1]).median);
  m.pairs = static_cast<float>(percentiles(phase_ms_[2]).median);
  m.resolve = static_cast<float>(percentiles(phase_ms_[3]).median);
  m.render = static_cast<float>(percentiles(render_ms_).median);
  m.total = static_cast<float>(percentiles(all_frame_ms_).median);
  return m;
}

}  // namespace quadpool::game::demo
