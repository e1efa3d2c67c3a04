// box_gather: the least that an input order can cost the tree's rebuild. The build has to bring
// every box from the caller's order into its own (leaf) order once a frame; this is that one
// pass and nothing else: N boxes (engine/spatial's Aabb, 16 bytes) copied into four float
// columns, as QuadTree's gather_run does.
//
//   gather/ORDER/WARMTH/N   slot t takes box ids[t], t = 0..N-1, with the tree's prefetch of the
//                           box 64 slots ahead (reads jump, writes stream: the tree's way)
//   scatter/ORDER/WARMTH/N  box i goes to slot ids[i], i = 0..N-1 (reads stream, writes jump)
//
// ORDER: id (ids[t] = t: what a caller whose boxes are already in the tree's order hands it, as
// the game does) or random (a fixed shuffle: a library user's ids, which say nothing of where a
// box is). WARMTH: warm repeats the pass, so the boxes stay in whatever cache holds them; cold
// times ten passes, each after reading a buffer twice the largest cache (untimed), as a frame's
// other work does at a million sprites. Counter: ns_per_box.
//
//   build/bench/bench/box_gather --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "bench/bench_guard.hpp"
#include "engine/core/random.hpp"
#include "engine/spatial/aabb.hpp"

namespace quadpool::bench {
namespace {

using spatial::Aabb;

constexpr std::size_t kPrefetchAhead = 64;  // QuadTree::kGatherPrefetch
constexpr benchmark::IterationCount kColdPasses = 10;

struct Columns {
  explicit Columns(std::size_t n) : min_x(n), min_y(n), max_x(n), max_y(n) {}
  std::vector<float> min_x, min_y, max_x, max_y;
};

// ids[t] = t, or a shuffle of it (Fisher-Yates on the project's portable generator, fixed seed).
std::vector<std::uint32_t> make_ids(std::size_t n, bool random) {
  std::vector<std::uint32_t> ids(n);
  std::iota(ids.begin(), ids.end(), 0u);
  if (random) {
    Random rng(0x9a7e);
    for (std::size_t i = n - 1; i > 0; --i) std::swap(ids[i], ids[rng.below(i + 1)]);
  }
  return ids;
}

std::vector<Aabb> make_boxes(std::size_t n) {
  std::vector<Aabb> boxes(n);
  Random rng(7);
  for (Aabb& box : boxes) {
    const float x = rng.uniform(0.0f, 4096.0f);
    const float y = rng.uniform(0.0f, 4096.0f);
    box = {x, y, x + 2.0f, y + 2.0f};
  }
  return boxes;
}

void gather(std::span<const Aabb> boxes, std::span<const std::uint32_t> ids, Columns& out) {
  const std::size_t n = ids.size();
  const auto copy = [&](std::size_t t) {
    const Aabb& box = boxes[ids[t]];
    out.min_x[t] = box.min_x;
    out.min_y[t] = box.min_y;
    out.max_x[t] = box.max_x;
    out.max_y[t] = box.max_y;
  };
  std::size_t t = 0;
  for (; t + kPrefetchAhead < n; ++t) {
    __builtin_prefetch(&boxes[ids[t + kPrefetchAhead]]);
    copy(t);
  }
  for (; t < n; ++t) copy(t);
}

void scatter(std::span<const Aabb> boxes, std::span<const std::uint32_t> ids, Columns& out) {
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const Aabb& box = boxes[i];
    const std::uint32_t slot = ids[i];
    out.min_x[slot] = box.min_x;
    out.min_y[slot] = box.min_y;
    out.max_x[slot] = box.max_x;
    out.max_y[slot] = box.max_y;
  }
}

// Reads a buffer twice the size of the largest cache Google Benchmark found (64 MiB when it
// found none), one byte a cache line, so that the next pass starts from memory.
void evict_caches() {
  static const std::vector<unsigned char> buffer = [] {
    std::size_t largest = 0;
    for (const auto& cache : benchmark::CPUInfo::Get().caches) {
      largest = std::max(largest, static_cast<std::size_t>(cache.size));
    }
    return std::vector<unsigned char>(std::max<std::size_t>(2 * largest, 64u << 20), 1);
  }();
  unsigned sum = 0;
  for (std::size_t i = 0; i < buffer.size(); i += 64) sum += buffer[i];
  benchmark::DoNotOptimize(sum);
}

void run_pass(benchmark::State& state, bool use_gather, bool random, bool cold, std::size_t n) {
  const std::vector<Aabb> boxes = make_boxes(n);
  const std::vector<std::uint32_t> ids = make_ids(n, random);
  Columns columns(n);
  for (auto _ : state) {
    if (cold) {
      state.PauseTiming();
      evict_caches();
      state.ResumeTiming();
    }
    if (use_gather) {
      gather(boxes, ids, columns);
    } else {
      scatter(boxes, ids, columns);
    }
    benchmark::ClobberMemory();
  }
  state.counters["ns_per_box"] =
      benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate |
                                                     benchmark::Counter::kInvert);
}

void register_all() {
  for (const bool use_gather : {true, false}) {
    for (const bool cold : {false, true}) {
      for (const std::size_t n : {std::size_t{100'000}, std::size_t{1'000'000}}) {
        for (const bool random : {false, true}) {
          const std::string name = std::string(use_gather ? "gather/" : "scatter/") +
                                   (random ? "random/" : "id/") + (cold ? "cold/" : "warm/") +
                                   std::to_string(n);
          auto* benchmark =
              benchmark::RegisterBenchmark(name.c_str(), run_pass, use_gather, random, cold, n);
          benchmark->Unit(benchmark::kMillisecond);
          // Each cold pass reads twice the largest cache first, untimed: a fixed count keeps
          // the run to seconds.
          if (cold) benchmark->Iterations(kColdPasses);
        }
      }
    }
  }
}

// Registered before main(), as Google Benchmark's BENCHMARK() macro registers its own.
[[maybe_unused]] const bool kRegistered = (register_all(), true);

}  // namespace
}  // namespace quadpool::bench

QUADPOOL_BENCHMARK_MAIN();
