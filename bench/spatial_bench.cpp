// spatial_bench: the broad phase per tick (build + every overlapping pair) on the shared game
// scene (game/scene.hpp), for N = 1k, 10k and 100k, with every peer in one binary and one run:
//   quadtree_pool       QuadTree, nodes from its ObjectPool
//   quadtree_new_delete QuadTree, nodes from new/delete
//   uniform_grid        bench/uniform_grid.hpp, rebuilt every tick, cell = 2 x the largest radius
//   brute_force         engine/spatial/brute_force.hpp (1k and 10k only)
//   box2d               Box2D 2.4 b2BroadPhase: MoveProxy every proxy, UpdatePairs, pair upkeep
//                       (bench/box2d_pairs.hpp), when libbox2d-dev was found
//
// Every benchmark of one N replays the same ticks from the same seed. The first method to reach
// a tick records its pair count and an order-independent hash of its pairs; every other method
// must match them on that tick, or the benchmark fails (SkipWithError, exit code 1).
//
// Time is measured per tick (manual timing), so each benchmark reports its own p50 and p99:
//   p50_us, p99_us        build + pairs
//   build_p50_us          the build alone (QuadTree::rebuild, grid counting sort, MoveProxy)
//   pairs_p50_us          the pair enumeration alone
//   pairs                 overlapping pairs per tick
// Extra flags (before the Google Benchmark ones):
//   --quadtree_leaf_capacity=K  (default 32)   --quadtree_max_depth=D  (default 8)
//   --box2d_units_per_meter=U   (default 16: sprites of radius 2..6 become 0.25..0.75 m balls)
//   --ticks=T                   time exactly T ticks per benchmark (brute force: at most 10);
//                               default 0 lets Google Benchmark choose (--benchmark_min_time)
//
// Sections: pair tally and cross-check, methods, the timed loop, main.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench/uniform_grid.hpp"
#include "engine/spatial/brute_force.hpp"
#include "engine/spatial/quad_tree.hpp"
#include "game/scene.hpp"
#if defined(QUADPOOL_HAVE_BOX2D)
#include "bench/box2d_pairs.hpp"
#endif

namespace {

using quadpool::spatial::Aabb;

constexpr std::uint64_t kSceneSeed = 2026;
constexpr int kWarmUpTicks = 3;  // untimed: pools, arrays and Box2D's first full pair pass grow

int g_leaf_capacity = 32;  // tuned on this scene: see engine/spatial/README.md
int g_max_depth = 8;
int g_box2d_units_per_meter = 16;
int g_ticks = 0;  // 0: Google Benchmark decides how many ticks to time
bool g_failed = false;

// --- pair tally and cross-check ----------------------------------------------------------------

std::uint64_t mix(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// What every method must agree on: the pair count and a hash that does not depend on order.
struct Tally {
  std::uint64_t pairs = 0;
  std::uint64_t hash = 0;
  void add(std::uint32_t a, std::uint32_t b) {
    ++pairs;
    hash += mix(static_cast<std::uint64_t>(a) << 32 | b);
  }
  bool operator==(const Tally&) const = default;
};

// (N, tick) -> the first tally seen for it.
std::map<std::pair<std::size_t, std::size_t>, Tally>& reference_tallies() {
  static std::map<std::pair<std::size_t, std::size_t>, Tally> tallies;
  return tallies;
}

// --- methods -----------------------------------------------------------------------------------

class Method {
 public:
  virtual ~Method() = default;
  virtual void build(std::span<const Aabb> boxes) = 0;
  virtual Tally pairs(std::span<const Aabb> boxes) = 0;
};

class QuadTreeMethod final : public Method {
 public:
  QuadTreeMethod(float side, quadpool::spatial::AllocatorKind kind)
      : tree_({.bounds = {0, 0, side, side}, .max_depth = g_max_depth, .leaf_capacity = g_leaf_capacity},
              kind) {}
  void build(std::span<const Aabb> boxes) override { tree_.rebuild(boxes); }
  Tally pairs(std::span<const Aabb>) override {
    Tally tally;
    tree_.for_each_pair([&](std::uint32_t a, std::uint32_t b) { tally.add(a, b); });
    return tally;
  }

 private:
  quadpool::spatial::QuadTree tree_;
};

class GridMethod final : public Method {
 public:
  GridMethod(float side, float cell) : grid_({0, 0, side, side}, cell) {}
  void build(std::span<const Aabb> boxes) override { grid_.rebuild(boxes); }
  Tally pairs(std::span<const Aabb>) override {
    Tally tally;
    grid_.for_each_pair([&](std::uint32_t a, std::uint32_t b) { tally.add(a, b); });
    return tally;
  }

 private:
  quadpool::bench::UniformGrid grid_;
};

class BruteForceMethod final : public Method {
 public:
  void build(std::span<const Aabb>) override {}
  Tally pairs(std::span<const Aabb> boxes) override {
    Tally tally;
    quadpool::spatial::brute_force_pairs(boxes, [&](std::uint32_t a, std::uint32_t b) { tally.add(a, b); });
    return tally;
  }
};

#if defined(QUADPOOL_HAVE_BOX2D)
class Box2dMethod final : public Method {
 public:
  explicit Box2dMethod(std::span<const Aabb> boxes) : box2d_(boxes, g_box2d_units_per_meter) {}
  void build(std::span<const Aabb> boxes) override { box2d_.move(boxes); }
  Tally pairs(std::span<const Aabb> boxes) override {
    Tally tally;
    for (const std::uint64_t key : box2d_.overlapping_pairs(boxes)) {
      tally.add(static_cast<std::uint32_t>(key >> 32), static_cast<std::uint32_t>(key));
    }
    return tally;
  }

 private:
  quadpool::bench::Box2dPairs box2d_;
};
#endif

enum class MethodKind { QuadTreePool, QuadTreeNewDelete, UniformGrid, BruteForce, Box2d };

std::unique_ptr<Method> make_method(MethodKind kind, std::span<const Aabb> boxes, float side,
                                    float largest_radius) {
  switch (kind) {
    case MethodKind::QuadTreePool:
      return std::make_unique<QuadTreeMethod>(side, quadpool::spatial::AllocatorKind::Pool);
    case MethodKind::QuadTreeNewDelete:
      return std::make_unique<QuadTreeMethod>(side, quadpool::spatial::AllocatorKind::NewDelete);
    case MethodKind::UniformGrid:
      return std::make_unique<GridMethod>(side, 2.0f * largest_radius);
    case MethodKind::BruteForce:
      return std::make_unique<BruteForceMethod>();
    case MethodKind::Box2d:
#if defined(QUADPOOL_HAVE_BOX2D)
      return std::make_unique<Box2dMethod>(boxes);
#else
      break;
#endif
  }
  (void)boxes;
  return nullptr;
}

// --- the timed loop ----------------------------------------------------------------------------

double percentile(std::vector<double> samples, double fraction) {
  if (samples.empty()) return 0.0;
  const auto rank = static_cast<std::size_t>(fraction * static_cast<double>(samples.size() - 1) + 0.5);
  std::nth_element(samples.begin(), samples.begin() + static_cast<std::ptrdiff_t>(rank), samples.end());
  return samples[rank];
}

void broad_phase(benchmark::State& state, MethodKind kind, const char* name, std::size_t sprites_count) {
  using Clock = std::chrono::steady_clock;
  const quadpool::game::SceneConfig scene{.seed = kSceneSeed, .sprites = sprites_count};
  auto sprites = quadpool::game::spawn_sprites(scene);
  const float side = quadpool::game::world_side(sprites_count);
  std::vector<Aabb> boxes(sprites.size());
  auto update_boxes = [&] {
    for (std::size_t i = 0; i < sprites.size(); ++i) boxes[i] = quadpool::game::bounds_of(sprites[i]);
  };
  update_boxes();
  const std::unique_ptr<Method> method = make_method(kind, boxes, side, scene.max_radius);

  std::vector<double> total_us, build_us, pairs_us;
  std::size_t tick = 0;
  std::uint64_t pairs_seen = 0;
  // One tick: move (untimed), build and enumerate (timed), cross-check (untimed).
  auto run_tick = [&](bool timed) -> bool {
    quadpool::game::move_and_bounce(sprites, side);
    update_boxes();
    ++tick;
    const auto t0 = Clock::now();
    method->build(boxes);
    const auto t1 = Clock::now();
    const Tally tally = method->pairs(boxes);
    const auto t2 = Clock::now();
    if (timed) {
      state.SetIterationTime(std::chrono::duration<double>(t2 - t0).count());
      total_us.push_back(std::chrono::duration<double, std::micro>(t2 - t0).count());
      build_us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
      pairs_us.push_back(std::chrono::duration<double, std::micro>(t2 - t1).count());
      pairs_seen += tally.pairs;
    }
    const auto [it, first] = reference_tallies().try_emplace({sprites_count, tick}, tally);
    if (!first && !(it->second == tally)) {
      const std::string message = std::string(name) + " disagrees at N=" + std::to_string(sprites_count) +
                                  ", tick " + std::to_string(tick) + ": " + std::to_string(tally.pairs) +
                                  " pairs, expected " + std::to_string(it->second.pairs) +
                                  (tally.pairs == it->second.pairs ? " (same count, different pairs)" : "");
      std::fprintf(stderr, "spatial_bench: %s\n", message.c_str());
      state.SkipWithError(message.c_str());
      g_failed = true;
      return false;
    }
    return true;
  };

  for (int i = 0; i < kWarmUpTicks; ++i) {
    if (!run_tick(false)) return;
  }
  for (auto _ : state) {
    if (!run_tick(true)) break;
  }
  if (total_us.empty()) return;
  state.counters["p50_us"] = percentile(total_us, 0.50);
  state.counters["p99_us"] = percentile(total_us, 0.99);
  state.counters["build_p50_us"] = percentile(build_us, 0.50);
  state.counters["pairs_p50_us"] = percentile(pairs_us, 0.50);
  state.counters["pairs"] = static_cast<double>(pairs_seen) / static_cast<double>(total_us.size());
}

// --- main --------------------------------------------------------------------------------------

// Reads --NAME=V for an int in [lo, hi]; reports a bad value and exits with code 2.
bool read_int_flag(const char* arg, const char* name, int lo, int hi, int& out) {
  const std::size_t length = std::strlen(name);
  if (std::strncmp(arg, name, length) != 0 || arg[length] != '=') return false;
  const char* text = arg + length + 1;
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  if (*text == '\0' || *end != '\0' || value < lo || value > hi) {
    std::fprintf(stderr, "spatial_bench: %s is '%s'; it must be an integer in %d..%d\n", name, text, lo, hi);
    std::exit(2);
  }
  out = static_cast<int>(value);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  // Take our own flags out of argv before Google Benchmark sees it.
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    if (read_int_flag(argv[i], "--quadtree_leaf_capacity", 1, 1 << 20, g_leaf_capacity)) continue;
    if (read_int_flag(argv[i], "--quadtree_max_depth", 1, 16, g_max_depth)) continue;
    if (read_int_flag(argv[i], "--box2d_units_per_meter", 1, 1000, g_box2d_units_per_meter)) continue;
    if (read_int_flag(argv[i], "--ticks", 0, 1'000'000, g_ticks)) continue;
    argv[kept++] = argv[i];
  }
  argc = kept;

  struct Entry {
    MethodKind kind;
    const char* name;
    std::size_t largest_n;
  };
  // The first entry of each N is the reference the others are checked against.
  const Entry entries[] = {
      {MethodKind::BruteForce, "brute_force", 10'000},
      {MethodKind::UniformGrid, "uniform_grid", 100'000},
      {MethodKind::QuadTreePool, "quadtree_pool", 100'000},
      {MethodKind::QuadTreeNewDelete, "quadtree_new_delete", 100'000},
#if defined(QUADPOOL_HAVE_BOX2D)
      {MethodKind::Box2d, "box2d", 100'000},
#endif
  };
  for (const std::size_t n : {std::size_t{1'000}, std::size_t{10'000}, std::size_t{100'000}}) {
    for (const Entry& entry : entries) {
      if (n > entry.largest_n) continue;
      const std::string name = "broad_phase/" + std::string(entry.name) + "/" + std::to_string(n);
      auto* registered = benchmark::RegisterBenchmark(name.c_str(), broad_phase, entry.kind, entry.name, n)
                             ->UseManualTime()
                             ->Unit(benchmark::kMicrosecond);
      if (g_ticks > 0) {
        // Brute force's answer does not change with more ticks; its cost would dominate the run.
        const int ticks = entry.kind == MethodKind::BruteForce ? std::min(g_ticks, 10) : g_ticks;
        registered->Iterations(ticks);
      }
    }
  }

  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (g_failed) {
    std::fprintf(stderr, "spatial_bench: FAILED: the methods disagree on the pairs (see above)\n");
    return 1;
  }
  return 0;
}
