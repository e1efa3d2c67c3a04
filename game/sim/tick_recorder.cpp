#include "game/sim/tick_recorder.hpp"

#include <algorithm>

namespace quadpool::game::sim {

namespace {

template <class T>
void keep(std::vector<T>& samples, T value) {
  if (samples.size() < TickRecorder::kMaxKept) samples.push_back(value);
}

}  // namespace

TickSample TickSample::of(const TickStats& tick, bool warm) noexcept {
  return TickSample{tick.ms, tick.allocator, tick.heap_allocations, warm};
}

void TickSample::add(const TickSample& later) noexcept {
  ms.integrate += later.ms.integrate;
  ms.rebuild += later.ms.rebuild;
  ms.pairs += later.ms.pairs;
  ms.resolve += later.ms.resolve;
  ms.total += later.ms.total;
  allocator = later.allocator;
  if (later.heap_allocations) {
    heap_allocations = heap_allocations.value_or(0) + *later.heap_allocations;
  }
  warm = warm && later.warm;
}

bool HeapWarmup::next_tick(const Simulation& sim) noexcept {
  // A pool with less room than the last tree had grows during this tick.
  const bool cold_pool = sim.allocator() == memory::AllocatorKind::Pool &&
                         sim.tree().pool_stats().capacity < sim.last_tick().tree.nodes;
  if (cold_pool) ticks_since_restart_ = 0;
  return ticks_since_restart_++ >= kHeapWarmupTicks;
}

void TickRecorder::reserve(std::size_t samples) {
  const std::size_t n = std::min(samples, kMaxKept);
  for (PerAllocator& mode : by_) {
    mode.tick_ms.reserve(n);
    mode.warm_heap.reserve(n);
  }
  for (std::vector<float>& phase : phase_ms_) phase.reserve(n);
}

void TickRecorder::record(const TickSample& sample) {
  PerAllocator& mode = by_[index(sample.allocator)];
  ++mode.samples;
  keep(mode.tick_ms, static_cast<float>(sample.ms.total));
  keep(phase_ms_[0], static_cast<float>(sample.ms.integrate));
  keep(phase_ms_[1], static_cast<float>(sample.ms.rebuild));
  keep(phase_ms_[2], static_cast<float>(sample.ms.pairs));
  keep(phase_ms_[3], static_cast<float>(sample.ms.resolve));
  if (sample.warm && sample.heap_allocations) {
    const std::uint64_t made = *sample.heap_allocations;
    keep(mode.warm_heap, made);
    ++mode.warm_samples;
    if (made > 0) ++mode.warm_allocating;
    mode.warm_max = std::max(mode.warm_max, made);
    mode.warm_sum += made;
  }
}

void TickRecorder::clear() noexcept {
  for (PerAllocator& mode : by_) {
    mode.tick_ms.clear();
    mode.warm_heap.clear();
    mode.samples = mode.warm_samples = mode.warm_allocating = mode.warm_max = mode.warm_sum = 0;
  }
  for (std::vector<float>& phase : phase_ms_) phase.clear();
}

AllocatorSummary TickRecorder::summary(memory::AllocatorKind kind) const {
  const PerAllocator& mode = by_[index(kind)];
  std::vector<float> tick_ms = mode.tick_ms;
  AllocatorSummary s;
  s.samples = mode.samples;
  s.tick_ms = sorted_percentiles(tick_ms);
  s.warm_samples = mode.warm_samples;
  s.warm_samples_with_heap_allocations = mode.warm_allocating;
  s.max_warm_heap_allocations = mode.warm_max;
  if (mode.warm_samples > 0) {
    s.warm_heap_allocations_mean =
        static_cast<double>(mode.warm_sum) / static_cast<double>(mode.warm_samples);
  }
  return s;
}

Percentiles TickRecorder::tick_ms() const {
  std::vector<float> all = by_[0].tick_ms;
  all.insert(all.end(), by_[1].tick_ms.begin(), by_[1].tick_ms.end());
  return sorted_percentiles(all);
}

PhaseTimes TickRecorder::phase_medians() const {
  auto median = [](std::vector<float> samples) { return sorted_percentiles(samples).median; };
  return PhaseTimes{.integrate = median(phase_ms_[0]),
                    .rebuild = median(phase_ms_[1]),
                    .pairs = median(phase_ms_[2]),
                    .resolve = median(phase_ms_[3]),
                    .total = tick_ms().median};
}

std::optional<Percentiles> TickRecorder::warm_heap_allocations() const {
  if (by_[0].warm_samples + by_[1].warm_samples == 0) return std::nullopt;
  std::vector<std::uint64_t> all = by_[0].warm_heap;
  all.insert(all.end(), by_[1].warm_heap.begin(), by_[1].warm_heap.end());
  Percentiles heap = sorted_percentiles(all);
  heap.max = static_cast<double>(std::max(by_[0].warm_max, by_[1].warm_max));
  return heap;
}

}  // namespace quadpool::game::sim
