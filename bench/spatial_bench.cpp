// spatial_bench: the broad phase per tick (build + every overlapping pair) on every scene of the
// game (common/scene/scene.hpp: uniform, clustered, mixed, streams), for N = 1k, 10k and 100k, and
// for N = 1M on the uniform and clustered scenes (without sweep and prune: see
// register_benchmarks()), with every peer in one binary and one run:
//   quadtree_pool       QuadTree with the game's default settings, nodes from its ObjectPool
//   quadtree_new_delete the same, nodes from new/delete
//   uniform_grid        bench/uniform_grid.hpp, a counting-sorted grid rebuilt every tick (SoA
//                       arrays in cell order, half-shell pair search), cell = 2 x the scene's
//                       largest radius
//   sweep_and_prune     engine/spatial/sweep_and_prune.hpp, on x, order kept between ticks and
//                       repaired by insertion sort
//   box2d               Box2D 2.4 b2BroadPhase: MoveProxy every proxy, UpdatePairs, pair upkeep
//                       (bench/box2d_pairs.hpp), when libbox2d-dev was found
//   brute_force         engine/spatial/brute_force.hpp (1k and 10k only): the reference
//
// The thread axis (threads/<scene>/<N>, N = 10k, 100k and 1M as above) runs the tree the way the
// game's tick does: QuadTree::rebuild on a TaskSystem and spatial::ParallelPairs::collect, on the
// game's WorkerPool (common/worker_pool.hpp) of 1 thread, 2 threads and, when the machine has more,
// all of its hardware threads (quadtree_pool_threads<T>), interleaved tick by tick.
//
// Every benchmark of one scene and N replays the same ticks from the same seed. The first method
// to reach a tick (brute force where it runs) records its pair count and an order-independent
// hash of its pairs; every other method must match them on that tick, or the benchmark fails
// (SkipWithError, exit code 1).
//
// Time is measured per tick (manual timing), so each benchmark reports its own p50 and p99:
//   p50_us, p99_us        build + pairs
//   build_p50_us          the build alone (QuadTree::rebuild, grid counting sort, MoveProxy)
//   pairs_p50_us          the pair enumeration alone
//   pairs                 overlapping pairs per tick
// Extra flags (before the Google Benchmark ones):
//   --quadtree_leaf_capacity=K  --quadtree_max_depth=D  (default: the game's, QuadTreeConfig's)
//   --box2d_units_per_meter=U   (default 16: sprites of radius 2..6 become 0.25..0.75 m balls)
//   --ticks=T                   time exactly T ticks per benchmark (brute force: at most 10);
//                               default 0 lets Google Benchmark choose (--benchmark_min_time),
//                               except at 1M sprites: 10 ticks (a run stays within minutes)
//   --max_sprites=N             register only the benchmarks of at most N sprites (1000..1M;
//                               default 1M; the test suite's token run passes 100000)
//   --input_order=LIST          the order of the boxes handed to every method, one or more of
//                               spawn (default: the scene's own order, the tables' runs),
//                               random (the spawn order shuffled: ids say nothing of position,
//                               as a library user's boxes may come), morton (sorted once at spawn
//                               by the Morton code of the centre, as a game that sorts its
//                               sprites, and kept as they move), comma-separated; each order
//                               but spawn adds itself to the names:
//                               interleaved/uniform/1000000/random
//   --methods=LIST              the interleaved benchmarks run only these methods (names as in
//                               the counters: quadtree_pool,uniform_grid), for short runs
//
// Sections: pair tally and cross-check, methods, the timed loop, main.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench/bench_guard.hpp"
#include "engine/spatial/sweep_and_prune.hpp"
#include "bench/uniform_grid.hpp"
#include "engine/core/random.hpp"
#include "engine/core/task_system.hpp"
#include "engine/spatial/brute_force.hpp"
#include "engine/spatial/pair.hpp"
#include "engine/spatial/parallel_pairs.hpp"
#include "engine/spatial/quad_tree.hpp"
#include "common/worker_pool.hpp"
#include "common/scene/scene.hpp"
#if defined(QUADPOOL_HAVE_BOX2D)
#include "bench/box2d_pairs.hpp"
#endif

namespace {

using quadpool::spatial::Aabb;

constexpr std::uint64_t kSceneSeed = 2026;
constexpr int kWarmUpTicks = 3;  // untimed: pools, arrays and Box2D's first full pair pass grow

// The game's settings (SimulationConfig takes its defaults from QuadTreeConfig): the benchmark
// measures what the game runs. The flags exist for experiments, not for docs/spatial.md's tables.
int g_leaf_capacity = quadpool::spatial::QuadTreeConfig{}.leaf_capacity;
int g_max_depth = quadpool::spatial::QuadTreeConfig{}.max_depth;
int g_box2d_units_per_meter = 16;
int g_ticks = 0;  // 0: Google Benchmark decides how many ticks to time
int g_max_sprites = 1'000'000;  // the largest N registered
constexpr int kTicksAtOneMillion = 10;  // timed ticks at 1M when --ticks is not given
bool g_failed = false;

// The order in which a scene's boxes reach the methods (--input_order).
enum class InputOrder { Spawn, Random, Morton };
constexpr std::pair<InputOrder, const char*> kInputOrders[] = {
    {InputOrder::Spawn, "spawn"}, {InputOrder::Random, "random"}, {InputOrder::Morton, "morton"}};
std::vector<InputOrder> g_input_orders = {InputOrder::Spawn};
std::string g_methods;  // --methods: empty for every method, else a comma-separated list
std::string order_name(InputOrder order) {
  for (const auto& [known, name] : kInputOrders) {
    if (known == order) return name;
  }
  return "?";
}

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

// (scene, input order, N, tick) -> the first tally seen for it.
using TallyKey = std::tuple<int, int, std::size_t, std::size_t>;
std::map<TallyKey, Tally>& reference_tallies() {
  static std::map<TallyKey, Tally> tallies;
  return tallies;
}

// --- methods -----------------------------------------------------------------------------------

class Method {
 public:
  virtual ~Method() = default;
  virtual void build(std::span<const Aabb> boxes) = 0;
  virtual Tally pairs(std::span<const Aabb> boxes) = 0;
  /// Counters that describe the structure after the last tick, named prefix + what they count.
  virtual void add_counters(benchmark::State&, const std::string& /*prefix*/) const {}
};

class QuadTreeMethod final : public Method {
 public:
  QuadTreeMethod(float side, quadpool::memory::AllocatorKind kind)
      : tree_({.bounds = {0, 0, side, side},
               .max_depth = g_max_depth,
               .leaf_capacity = g_leaf_capacity},
              kind) {}
  void build(std::span<const Aabb> boxes) override { tree_.rebuild(boxes); }
  Tally pairs(std::span<const Aabb>) override {
    Tally tally;
    tree_.for_each_pair([&](std::uint32_t a, std::uint32_t b) { tally.add(a, b); });
    return tally;
  }
  void add_counters(benchmark::State& state, const std::string& prefix) const override {
    const quadpool::spatial::QuadTreeStats stats = tree_.stats();
    state.counters[prefix + "leaves"] = static_cast<double>(stats.leaves);
    state.counters[prefix + "depth"] = static_cast<double>(stats.max_depth_reached);
    // Above leaf_capacity only where max_depth stopped the split.
    state.counters[prefix + "max_leaf_items"] = static_cast<double>(stats.max_leaf_items);
    state.counters[prefix + "straddling_pct"] =
        100.0 * static_cast<double>(stats.straddling_items) / static_cast<double>(stats.items);
  }

 private:
  quadpool::spatial::QuadTree tree_;
};

// The tree as the game's tick runs it: rebuild and pairs on a WorkerPool of `threads` threads,
// the pairs collected into one array in the one-thread order and then tallied.
class ThreadedQuadTreeMethod final : public Method {
 public:
  ThreadedQuadTreeMethod(float side, std::uint32_t threads)
      : tree_({.bounds = {0, 0, side, side},
               .max_depth = g_max_depth,
               .leaf_capacity = g_leaf_capacity},
              quadpool::memory::AllocatorKind::Pool),
        workers_(threads),
        tasks_(workers_.task_system()) {}
  void build(std::span<const Aabb> boxes) override { tree_.rebuild(boxes, tasks_); }
  Tally pairs(std::span<const Aabb>) override {
    finder_.collect(tree_, tasks_, pairs_);
    Tally tally;
    for (const quadpool::spatial::Pair& pair : pairs_) tally.add(pair.a, pair.b);
    return tally;
  }

 private:
  quadpool::spatial::QuadTree tree_;
  quadpool::WorkerPool workers_;
  quadpool::TaskSystem tasks_;
  quadpool::spatial::ParallelPairs finder_;
  std::vector<quadpool::spatial::Pair> pairs_;
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

class SweepAndPruneMethod final : public Method {
 public:
  void build(std::span<const Aabb> boxes) override { sap_.update(boxes); }
  Tally pairs(std::span<const Aabb>) override {
    Tally tally;
    sap_.for_each_pair([&](std::uint32_t a, std::uint32_t b) { tally.add(a, b); });
    return tally;
  }

 private:
  quadpool::spatial::SweepAndPrune sap_;
};

class BruteForceMethod final : public Method {
 public:
  void build(std::span<const Aabb>) override {}
  Tally pairs(std::span<const Aabb> boxes) override {
    Tally tally;
    quadpool::spatial::brute_force_pairs(
        boxes, [&](std::uint32_t a, std::uint32_t b) { tally.add(a, b); });
    return tally;
  }
};

#if defined(QUADPOOL_HAVE_BOX2D)
class Box2dMethod final : public Method {
 public:
  explicit Box2dMethod(std::span<const Aabb> boxes) : box2d_(boxes, g_box2d_units_per_meter) {}
  void build(std::span<const Aabb> boxes) override { box2d_.move(boxes); }
  Tally pairs(std::span<const Aabb>) override {
    Tally tally;
    for (const std::uint64_t key : box2d_.overlapping_pairs()) {
      tally.add(static_cast<std::uint32_t>(key >> 32), static_cast<std::uint32_t>(key));
    }
    return tally;
  }

 private:
  quadpool::bench::Box2dPairs box2d_;
};
#endif

enum class MethodKind {
  QuadTreePool,
  QuadTreeNewDelete,
  UniformGrid,
  SweepAndPrune,
  BruteForce,
  Box2d,
  QuadTreeThreads1,
  QuadTreeThreads2,
  QuadTreeThreadsAll
};

std::unique_ptr<Method> make_method(MethodKind kind, std::span<const Aabb> boxes, float side,
                                    float largest_radius) {
  switch (kind) {
    case MethodKind::QuadTreePool:
      return std::make_unique<QuadTreeMethod>(side, quadpool::memory::AllocatorKind::Pool);
    case MethodKind::QuadTreeNewDelete:
      return std::make_unique<QuadTreeMethod>(side, quadpool::memory::AllocatorKind::NewDelete);
    case MethodKind::UniformGrid:
      return std::make_unique<GridMethod>(side, 2.0f * largest_radius);
    case MethodKind::SweepAndPrune:
      return std::make_unique<SweepAndPruneMethod>();
    case MethodKind::BruteForce:
      return std::make_unique<BruteForceMethod>();
    case MethodKind::QuadTreeThreads1:
      return std::make_unique<ThreadedQuadTreeMethod>(side, 1);
    case MethodKind::QuadTreeThreads2:
      return std::make_unique<ThreadedQuadTreeMethod>(side, 2);
    case MethodKind::QuadTreeThreadsAll:
      return std::make_unique<ThreadedQuadTreeMethod>(side, quadpool::default_thread_count());
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
  const auto rank =
      static_cast<std::size_t>(fraction * static_cast<double>(samples.size() - 1) + 0.5);
  std::nth_element(samples.begin(), samples.begin() + static_cast<std::ptrdiff_t>(rank),
                   samples.end());
  return samples[rank];
}

// The bits of a 16-bit coordinate spread to the even bits of a 32-bit Morton code.
std::uint32_t spread_bits(std::uint32_t v) {
  v = (v | (v << 8)) & 0x00FF00FFu;
  v = (v | (v << 4)) & 0x0F0F0F0Fu;
  v = (v | (v << 2)) & 0x33333333u;
  return (v | (v << 1)) & 0x55555555u;
}

// Puts the sprites in `order`, once, before the first tick: the ids the methods see are the
// indices of this array from then on, as in a game that keeps its sprites in one array.
void put_in_order(std::vector<quadpool::scene::Sprite>& sprites, float side, InputOrder order) {
  if (order == InputOrder::Spawn) return;
  std::vector<std::uint64_t> keys(sprites.size());
  if (order == InputOrder::Random) {
    quadpool::Random shuffler(kSceneSeed ^ 0x5EED0001u);
    for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = i;
    for (std::size_t k = keys.size(); k > 1; --k) std::swap(keys[k - 1], keys[shuffler.below(k)]);
  } else {
    // The Morton code of the centre on a 65536 x 65536 grid over the world, then the spawn index.
    const float scale = 65535.0f / side;
    auto cell = [&](float v) {
      return static_cast<std::uint32_t>(std::clamp(v * scale, 0.0f, 65535.0f));
    };
    for (std::size_t i = 0; i < keys.size(); ++i) {
      const std::uint32_t code = spread_bits(cell(sprites[i].x)) | spread_bits(cell(sprites[i].y))
                                                                       << 1;
      keys[i] = static_cast<std::uint64_t>(code) << 32 | i;
    }
    std::sort(keys.begin(), keys.end());
  }
  std::vector<quadpool::scene::Sprite> ordered(sprites.size());
  for (std::size_t i = 0; i < keys.size(); ++i) ordered[i] = sprites[keys[i] & 0xFFFFFFFFu];
  sprites.swap(ordered);
}

// One of the game's scenes, one tick at a time, its sprites in the input order.
struct Scene {
  Scene(quadpool::scene::SceneKind kind, std::size_t sprites_count, InputOrder order)
      : config{.seed = kSceneSeed, .sprites = sprites_count, .kind = kind},
        input_order(order),
        sprites(quadpool::scene::spawn_sprites(config)),
        side(quadpool::scene::world_side(sprites_count)),
        largest_radius(quadpool::scene::largest_radius(sprites)),
        boxes(sprites.size()) {
    put_in_order(sprites, side, order);
    update_boxes();
  }
  void advance() {
    quadpool::scene::move_and_bounce(sprites, side);
    update_boxes();
    ++tick;
  }
  void update_boxes() {
    for (std::size_t i = 0; i < sprites.size(); ++i)
      boxes[i] = quadpool::scene::bounds_of(sprites[i]);
  }

  quadpool::scene::SceneConfig config;
  InputOrder input_order;
  std::vector<quadpool::scene::Sprite> sprites;
  float side;
  float largest_radius;  // sprites move but never change size
  std::vector<Aabb> boxes;
  std::size_t tick = 0;
};

// Per-tick times of one method, in microseconds.
struct Samples {
  std::vector<double> total, build, pairs;
  std::vector<double> cpu;  // the thread's CPU time for the tick: blind to being descheduled
  std::uint64_t pairs_seen = 0;
};

double thread_cpu_us() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) * 1e6 + static_cast<double>(now.tv_nsec) * 1e-3;
}

// Builds and enumerates once; returns the seconds taken and records them when `samples` is set.
// `with_cpu_time` adds the thread's CPU time (two system calls, ~1 us, outside the wall time).
double timed_tick(Method& method, std::span<const Aabb> boxes, Samples* samples, Tally& tally,
                  bool with_cpu_time = false) {
  using Clock = std::chrono::steady_clock;
  const double cpu0 = with_cpu_time ? thread_cpu_us() : 0.0;
  const auto t0 = Clock::now();
  method.build(boxes);
  const auto t1 = Clock::now();
  tally = method.pairs(boxes);
  const auto t2 = Clock::now();
  const double cpu2 = with_cpu_time ? thread_cpu_us() : 0.0;
  if (samples != nullptr) {
    if (with_cpu_time) samples->cpu.push_back(cpu2 - cpu0);
    samples->total.push_back(std::chrono::duration<double, std::micro>(t2 - t0).count());
    samples->build.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
    samples->pairs.push_back(std::chrono::duration<double, std::micro>(t2 - t1).count());
    samples->pairs_seen += tally.pairs;
  }
  return std::chrono::duration<double>(t2 - t0).count();
}

// Checks `tally` against the first one recorded for this (N, tick); fails the benchmark if not.
bool agrees(benchmark::State& state, const char* name, const Scene& scene, const Tally& tally) {
  const auto [it, first] = reference_tallies().try_emplace(
      TallyKey{static_cast<int>(scene.config.kind), static_cast<int>(scene.input_order),
               scene.sprites.size(), scene.tick},
      tally);
  if (first || it->second == tally) return true;
  const std::string message =
      std::string(name) + " disagrees on the " + quadpool::scene::scene_name(scene.config.kind) +
      " scene at N=" + std::to_string(scene.sprites.size()) + ", tick " +
      std::to_string(scene.tick) + ": " + std::to_string(tally.pairs) + " pairs, expected " +
      std::to_string(it->second.pairs) +
      (tally.pairs == it->second.pairs ? " (same count, different pairs)" : "");
  std::fprintf(stderr, "spatial_bench: %s\n", message.c_str());
  state.SkipWithError(message.c_str());
  g_failed = true;
  return false;
}

// One method alone: each iteration is one tick, timed from build to the last pair.
void broad_phase(benchmark::State& state, MethodKind kind, const char* name,
                 quadpool::scene::SceneKind scene_kind, std::size_t sprites_count,
                 InputOrder input_order) {
  Scene scene(scene_kind, sprites_count, input_order);
  const std::unique_ptr<Method> method =
      make_method(kind, scene.boxes, scene.side, scene.largest_radius);
  Samples samples;
  Tally tally;
  for (int i = 0; i < kWarmUpTicks; ++i) {
    scene.advance();
    timed_tick(*method, scene.boxes, nullptr, tally);
    if (!agrees(state, name, scene, tally)) return;
  }
  for (auto _ : state) {
    scene.advance();
    state.SetIterationTime(timed_tick(*method, scene.boxes, &samples, tally));
    if (!agrees(state, name, scene, tally)) return;
  }
  if (samples.total.empty()) return;
  state.counters["p50_us"] = percentile(samples.total, 0.50);
  state.counters["p99_us"] = percentile(samples.total, 0.99);
  state.counters["build_p50_us"] = percentile(samples.build, 0.50);
  state.counters["pairs_p50_us"] = percentile(samples.pairs, 0.50);
  state.counters["pairs"] =
      static_cast<double>(samples.pairs_seen) / static_cast<double>(samples.total.size());
  method->add_counters(state, "");
}

// Each method's p50/p99 and the ratios the targets are about, for the methods that ran.
void report_interleaved(benchmark::State& state,
                        std::span<const std::pair<MethodKind, const char*>> kinds,
                        const std::vector<Samples>& samples) {
  auto find = [&](const char* name) -> const Samples* {
    for (std::size_t m = 0; m < kinds.size(); ++m) {
      if (std::strcmp(kinds[m].second, name) == 0) return &samples[m];
    }
    return nullptr;
  };
  for (std::size_t m = 0; m < kinds.size(); ++m) {
    const std::vector<double>& total = samples[m].total;
    const std::string name = kinds[m].second;
    state.counters[name + "_p50_us"] = percentile(total, 0.50);
    state.counters[name + "_p99_us"] = percentile(total, 0.99);
    state.counters[name + "_build_p50_us"] = percentile(samples[m].build, 0.50);
    state.counters[name + "_pairs_p50_us"] = percentile(samples[m].pairs, 0.50);
    state.counters[name + "_cpu_p50_us"] = percentile(samples[m].cpu, 0.50);
    state.counters[name + "_cpu_p99_us"] = percentile(samples[m].cpu, 0.99);
    double sum = 0.0;
    for (const double us : total) sum += us;
    state.counters[name + "_mean_us"] =
        total.empty() ? 0.0 : sum / static_cast<double>(total.size());
  }
  // counter = numerator's percentile / denominator's, when both methods ran.
  auto ratio = [&](const char* counter, const char* numerator, const char* denominator,
                   double fraction, bool cpu = false) {
    const Samples* top = find(numerator);
    const Samples* bottom = find(denominator);
    if (top == nullptr || bottom == nullptr) return;
    const auto& top_samples = cpu ? top->cpu : top->total;
    const auto& bottom_samples = cpu ? bottom->cpu : bottom->total;
    state.counters[counter] =
        percentile(top_samples, fraction) / percentile(bottom_samples, fraction);
  };
  if (const Samples* pool = find("quadtree_pool")) {
    // The best peer of each tick's p50: the tree's goal is to be no slower than it.
    double best_peer = 0.0;
    for (const char* peer : {"quadtree_new_delete", "uniform_grid", "sweep_and_prune", "box2d"}) {
      const Samples* other = find(peer);
      if (other == nullptr) continue;
      const double p50 = percentile(other->total, 0.50);
      best_peer = best_peer == 0.0 ? p50 : std::min(best_peer, p50);
    }
    if (best_peer > 0.0) {
      state.counters["pool_over_best_peer_p50"] = percentile(pool->total, 0.50) / best_peer;
    }
  }
  ratio("pool_over_sap_p50", "quadtree_pool", "sweep_and_prune", 0.50);
  ratio("pool_over_grid_p50", "quadtree_pool", "uniform_grid", 0.50);
  ratio("pool_over_box2d_p50", "quadtree_pool", "box2d", 0.50);
  ratio("pool_over_new_delete_p50", "quadtree_pool", "quadtree_new_delete", 0.50);
  ratio("pool_over_new_delete_p99", "quadtree_pool", "quadtree_new_delete", 0.99);
  ratio("pool_over_new_delete_cpu_p50", "quadtree_pool", "quadtree_new_delete", 0.50, true);
  ratio("pool_over_new_delete_cpu_p99", "quadtree_pool", "quadtree_new_delete", 0.99, true);
  ratio("threads2_over_threads1_p50", "quadtree_pool_threads2", "quadtree_pool_threads1", 0.50);
  ratio("threads_all_over_threads1_p50", "quadtree_pool_threads_all", "quadtree_pool_threads1",
        0.50);
}

// Every method on every tick, in a fresh random order each tick. On a machine that other work
// shares, a slow moment then hits all methods alike, so the ratios stay honest even when the
// absolute times wander; the shuffle keeps any method from always running after the one that
// evicted the caches. Each iteration is one tick of every method; the counters are each method's
// p50/p99 and the ratios the targets are about.
void interleaved(benchmark::State& state, std::span<const std::pair<MethodKind, const char*>> kinds,
                 quadpool::scene::SceneKind scene_kind, std::size_t sprites_count,
                 InputOrder input_order) {
  Scene scene(scene_kind, sprites_count, input_order);
  std::vector<std::pair<MethodKind, const char*>> chosen;  // only the methods --methods names
  if (!g_methods.empty()) {
    for (const auto& entry : kinds) {
      if (("," + g_methods + ",").find("," + std::string(entry.second) + ",") != std::string::npos)
        chosen.push_back(entry);
    }
    kinds = chosen;
    if (kinds.empty()) {
      state.SkipWithError("none of --methods runs in this benchmark");
      return;
    }
  }
  std::vector<std::unique_ptr<Method>> methods;
  for (const auto& [kind, name] : kinds) {
    methods.push_back(make_method(kind, scene.boxes, scene.side, scene.largest_radius));
  }
  std::vector<Samples> samples(methods.size());
  std::vector<std::size_t> order(methods.size());
  for (std::size_t m = 0; m < order.size(); ++m) order[m] = m;
  quadpool::Random shuffler(kSceneSeed);
  Tally tally;
  auto run_tick = [&](bool timed) -> bool {
    scene.advance();
    for (std::size_t k = order.size(); k > 1; --k)
      std::swap(order[k - 1], order[shuffler.below(k)]);
    double seconds = 0.0;
    for (const std::size_t m : order) {
      seconds += timed_tick(*methods[m], scene.boxes, timed ? &samples[m] : nullptr, tally, true);
      if (!agrees(state, kinds[m].second, scene, tally)) return false;
    }
    if (timed) state.SetIterationTime(seconds);
    return true;
  };
  for (int i = 0; i < kWarmUpTicks; ++i) {
    if (!run_tick(false)) return;
  }
  for (auto _ : state) {
    if (!run_tick(true)) return;
  }
  report_interleaved(state, kinds, samples);
  for (std::size_t m = 0; m < methods.size(); ++m) {
    methods[m]->add_counters(state, std::string(kinds[m].second) + "_");
  }
}

// --- main --------------------------------------------------------------------------------------

// Per scene and N: brute force first (it is the reference the others are checked against,
// and its answer does not change with more ticks), then every other method interleaved tick
// by tick, then the tree's thread axis. From 100k on there is no brute force; the methods are
// checked against each other. 1M runs on the uniform and clustered scenes only.
void register_benchmarks() {
  static const std::pair<MethodKind, const char*> kInterleaved[] = {
    {MethodKind::QuadTreePool, "quadtree_pool"},
    {MethodKind::QuadTreeNewDelete, "quadtree_new_delete"},
    {MethodKind::UniformGrid, "uniform_grid"},
    {MethodKind::SweepAndPrune, "sweep_and_prune"},
#if defined(QUADPOOL_HAVE_BOX2D)
    {MethodKind::Box2d, "box2d"},
#endif
  };
  // At 1M, every method but sweep and prune, which takes about 2 s a tick there.
  static const std::pair<MethodKind, const char*> kInterleavedAtOneMillion[] = {
    {MethodKind::QuadTreePool, "quadtree_pool"},
    {MethodKind::QuadTreeNewDelete, "quadtree_new_delete"},
    {MethodKind::UniformGrid, "uniform_grid"},
#if defined(QUADPOOL_HAVE_BOX2D)
    {MethodKind::Box2d, "box2d"},
#endif
  };
  static const std::pair<MethodKind, const char*> kThreads[] = {
    {MethodKind::QuadTreeThreads1, "quadtree_pool_threads1"},
    {MethodKind::QuadTreeThreads2, "quadtree_pool_threads2"},
    {MethodKind::QuadTreeThreadsAll, "quadtree_pool_threads_all"},
  };
  // "all" is the machine's hardware threads; where that is 1 or 2 it would repeat a column.
  const std::size_t thread_methods = quadpool::default_thread_count() > 2 ? 3 : 2;
  auto timed = [](benchmark::internal::Benchmark* registered, std::size_t n) {
    registered->UseManualTime()->Unit(benchmark::kMicrosecond);
    if (g_ticks > 0) {
      registered->Iterations(g_ticks);
    } else if (n >= 1'000'000) {
      registered->Iterations(kTicksAtOneMillion);
    }
  };
  for (const quadpool::scene::SceneKind kind : quadpool::scene::kSceneKinds) {
    const bool large_scene = kind == quadpool::scene::SceneKind::Uniform ||
                             kind == quadpool::scene::SceneKind::Clustered;
    for (const InputOrder order : g_input_orders) {
      const std::string suffix = order == InputOrder::Spawn ? "" : "/" + order_name(order);
      const std::string scene = quadpool::scene::scene_name(kind);
      for (const std::size_t n : {std::size_t{1'000}, std::size_t{10'000}, std::size_t{100'000},
                                  std::size_t{1'000'000}}) {
        if (n > static_cast<std::size_t>(g_max_sprites) || (n >= 1'000'000 && !large_scene))
          continue;
        if (n <= 10'000) {
          const std::string name =
              "broad_phase/" + scene + "/brute_force/" + std::to_string(n) + suffix;
          benchmark::RegisterBenchmark(name.c_str(), broad_phase, MethodKind::BruteForce,
                                       "brute_force", kind, n, order)
              ->UseManualTime()
              ->Unit(benchmark::kMicrosecond)
              ->Iterations(g_ticks > 0 ? std::min(g_ticks, 10) : 10);
        }
        const std::string name = "interleaved/" + scene + "/" + std::to_string(n) + suffix;
        using Methods = std::span<const std::pair<MethodKind, const char*>>;
        const Methods methods =
            n >= 1'000'000 ? Methods(kInterleavedAtOneMillion) : Methods(kInterleaved);
        timed(benchmark::RegisterBenchmark(name.c_str(), interleaved, methods, kind, n, order), n);
        if (n < 10'000) continue;
        const std::string threads_name = "threads/" + scene + "/" + std::to_string(n) + suffix;
        timed(
            benchmark::RegisterBenchmark(threads_name.c_str(), interleaved,
                                         std::span(kThreads).first(thread_methods), kind, n, order),
            n);
      }
    }
  }
}

// Checks every name of --methods=LIST; reports an unknown one and exits with code 2.
void check_method_names(const std::string& list) {
  static constexpr const char* kKnown[] = {"quadtree_pool",
                                           "quadtree_new_delete",
                                           "uniform_grid",
                                           "sweep_and_prune",
                                           "box2d",
                                           "quadtree_pool_threads1",
                                           "quadtree_pool_threads2",
                                           "quadtree_pool_threads_all"};
  std::size_t begin = 0;
  for (;;) {
    const std::size_t comma = list.find(',', begin);
    const std::string word = list.substr(begin, comma == std::string::npos ? comma : comma - begin);
    if (std::none_of(std::begin(kKnown), std::end(kKnown),
                     [&](const char* known) { return word == known; })) {
      std::fprintf(stderr,
                   "spatial_bench: --methods names '%s'; each name must be one of quadtree_pool, "
                   "quadtree_new_delete, uniform_grid, sweep_and_prune, box2d, "
                   "quadtree_pool_threads1, quadtree_pool_threads2, quadtree_pool_threads_all\n",
                   word.c_str());
      std::exit(2);
    }
    if (comma == std::string::npos) return;
    begin = comma + 1;
  }
}

// Reads --input_order=LIST (see the top of the file); reports a bad value and exits with code 2.
bool read_input_orders(const char* arg) {
  constexpr const char* kName = "--input_order=";
  if (std::strncmp(arg, kName, std::strlen(kName)) != 0) return false;
  std::vector<InputOrder> orders;
  std::string list = arg + std::strlen(kName);
  std::size_t begin = 0;
  for (;;) {
    const std::size_t comma = list.find(',', begin);
    const std::string word = list.substr(begin, comma == std::string::npos ? comma : comma - begin);
    const auto known = std::find_if(std::begin(kInputOrders), std::end(kInputOrders),
                                    [&](const auto& entry) { return word == entry.second; });
    if (known == std::end(kInputOrders)) {
      std::fprintf(stderr,
                   "spatial_bench: --input_order is '%s'; it must be a comma-separated list of "
                   "spawn, random and morton\n",
                   list.c_str());
      std::exit(2);
    }
    if (std::find(orders.begin(), orders.end(), known->first) == orders.end())
      orders.push_back(known->first);
    if (comma == std::string::npos) break;
    begin = comma + 1;
  }
  g_input_orders = orders;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (!quadpool::bench::guard_checked_build(argc, argv)) return 2;
  // Take our own flags out of argv before Google Benchmark sees it.
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const auto int_flag = [&](const char* name, int lo, int hi, int& out) {
      return quadpool::bench::read_int_flag("spatial_bench", argv[i], name, lo, hi, out);
    };
    if (int_flag("--quadtree_leaf_capacity", 1, 1 << 20, g_leaf_capacity)) continue;
    if (int_flag("--quadtree_max_depth", 1, 16, g_max_depth)) continue;
    if (int_flag("--box2d_units_per_meter", 1, 1000, g_box2d_units_per_meter)) continue;
    if (int_flag("--ticks", 0, 1'000'000, g_ticks)) continue;
    if (int_flag("--max_sprites", 1'000, 1'000'000, g_max_sprites)) continue;
    if (read_input_orders(argv[i])) continue;
    if (std::strncmp(argv[i], "--methods=", 10) == 0) {
      g_methods = argv[i] + 10;
      check_method_names(g_methods);
      continue;
    }
    argv[kept++] = argv[i];
  }
  argc = kept;
  benchmark::AddCustomContext("quadtree_pair_kernel", quadpool::spatial::pair_kernel_name());

  register_benchmarks();

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
