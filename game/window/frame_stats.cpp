#include "game/window/frame_stats.hpp"

namespace quadpool::game::window {

namespace {
void keep(std::vector<double>& samples, double value) {
  if (samples.size() < FrameStats::kMaxKeptSamples) samples.push_back(value);
}
std::size_t index(memory::AllocatorKind kind) noexcept {
  return kind == memory::AllocatorKind::Pool ? 0 : 1;
}
}  // namespace

void FrameStats::record(const FrameSample& sample) {
  ring_[count_ % kHistory] = sample;
  ++count_;
  keep(all_frame_ms_, sample.total);
  keep(render_ms_, sample.render);
  if (!sample.ticked) return;
  last_ticked_ = sample;
  keep(ticked_frame_ms_[index(sample.tick.allocator)], sample.total);
  ticks_.record(sample.tick);
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
  const sim::AllocatorSummary ticks = ticks_.summary(kind);
  ModeSummary s;
  s.frames = ticks.samples;
  s.frame_ms = sim::percentiles(ticked_frame_ms_[index(kind)]);
  s.tick_ms = ticks.tick_ms;
  s.warm_ticks = ticks.warm_samples;
  s.warm_ticks_with_heap_allocations = ticks.warm_samples_with_heap_allocations;
  s.max_warm_tick_heap_allocations = ticks.max_warm_heap_allocations;
  return s;
}

sim::Percentiles FrameStats::frame_ms() const {
  return sim::percentiles(all_frame_ms_);
}

double FrameStats::render_median() const {
  return sim::percentiles(render_ms_).median;
}

}  // namespace quadpool::game::window
