// spatial_queries: one query at a time on the tree the tick already rebuilt, against Box2D 2.4's
// b2DynamicTree (when Debian's libbox2d-dev was found) and brute force, on the same boxes: the
// game's uniform and clustered scenes (common/scene/scene.hpp) at 10k, 100k and 1M sprites.
//
//   ray/<scene>/<N>/<length>   closest hit along rays of three lengths from random points in the
//                              world, in random directions: short (8 units, a shot's tick),
//                              medium (1000, a screen) and long (the world's side)
//     quadtree     QuadTree::ray_cast, the callback keeping the closest (t, id) and returning t
//     box2d        b2DynamicTree::RayCast with a b2RayCastInput and a callback class that runs
//                  the same slab test (RaySlabs) on the proxy's exact box and returns t / max_t
//     brute_force  brute_force_ray_cast with the same callback
//   nearest/<scene>/<N>/k<K>  the K = 1, 8, 64 boxes nearest to random points in the world
//     quadtree     QuadTree::nearest
//     brute_force  brute_force_nearest (Box2D has no k-nearest query; see docs/spatial.md)
//
// Box2D's proxies: b2DynamicTree::CreateProxy with each box's exact AABB, in meters (16 units
// per meter, as spatial_bench), in the Hilbert order of bench/hilbert_order.hpp. 2.4's
// CreateProxy fattens every proxy by b2_aabbExtension (0.1 m) itself, as b2BroadPhase's users
// get it: there is no way to ask it for exact boxes. The tree is Box2D's after inserting every
// proxy once, the best state it has (a game's tree also has moved proxies in it).
//
// Every benchmark runs its methods interleaved, round by round (each round times each method on
// the same queries, in rotating order), so that a slow spell of the machine falls on all of
// them: the ratios are measured side by side. Counters, per query:
//   quadtree_ns, box2d_ns, brute_force_ns   mean time per query over all rounds
//   box2d_x, brute_force_x                  that method's time over the tree's
//   hit_share, inside_share                 rays that hit a box; rays that start inside one
// Brute force at 100k and 1M runs only the first queries of each round (4e7 / N of them; its
// per-query time is its mean over those). Every answer of the other methods is checked against
// the tree's (the closest t; the same ids, in order): a difference fails the benchmark
// (SkipWithError, exit code 1).
//
// Extra flags (before Google Benchmark's):
//   --max_boxes=N   register only N <= this (10000..1000000; default 1M; the token run: 10000)
//   --queries=Q     queries per round (default 2000)   --rounds=R  rounds (default 7)
//
// Sections: scenes and queries, the methods, the interleaved loop, main.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench/bench_guard.hpp"
#include "common/scene/scene.hpp"
#include "engine/core/random.hpp"
#include "engine/spatial/aabb.hpp"
#include "engine/spatial/brute_force.hpp"
#include "engine/spatial/quad_tree.hpp"
#include "engine/spatial/ray.hpp"
#if defined(QUADPOOL_HAVE_BOX2D)
#include <box2d/b2_collision.h>
#include <box2d/b2_dynamic_tree.h>

#include "bench/hilbert_order.hpp"
#endif

namespace {

using quadpool::spatial::Aabb;
using quadpool::spatial::QuadTree;
using quadpool::spatial::Ray;
using quadpool::spatial::RaySlabs;

constexpr std::uint64_t kSeed = 2026;
constexpr float kUnitsPerMeter = 16.0f;  // as spatial_bench's Box2D
constexpr float kShortRay = 8.0f;
constexpr float kMediumRay = 1000.0f;
constexpr float kInf = std::numeric_limits<float>::infinity();

int g_max_boxes = 1'000'000;
int g_queries = 2'000;
int g_rounds = 7;
bool g_failed = false;

// --- scenes and queries ------------------------------------------------------------------------

// One scene's boxes and every structure built over them, built once and shared by the
// benchmarks of that scene and N (Box2D takes seconds to insert a million proxies).
struct World {
  quadpool::scene::SceneKind kind;
  std::size_t count;
  float side;
  std::vector<Aabb> boxes;
  std::unique_ptr<QuadTree> tree;
#if defined(QUADPOOL_HAVE_BOX2D)
  std::unique_ptr<b2DynamicTree> box2d;
#endif
};

World& world_of(quadpool::scene::SceneKind kind, std::size_t count) {
  static std::unique_ptr<World> current;
  if (current && current->kind == kind && current->count == count) return *current;
  current.reset();  // one world at a time: 1M boxes in three structures is enough memory
  auto world = std::make_unique<World>();
  world->kind = kind;
  world->count = count;
  auto sprites = quadpool::scene::spawn_sprites({.seed = kSeed, .sprites = count, .kind = kind});
  world->side = quadpool::scene::world_side(count);
  // A few ticks of motion, so that the clustered blobs are as the game has them after its start.
  for (int tick = 0; tick < 3; ++tick) quadpool::scene::move_and_bounce(sprites, world->side);
  for (const auto& s : sprites) world->boxes.push_back(quadpool::scene::bounds_of(s));
  world->tree = std::make_unique<QuadTree>(
      quadpool::spatial::QuadTreeConfig{.bounds = {0, 0, world->side, world->side}});
  world->tree->rebuild(world->boxes);
#if defined(QUADPOOL_HAVE_BOX2D)
  world->box2d = std::make_unique<b2DynamicTree>();
  for (const std::uint32_t id : quadpool::bench::hilbert_order(world->boxes)) {
    const Aabb& box = world->boxes[id];
    b2AABB aabb;
    aabb.lowerBound.Set(box.min_x / kUnitsPerMeter, box.min_y / kUnitsPerMeter);
    aabb.upperBound.Set(box.max_x / kUnitsPerMeter, box.max_y / kUnitsPerMeter);
    world->box2d->CreateProxy(aabb, reinterpret_cast<void*>(static_cast<std::uintptr_t>(id)));
  }
#endif
  current = std::move(world);
  return *current;
}

std::vector<Ray> random_rays(float side, float length, std::uint64_t seed) {
  quadpool::Random rng(seed);
  std::vector<Ray> rays(static_cast<std::size_t>(g_queries));
  for (Ray& ray : rays) {
    float dx, dy, norm;
    do {  // a unit direction, uniform in angle, without a transcendental
      dx = rng.uniform(-1.0f, 1.0f);
      dy = rng.uniform(-1.0f, 1.0f);
      norm = std::sqrt(dx * dx + dy * dy);
    } while (norm < 0.01f || norm > 1.0f);
    ray = {rng.uniform(0.0f, side), rng.uniform(0.0f, side), dx / norm, dy / norm, length};
  }
  return rays;
}

// --- the methods -------------------------------------------------------------------------------

// The closest (t, id) so far; a ray with no hit keeps t = inf.
struct Closest {
  float t = kInf;
  std::uint32_t id = 0;
  void offer(std::uint32_t candidate, float entry) {
    if (entry < t || (entry == t && candidate < id)) {
      t = entry;
      id = candidate;
    }
  }
};

Closest tree_closest(const QuadTree& tree, const Ray& ray) {
  Closest best;
  tree.ray_cast(ray, [&](std::uint32_t id, float t) {
    best.offer(id, t);
    return t;
  });
  return best;
}

Closest brute_closest(std::span<const Aabb> boxes, const Ray& ray) {
  Closest best;
  quadpool::spatial::brute_force_ray_cast(boxes, ray, [&](std::uint32_t id, float t) {
    best.offer(id, t);
    return t;
  });
  return best;
}

#if defined(QUADPOOL_HAVE_BOX2D)
// What a b2World::RayCast user's callback does, with the exact shape test being the slab test
// on the proxy's box (in world units, so that its answer is the tree's to the bit).
class Box2dClosest {
 public:
  Box2dClosest(const b2DynamicTree& tree, std::span<const Aabb> boxes, const Ray& ray)
      : tree_(tree), boxes_(boxes), slabs_(ray), max_t_(ray.max_t) {}

  float RayCastCallback(const b2RayCastInput&, int32 proxy_id) {
    const auto id =
        static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(tree_.GetUserData(proxy_id)));
    const float limit = best_.t < max_t_ ? best_.t : max_t_;
    float t;
    if (!slabs_.enters(boxes_[id], limit, t)) return -1.0f;  // missed: keep the segment
    best_.offer(id, t);
    return t / max_t_;  // 0 (the origin is inside) ends the cast, as the tree's callback
  }
  const Closest& best() const { return best_; }

 private:
  const b2DynamicTree& tree_;
  std::span<const Aabb> boxes_;
  RaySlabs slabs_;
  float max_t_;
  Closest best_;
};

Closest box2d_closest(const b2DynamicTree& tree, std::span<const Aabb> boxes, const Ray& ray) {
  Box2dClosest callback(tree, boxes, ray);
  b2RayCastInput input;
  input.p1.Set(ray.origin_x / kUnitsPerMeter, ray.origin_y / kUnitsPerMeter);
  input.p2.Set((ray.origin_x + ray.dir_x * ray.max_t) / kUnitsPerMeter,
               (ray.origin_y + ray.dir_y * ray.max_t) / kUnitsPerMeter);
  input.maxFraction = 1.0f;
  tree.RayCast(&callback, input);
  return callback.best();
}
#endif

// --- the interleaved loop ----------------------------------------------------------------------

enum class Method { QuadTree, Box2d, BruteForce };

struct Timing {
  const char* name;
  Method method;
  double seconds = 0.0;
  std::size_t queries = 0;
};

std::size_t brute_queries(std::size_t count) {
  const auto most = static_cast<std::size_t>(4e7 / static_cast<double>(count));
  return std::clamp<std::size_t>(most, 16, static_cast<std::size_t>(g_queries));
}

// Runs `rounds` rounds of run(method, first, end) for each method, rotating which goes first,
// and reports the counters. run() answers the queries [first, end) and returns false on a
// disagreement (after SkipWithError).
template <class Run>
void interleave(benchmark::State& state, std::vector<Timing>& timings, std::size_t brute_count,
                Run&& run) {
  std::size_t round = 0;
  for (auto _ : state) {
    double tree_seconds = 0.0;
    for (std::size_t k = 0; k < timings.size(); ++k) {
      Timing& timing = timings[(k + round) % timings.size()];
      const std::size_t end = timing.method == Method::BruteForce
                                  ? brute_count
                                  : static_cast<std::size_t>(g_queries);
      const auto start = std::chrono::steady_clock::now();
      const bool agreed = run(timing.method, end);
      const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
      if (!agreed) return;
      timing.seconds += took.count();
      timing.queries += end;
      if (timing.method == Method::QuadTree) tree_seconds = took.count();
    }
    state.SetIterationTime(tree_seconds);
    ++round;
  }
  double tree_ns = 0.0;
  for (const Timing& timing : timings) {
    const double ns = 1e9 * timing.seconds / static_cast<double>(timing.queries);
    state.counters[std::string(timing.name) + "_ns"] = ns;
    if (timing.method == Method::QuadTree) {
      tree_ns = ns;
    } else {
      state.counters[std::string(timing.name) + "_x"] = ns / tree_ns;
    }
  }
}

std::vector<Timing> ray_methods() {
  std::vector<Timing> methods{{"quadtree", Method::QuadTree}};
#if defined(QUADPOOL_HAVE_BOX2D)
  methods.push_back({"box2d", Method::Box2d});
#endif
  methods.push_back({"brute_force", Method::BruteForce});
  return methods;
}

void ray_benchmark(benchmark::State& state, quadpool::scene::SceneKind kind, std::size_t count,
                   float length) {
  World& world = world_of(kind, count);
  const float max_t = length > 0.0f ? length : world.side;
  const std::vector<Ray> rays =
      random_rays(world.side, max_t, kSeed ^ count ^ static_cast<std::uint64_t>(max_t));
  // The tree's answers, the reference for the others (and the hit counters).
  std::vector<Closest> expected(rays.size());
  std::size_t hits = 0, inside = 0;
  for (std::size_t i = 0; i < rays.size(); ++i) {
    expected[i] = tree_closest(*world.tree, rays[i]);
    hits += expected[i].t != kInf ? 1 : 0;
    inside += expected[i].t == 0.0f ? 1 : 0;
  }
  std::vector<Timing> timings = ray_methods();
  float sink = 0.0f;
  interleave(state, timings, brute_queries(count), [&](Method method, std::size_t end) {
    for (std::size_t i = 0; i < end; ++i) {
      Closest got;
      switch (method) {
        case Method::QuadTree: got = tree_closest(*world.tree, rays[i]); break;
#if defined(QUADPOOL_HAVE_BOX2D)
        case Method::Box2d: got = box2d_closest(*world.box2d, world.boxes, rays[i]); break;
#else
        case Method::Box2d: break;
#endif
        case Method::BruteForce: got = brute_closest(world.boxes, rays[i]); break;
      }
      if (got.t != expected[i].t) {
        state.SkipWithError("a method's closest hit differs from the tree's");
        std::fprintf(stderr, "spatial_queries: ray %zu: closest t %a, the tree's %a\n", i,
                     static_cast<double>(got.t), static_cast<double>(expected[i].t));
        g_failed = true;
        return false;
      }
      sink += got.t;
    }
    return true;
  });
  benchmark::DoNotOptimize(sink);
  state.counters["hit_share"] = static_cast<double>(hits) / static_cast<double>(rays.size());
  state.counters["inside_share"] = static_cast<double>(inside) / static_cast<double>(rays.size());
}

void nearest_benchmark(benchmark::State& state, quadpool::scene::SceneKind kind,
                       std::size_t count, std::size_t k) {
  World& world = world_of(kind, count);
  quadpool::Random rng(kSeed ^ count ^ k);
  std::vector<float> points(2 * static_cast<std::size_t>(g_queries));
  for (float& p : points) p = rng.uniform(0.0f, world.side);
  // The tree's answers, the reference for brute force.
  std::vector<std::uint32_t> expected(k * static_cast<std::size_t>(g_queries));
  for (std::size_t i = 0; i < static_cast<std::size_t>(g_queries); ++i) {
    world.tree->nearest(points[2 * i], points[2 * i + 1], std::span(expected).subspan(i * k, k));
  }
  std::vector<Timing> timings{{"quadtree", Method::QuadTree}, {"brute_force", Method::BruteForce}};
  std::vector<std::uint32_t> out(k);
  std::uint64_t sink = 0;
  interleave(state, timings, brute_queries(count), [&](Method method, std::size_t end) {
    for (std::size_t i = 0; i < end; ++i) {
      const float x = points[2 * i], y = points[2 * i + 1];
      const std::size_t found = method == Method::QuadTree
                                    ? world.tree->nearest(x, y, out)
                                    : quadpool::spatial::brute_force_nearest(world.boxes, x, y, out);
      if (found != k || !std::equal(out.begin(), out.end(), expected.begin() + i * k)) {
        state.SkipWithError("brute force's nearest boxes differ from the tree's");
        std::fprintf(stderr, "spatial_queries: nearest(%a, %a), k = %zu: other ids\n",
                     static_cast<double>(x), static_cast<double>(y), k);
        g_failed = true;
        return false;
      }
      sink += out[0];
    }
    return true;
  });
  benchmark::DoNotOptimize(sink);
}

// --- main --------------------------------------------------------------------------------------

void register_benchmarks() {
  using quadpool::scene::SceneKind;
  static constexpr struct {
    const char* name;
    float length;  // 0: the world's side
  } kLengths[] = {{"short", kShortRay}, {"medium", kMediumRay}, {"long", 0.0f}};
  for (const SceneKind kind : {SceneKind::Uniform, SceneKind::Clustered}) {
    const std::string scene = quadpool::scene::scene_name(kind);
    for (const std::size_t n : {std::size_t{10'000}, std::size_t{100'000}, std::size_t{1'000'000}}) {
      if (n > static_cast<std::size_t>(g_max_boxes)) continue;
      for (const auto& length : kLengths) {
        const std::string name = "ray/" + scene + "/" + std::to_string(n) + "/" + length.name;
        benchmark::RegisterBenchmark(name.c_str(), ray_benchmark, kind, n, length.length)
            ->UseManualTime()
            ->Unit(benchmark::kMicrosecond)
            ->Iterations(g_rounds);
      }
      for (const std::size_t k : {std::size_t{1}, std::size_t{8}, std::size_t{64}}) {
        const std::string name = "nearest/" + scene + "/" + std::to_string(n) + "/k" + std::to_string(k);
        benchmark::RegisterBenchmark(name.c_str(), nearest_benchmark, kind, n, k)
            ->UseManualTime()
            ->Unit(benchmark::kMicrosecond)
            ->Iterations(g_rounds);
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (!quadpool::bench::guard_checked_build(argc, argv)) return 2;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const auto int_flag = [&](const char* name, int lo, int hi, int& out) {
      return quadpool::bench::read_int_flag("spatial_queries", argv[i], name, lo, hi, out);
    };
    if (int_flag("--max_boxes", 10'000, 1'000'000, g_max_boxes)) continue;
    if (int_flag("--queries", 16, 1'000'000, g_queries)) continue;
    if (int_flag("--rounds", 1, 1'000, g_rounds)) continue;
    argv[kept++] = argv[i];
  }
  argc = kept;
  register_benchmarks();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (g_failed) {
    std::fprintf(stderr, "spatial_queries: FAILED: a method disagrees with the tree (see above)\n");
    return 1;
  }
  return 0;
}
