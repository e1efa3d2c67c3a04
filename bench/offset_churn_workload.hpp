#pragma once
// The offset allocators' churn workload, one definition for offset_allocator_bench.cpp and for
// anyone who wants to run another allocator through exactly the same requests:
//
// - N live ranges of log-uniform sizes in [16, 4096) bytes: size = floor(16 * 2^(8u)), u uniform
//   in [0, 1), so every octave (16-31, 32-63, ... 2048-4095) is equally likely;
// - capacity = factor * N * mean size, the mean of the continuous log-uniform distribution on
//   [16, 4096], (4096 - 16) / ln(256) = 735.8 bytes: factor 1.10 leaves 10 % more space than the
//   live ranges need on average;
// - fill: N allocations in a row; then 10 N steps, each freeing a random live range (nothing
//   when its slot holds a failed allocation) and allocating a new one in that slot.
//
// The requests (sizes and victims) are drawn once into a ChurnTrace before anything is timed, so
// every allocator sees the same sequence and the timed loop costs only the allocator's work and
// reading the trace.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "engine/core/random.hpp"
#include "engine/memory/offset_allocator.hpp"

namespace quadpool::bench {

inline constexpr std::uint64_t kChurnMinSize = 16;
inline constexpr std::uint64_t kChurnMaxSize = 4096;
inline constexpr std::size_t kChurnStepsPerLiveRange = 10;

/// The mean of the log-uniform distribution on [kChurnMinSize, kChurnMaxSize].
inline double churn_mean_size() {
  return static_cast<double>(kChurnMaxSize - kChurnMinSize) /
         std::log(static_cast<double>(kChurnMaxSize) / static_cast<double>(kChurnMinSize));
}

/// factor * live_ranges * churn_mean_size(), in bytes.
inline std::uint64_t churn_capacity(std::size_t live_ranges, double factor) {
  return static_cast<std::uint64_t>(factor * static_cast<double>(live_ranges) * churn_mean_size());
}

struct ChurnStep {
  std::uint32_t victim;  // the slot whose range is freed, then refilled
  std::uint32_t size;    // the new range's size
};

struct ChurnTrace {
  std::vector<std::uint32_t> fill_sizes;  // live_ranges sizes
  std::vector<ChurnStep> steps;           // kChurnStepsPerLiveRange * live_ranges steps
};

inline ChurnTrace make_churn_trace(std::size_t live_ranges, std::uint64_t seed) {
  Random rng(seed);
  auto draw_size = [&rng] {
    return static_cast<std::uint32_t>(static_cast<double>(kChurnMinSize) *
                                      std::exp2(8.0 * rng.unit_double()));
  };
  ChurnTrace trace;
  trace.fill_sizes.resize(live_ranges);
  for (std::uint32_t& size : trace.fill_sizes) size = draw_size();
  trace.steps.resize(kChurnStepsPerLiveRange * live_ranges);
  for (ChurnStep& step : trace.steps) {
    step.victim = static_cast<std::uint32_t>(rng.below(live_ranges));
    step.size = draw_size();
  }
  return trace;
}

/// What a caller that frees by offset keeps of a live range: its offset and size, 16 bytes. (An
/// OffsetAllocation also carries the handle, 8 bytes more that such a caller has no use for.)
struct ChurnRange {
  std::uint64_t offset;
  std::uint64_t size;
};

/// What the workload needs of an allocator, here for quadpool's interface freeing by offset
/// (allocate(size) -> OffsetAllocation, free(offset, size)). Another allocator gets its own
/// adapter with the same three members.
template <class Allocator>
struct ChurnAdapter {
  Allocator allocator;

  explicit ChurnAdapter(std::uint64_t capacity) : allocator(capacity) {}
  ChurnRange allocate(std::uint64_t size) {
    const auto allocation = allocator.allocate(size);
    return {allocation.offset, allocation.size};
  }
  static bool failed(const ChurnRange& r) { return r.offset == memory::kNoSpace; }
  void free(const ChurnRange& r) { allocator.free(r.offset, r.size); }
};

/// The same for quadpool's OffsetAllocator freeing by handle: a slot keeps the whole allocation.
/// A template only so that offset_peers can include this file when built against a checkout
/// whose allocator predates handles (it then never instantiates this one).
template <class Allocator>
struct BasicHandleChurnAdapter {
  using Allocation = decltype(std::declval<Allocator&>().allocate(0));
  Allocator allocator;

  explicit BasicHandleChurnAdapter(std::uint64_t capacity) : allocator(capacity) {}
  Allocation allocate(std::uint64_t size) { return allocator.allocate(size); }
  static bool failed(const Allocation& a) { return a.offset == memory::kNoSpace; }
  void free(const Allocation& a) { allocator.free(a); }
};
using HandleChurnAdapter = BasicHandleChurnAdapter<memory::OffsetAllocator>;

/// The live ranges of one run, one slot per live range.
template <class Adapter>
using ChurnSlots = std::vector<decltype(std::declval<Adapter&>().allocate(0))>;

/// The fill: one allocation per slot. Returns the failed allocations.
template <class Adapter>
std::uint64_t churn_fill(Adapter& adapter, const ChurnTrace& trace, ChurnSlots<Adapter>& slots) {
  std::uint64_t failed = 0;
  slots.clear();
  for (const std::uint32_t size : trace.fill_sizes) {
    slots.push_back(adapter.allocate(size));
    failed += Adapter::failed(slots.back());
  }
  return failed;
}

/// The steps. Returns the failed allocations.
template <class Adapter>
std::uint64_t churn_steps(Adapter& adapter, const ChurnTrace& trace, ChurnSlots<Adapter>& slots) {
  std::uint64_t failed = 0;
  for (const ChurnStep& step : trace.steps) {
    auto& slot = slots[step.victim];
    if (!Adapter::failed(slot)) adapter.free(slot);
    slot = adapter.allocate(step.size);
    failed += Adapter::failed(slot);
  }
  return failed;
}

}  // namespace quadpool::bench
