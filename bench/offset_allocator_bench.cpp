// The offset allocator's benchmarks, linked into memory_bench (which holds main):
//
//   build/bench/bench/memory_bench --benchmark_filter=Offset
//
// - OffsetChurn/<peer>/live:N: N live ranges of random sizes (16 to 1024 bytes) in a space twice
//   their expected total; each step frees a random live range and allocates a new random size.
//   Peers: quadpool's OffsetAllocator, and the same best fit on std::map/std::set (the
//   article's design taken literally, exact ties) to show what the flat nodes and bins buy.
// - OffsetChurnAligned/live:N: the same with random alignments from 1 to 256, where best fit may
//   walk past blocks that are big enough but not once padded.
// - OffsetStream/ranges:K: the demo's pattern. Each frame allocates K ranges (64 to 4096 bytes,
//   16-aligned) from a DeferredOffsetAllocator, frees them all in that frame, and releases the
//   frame from 3 frames ago (3 frames in flight).
// - OffsetFit/<peer>/live:N/space_pct:P: the workload of offset_churn_workload.hpp (N live ranges
//   of log-uniform sizes 16 to 4096 bytes in P % of their expected total, 10 N free + allocate
//   steps drawn before timing). Peers: quadpool's OffsetAllocator freeing by handle
//   (OffsetFit/OffsetAllocatorByHandle) and by offset and size (OffsetFit/OffsetAllocator), the
//   previous implementation (two treaps, baseline_offset_allocator.cpp) and Diligent Engine's
//   design (std::map by offset + std::multimap by size, ties in insertion order). Counters: ns_per_step (one free + one
//   allocate) and failed (allocations that found no space, fill and steps; the same every
//   iteration, the trace is fixed).
//
// Counters of the other cases: ns_per_op (one allocate or one free; the churn steps include
// picking the random victim), fragmentation = 1 - largest_free_block / free_size and free_blocks (churn: after
// 8 warm-up steps per live range; stream: at the end), and `failed`, the allocations that found
// no space during the whole run, warm-up included (0 in every run so far).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <iterator>
#include <memory>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "bench/baseline_offset_allocator.hpp"
#include "bench/offset_churn_workload.hpp"
#include "engine/core/random.hpp"
#include "engine/memory/offset_allocator.hpp"

namespace quadpool::bench {
namespace {

using memory::kNoSpace;
using memory::OffsetAllocation;

/// Best fit on two standard ordered containers, as the Diligent article draws it. Unaligned
/// allocations only; no checks. The node-based containers allocate on every split and merge.
class MapOffsetAllocator {
 public:
  explicit MapOffsetAllocator(std::uint64_t capacity) : free_size_(capacity) { add(0, capacity); }

  OffsetAllocation allocate(std::uint64_t size, std::uint64_t /*alignment*/ = 1) {
    const auto it = by_size_.lower_bound({size, 0});
    if (it == by_size_.end()) return {kNoSpace, 0};
    const auto [block_size, offset] = *it;
    by_size_.erase(it);
    by_offset_.erase(offset);
    if (block_size > size) add(offset + size, block_size - size);
    free_size_ -= size;
    return {offset, size};
  }

  void free(std::uint64_t offset, std::uint64_t size) {
    free_size_ += size;
    auto next = by_offset_.lower_bound(offset);
    if (next != by_offset_.begin()) {
      const auto prev = std::prev(next);
      if (prev->first + prev->second == offset) {
        offset = prev->first;
        size += prev->second;
        remove(prev);
      }
    }
    if (next != by_offset_.end() && offset + size == next->first) {
      size += next->second;
      remove(next);
    }
    add(offset, size);
  }

  std::uint64_t free_size() const { return free_size_; }
  std::uint64_t largest_free_block() const {
    return by_size_.empty() ? 0 : std::prev(by_size_.end())->first;
  }
  std::size_t free_block_count() const { return by_offset_.size(); }

 private:
  void add(std::uint64_t offset, std::uint64_t size) {
    by_offset_.emplace(offset, size);
    by_size_.emplace(size, offset);
  }
  void remove(std::map<std::uint64_t, std::uint64_t>::iterator it) {
    by_size_.erase({it->second, it->first});
    by_offset_.erase(it);
  }

  std::map<std::uint64_t, std::uint64_t> by_offset_;           // offset -> size
  std::set<std::pair<std::uint64_t, std::uint64_t>> by_size_;  // (size, offset)
  std::uint64_t free_size_;
};

/// Diligent Engine's variable-size allocator as its article draws it: free blocks in a std::map by
/// offset and a std::multimap by size, each pointing into the other. Best fit by size; among
/// equal sizes the multimap keeps insertion order, not the lowest offset. No alignment, no checks.
class MultimapOffsetAllocator {
 public:
  explicit MultimapOffsetAllocator(std::uint64_t capacity) { add(0, capacity); }

  OffsetAllocation allocate(std::uint64_t size) {
    const auto by_size = by_size_.lower_bound(size);
    if (by_size == by_size_.end()) return {kNoSpace, 0};
    const auto block = by_size->second;
    const std::uint64_t offset = block->first;
    const std::uint64_t rest = block->second.size - size;
    by_size_.erase(by_size);
    by_offset_.erase(block);
    if (rest > 0) add(offset + size, rest);
    return {offset, size};
  }

  void free(std::uint64_t offset, std::uint64_t size) {
    auto next = by_offset_.upper_bound(offset);
    if (next != by_offset_.begin()) {
      const auto prev = std::prev(next);
      if (prev->first + prev->second.size == offset) {
        offset = prev->first;
        size += prev->second.size;
        remove(prev);
      }
    }
    if (next != by_offset_.end() && offset + size == next->first) {
      size += next->second.size;
      remove(next);
    }
    add(offset, size);
  }

 private:
  struct FreeBlock;
  using ByOffset = std::map<std::uint64_t, FreeBlock>;
  using BySize = std::multimap<std::uint64_t, ByOffset::iterator>;
  struct FreeBlock {
    std::uint64_t size;
    BySize::iterator by_size;
  };

  void add(std::uint64_t offset, std::uint64_t size) {
    const auto block = by_offset_.emplace(offset, FreeBlock{size, {}}).first;
    block->second.by_size = by_size_.emplace(size, block);
  }
  void remove(ByOffset::iterator block) {
    by_size_.erase(block->second.by_size);
    by_offset_.erase(block);
  }

  ByOffset by_offset_;
  BySize by_size_;
};

/// The shape of the free space at one moment.
struct FreeSpaceShape {
  double fragmentation;  // 1 - largest_free_block / free_size
  double free_blocks;

  template <class Allocator>
  static FreeSpaceShape of(const Allocator& allocator) {
    const double free_size = static_cast<double>(allocator.free_size());
    return {free_size == 0 ? 0.0
                           : 1.0 - static_cast<double>(allocator.largest_free_block()) / free_size,
            static_cast<double>(allocator.free_block_count())};
  }
};

void report(benchmark::State& state, std::size_t ops_per_iteration, FreeSpaceShape shape,
            std::uint64_t failed) {
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(ops_per_iteration));
  // kInvert turns "ops per second" into "seconds per op", which prints as ns.
  state.counters["ns_per_op"] = benchmark::Counter(
      static_cast<double>(ops_per_iteration),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.counters["fragmentation"] = shape.fragmentation;
  state.counters["free_blocks"] = shape.free_blocks;
  state.counters["failed"] = static_cast<double>(failed);
}

constexpr std::size_t kWarmUpStepsPerLiveRange = 8;

/// range(0) = live ranges; range(1) = largest alignment exponent (0: unaligned).
template <class Allocator>
void offset_churn(benchmark::State& state) {
  const auto live_count = static_cast<std::size_t>(state.range(0));
  const auto max_alignment_log2 = static_cast<std::uint64_t>(state.range(1));
  constexpr std::uint64_t kMinSize = 16, kMaxSize = 1024;
  Allocator allocator(live_count * (kMinSize + kMaxSize));  // about twice what is live
  Random rng(0x0FF5E7);
  std::uint64_t failed = 0;
  auto allocate_one = [&] {
    const std::uint64_t size = kMinSize + rng.below(kMaxSize - kMinSize + 1);
    const std::uint64_t alignment = std::uint64_t{1} << rng.below(max_alignment_log2 + 1);
    const OffsetAllocation range = allocator.allocate(size, alignment);
    failed += range.offset == kNoSpace;
    return range;
  };
  std::vector<OffsetAllocation> live(live_count);
  for (OffsetAllocation& range : live) range = allocate_one();
  auto step = [&] {
    OffsetAllocation& victim = live[rng.below(live_count)];
    if (victim.offset != kNoSpace) allocator.free(victim.offset, victim.size);
    victim = allocate_one();
  };
  // Churn before timing so the free space has its working shape. The shape is reported as it is
  // here, after the same number of steps per live range at every N: the timed loop runs
  // thousands of times longer at 1k than at 100k, so its end state would not compare.
  for (std::size_t i = 0; i < kWarmUpStepsPerLiveRange * live_count; ++i) step();
  const FreeSpaceShape shape = FreeSpaceShape::of(allocator);

  constexpr std::size_t kStepsPerIteration = 64;
  for (auto _ : state) {
    for (std::size_t i = 0; i < kStepsPerIteration; ++i) step();
  }
  report(state, 2 * kStepsPerIteration, shape, failed);
}

/// range(0) = ranges per frame.
void offset_stream(benchmark::State& state) {
  const auto per_frame = static_cast<std::size_t>(state.range(0));
  constexpr std::uint64_t kFramesInFlight = 3;
  constexpr std::uint64_t kMinSize = 64, kMaxSize = 4096;
  // Room for the frames in flight plus the one being written, with slack for fragmentation.
  memory::DeferredOffsetAllocator stream((kFramesInFlight + 2) * per_frame * kMaxSize);
  Random rng(0x57AEA);
  std::vector<OffsetAllocation> frame_ranges(per_frame);
  std::uint64_t frame = 0, failed = 0;
  auto run_frame = [&] {
    for (OffsetAllocation& range : frame_ranges) {
      range = stream.allocate(kMinSize + rng.below(kMaxSize - kMinSize + 1), 16);
      failed += range.offset == kNoSpace;
    }
    benchmark::ClobberMemory();
    for (const OffsetAllocation& range : frame_ranges) {
      if (range.offset != kNoSpace) stream.free(range, frame);
    }
    ++frame;
    // Frames before frame - 3 + 1 have completed: 3 frames stay in flight.
    if (frame >= kFramesInFlight) stream.release_completed_frames(frame - kFramesInFlight);
  };
  for (int i = 0; i < 16; ++i) run_frame();

  for (auto _ : state) run_frame();
  // allocate + deferred free + release, per range
  report(state, 2 * per_frame, FreeSpaceShape::of(stream.allocator()), failed);
  state.counters["stale_bytes"] = static_cast<double>(stream.stale_size());
}

/// range(0) = live ranges, range(1) = capacity in percent of the expected live bytes.
template <class Adapter>
void offset_fit(benchmark::State& state) {
  const auto live_count = static_cast<std::size_t>(state.range(0));
  const double factor = static_cast<double>(state.range(1)) / 100.0;
  const ChurnTrace trace = make_churn_trace(live_count, 0xF17 + live_count);
  ChurnSlots<Adapter> slots;
  slots.reserve(live_count);
  std::uint64_t failed = 0;
  for (auto _ : state) {
    state.PauseTiming();
    // Built and filled outside the timed region; destroyed there too (at the next pause).
    auto adapter = std::make_unique<Adapter>(churn_capacity(live_count, factor));
    failed = churn_fill(*adapter, trace, slots);
    state.ResumeTiming();
    failed += churn_steps(*adapter, trace, slots);
    state.PauseTiming();
    adapter.reset();
    state.ResumeTiming();
  }
  state.counters["ns_per_step"] = benchmark::Counter(
      static_cast<double>(trace.steps.size()),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.counters["failed"] = static_cast<double>(failed);
}

void fit_cases(benchmark::internal::Benchmark* b) {
  for (std::int64_t n : {1'000, 10'000, 100'000}) {
    for (std::int64_t space_pct : {125, 110, 102}) b->Args({n, space_pct});
  }
  b->ArgNames({"live", "space_pct"});
  b->Unit(benchmark::kMillisecond);
}

void live_counts(benchmark::internal::Benchmark* b, std::int64_t max_alignment_log2) {
  for (std::int64_t n : {1'000, 10'000, 100'000}) b->Args({n, max_alignment_log2});
  b->ArgNames({"live", "align_log2"});
}

BENCHMARK(offset_churn<memory::OffsetAllocator>)
    ->Name("OffsetChurn/OffsetAllocator")
    ->Apply([](benchmark::internal::Benchmark* b) { live_counts(b, 0); });
BENCHMARK(offset_churn<MapOffsetAllocator>)
    ->Name("OffsetChurn/StdMapBestFit")
    ->Apply([](benchmark::internal::Benchmark* b) { live_counts(b, 0); });
BENCHMARK(offset_churn<memory::OffsetAllocator>)
    ->Name("OffsetChurnAligned/OffsetAllocator")
    ->Apply([](benchmark::internal::Benchmark* b) { live_counts(b, 8); });
BENCHMARK(offset_fit<HandleChurnAdapter>)
    ->Name("OffsetFit/OffsetAllocatorByHandle")
    ->Apply(fit_cases);
BENCHMARK(offset_fit<ChurnAdapter<memory::OffsetAllocator>>)
    ->Name("OffsetFit/OffsetAllocator")
    ->Apply(fit_cases);
BENCHMARK(offset_fit<ChurnAdapter<baseline::OffsetAllocator>>)
    ->Name("OffsetFit/PreviousTreaps")
    ->Apply(fit_cases);
BENCHMARK(offset_fit<ChurnAdapter<MultimapOffsetAllocator>>)
    ->Name("OffsetFit/DiligentMultimap")
    ->Apply(fit_cases);
BENCHMARK(offset_stream)
    ->Name("OffsetStream/DeferredOffsetAllocator")
    ->Arg(1'000)
    ->ArgName("ranges");

}  // namespace
}  // namespace quadpool::bench
