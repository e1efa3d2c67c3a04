// The parallel tick (game/simulation.* on game/worker_pool.*): the state after every tick, and
// the pairs and contacts in their order, are those of the one-thread tick, for 2 and 4 threads, both
// allocators and every scene; a warm pool tick allocates nothing on any thread count; a scene
// under kMinSpritesForWorkers sprites leaves the workers alone. The
// ThreadSanitizer stage runs these.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/heap_counter.hpp"
#include "engine/core/task_system.hpp"
#include "engine/memory/allocator_kind.hpp"
#include "game/sim/simulation.hpp"
#include "common/worker_pool.hpp"
#include "common/scene/scene.hpp"
#include "tests/helpers/assert_throws.hpp"
#include "tests/helpers/skip.hpp"

namespace quadpool::game {
namespace {

sim::SimulationConfig parallel_config(scene::SceneKind kind, std::uint64_t seed,
                                      memory::AllocatorKind allocator) {
  sim::SimulationConfig config;
  // Enough sprites that the pairs are cut into many pieces and the per-sprite phases into
  // several ranges.
  config.scene.sprites = 40'000;
  config.scene.seed = seed;
  config.scene.kind = kind;
  config.allocator = allocator;
  config.heap_counter = &quadpool::heap_allocations;
  return config;
}

struct Trace {
  std::vector<std::uint64_t> hashes;       // after every tick
  std::vector<spatial::Pair> last_pairs;     // the last tick's, in order
  std::vector<spatial::Pair> last_contacts;  // the last tick's, in the order resolved
};

Trace run(sim::SimulationConfig config, std::uint32_t threads, int ticks) {
  WorkerPool pool(threads);
  if (threads > 1) config.tasks = pool.task_system();
  sim::Simulation sim(config);
  Trace trace;
  for (int t = 0; t < ticks; ++t) {
    sim.step();
    trace.hashes.push_back(sim.state_hash());
  }
  trace.last_pairs.assign(sim.last_pairs().begin(), sim.last_pairs().end());
  trace.last_contacts.assign(sim.last_contacts().begin(), sim.last_contacts().end());
  return trace;
}

class ParallelTick : public ::testing::TestWithParam<scene::SceneKind> {};

TEST_P(ParallelTick, EveryTickMatchesOneThreadOnTwoAndFourThreadsAndBothAllocators) {
  const auto seed = test::announce_seed("ParallelTick", 3);
  const sim::SimulationConfig pool_config =
      parallel_config(GetParam(), seed, memory::AllocatorKind::Pool);
  const Trace one = run(pool_config, 1, 12);
  // The streams scene's crowds meet later than these ticks; the others have pairs at once.
  if (GetParam() != scene::SceneKind::Streams) {
    ASSERT_FALSE(one.last_pairs.empty());
    ASSERT_FALSE(one.last_contacts.empty());
  }
  for (const std::uint32_t threads : {2u, 4u}) {
    for (const memory::AllocatorKind allocator : memory::kAllocatorKinds) {
      const Trace many = run(parallel_config(GetParam(), seed, allocator), threads, 12);
      EXPECT_EQ(many.hashes, one.hashes)
          << threads << " threads, " << memory::allocator_name(allocator);
      EXPECT_EQ(many.last_pairs, one.last_pairs)
          << threads << " threads, " << memory::allocator_name(allocator);
      EXPECT_EQ(many.last_contacts, one.last_contacts)
          << threads << " threads, " << memory::allocator_name(allocator);
    }
  }
}

// A task system that runs every range at once on the calling thread and counts the jobs.
struct CountingTasks {
  int jobs = 0;
  TaskSystem system() {
    TaskSystem tasks;
    tasks.worker_count = 2;
    tasks.user_context = this;
    tasks.enqueue = [](TaskCallback task, std::uint32_t items, std::uint32_t, void* task_context,
                       void* user) -> void* {
      ++static_cast<CountingTasks*>(user)->jobs;
      task(0, items, 0, task_context);
      return nullptr;
    };
    return tasks;
  }
};

TEST(ParallelTickSize, ASmallSceneRunsOnTheCallingThreadAndALargerOneOnTheWorkers) {
  for (const std::size_t sprites : {sim::kMinSpritesForWorkers - 1, sim::kMinSpritesForWorkers}) {
    CountingTasks counting;
    sim::SimulationConfig config;
    config.scene.sprites = sprites;
    config.tasks = counting.system();
    sim::Simulation sim(config);
    counting.jobs = 0;
    sim.step();
    if (sprites < sim::kMinSpritesForWorkers) {
      EXPECT_EQ(counting.jobs, 0) << sprites << " sprites";
    } else {
      EXPECT_GT(counting.jobs, 0) << sprites << " sprites";
    }
  }
}

TEST_P(ParallelTick, AWarmPoolTickAllocatesNothingOnFourThreads) {
  QUADPOOL_SKIP_UNLESS(quadpool::heap_counting_enabled(), "the heap counter (ThreadSanitizer build)");
  WorkerPool pool(4);
  sim::SimulationConfig config = parallel_config(GetParam(), 5, memory::AllocatorKind::Pool);
  config.tasks = pool.task_system();
  sim::Simulation sim(config);
  for (std::uint64_t t = 0; t < sim::kHeapWarmupTicks; ++t) sim.step();
  std::uint64_t allocating_ticks = 0;
  for (int t = 0; t < 100; ++t) allocating_ticks += *sim.step().heap_allocations != 0 ? 1 : 0;
  // As on one thread: only a new high of a pair count may grow a buffer, by half each time.
  EXPECT_LE(allocating_ticks, 2u) << scene::scene_name(GetParam());
}

INSTANTIATE_TEST_SUITE_P(Kinds, ParallelTick, ::testing::ValuesIn(scene::kSceneKinds),
                         [](const auto& info) { return std::string(scene::scene_name(info.param)); });

}  // namespace
}  // namespace quadpool::game
