// The one warm-up rule and the one tick recorder that the headless runner and the demo share.
#include "game/sim/tick_recorder.hpp"

#include <cstdint>
#include <optional>

#include <gtest/gtest.h>

#include "common/heap_counter.hpp"
#include "engine/memory/allocator_kind.hpp"
#include "game/sim/simulation.hpp"

namespace quadpool::game {
namespace {

sim::SimulationConfig small_scene(memory::AllocatorKind allocator) {
  sim::SimulationConfig config;
  config.scene.sprites = 2000;
  config.scene.seed = 11;
  config.allocator = allocator;
  config.heap_counter = &quadpool::heap_allocations;
  return config;
}

TEST(HeapWarmup, TheFirstTicksAfterARestartAreWarmUpAndTheRestAreWarm) {
  sim::Simulation sim(small_scene(memory::AllocatorKind::Pool));
  sim::HeapWarmup warmup;
  for (std::uint64_t t = 0; t < sim::kHeapWarmupTicks; ++t) {
    EXPECT_FALSE(warmup.next_tick(sim)) << "tick " << t;
    sim.step();
  }
  EXPECT_TRUE(warmup.next_tick(sim));
  sim.step();
  warmup.restart();
  EXPECT_FALSE(warmup.next_tick(sim)) << "a restart warms up again";
}

TEST(HeapWarmup, ASwitchIntoAPoolThatNeverHeldTheTreeWarmsUpAgainAndNoWarmPoolTickAllocates) {
  sim::Simulation sim(small_scene(memory::AllocatorKind::NewDelete));
  sim::HeapWarmup warmup;
  sim::TickRecorder recorder;
  recorder.reserve(100);
  for (int t = 0; t < 100; ++t) {
    if (t == 30) sim.set_allocator(memory::AllocatorKind::Pool);
    const bool warm = warmup.next_tick(sim);
    if (t == 30) {
      EXPECT_FALSE(warm) << "the pool is cold at the switch";
    }
    recorder.record(sim::TickSample::of(sim.step(), warm));
  }
  const sim::AllocatorSummary pool = recorder.summary(memory::AllocatorKind::Pool);
  EXPECT_EQ(pool.samples, 70u);
  EXPECT_EQ(pool.warm_samples, 70u - sim::kHeapWarmupTicks);
  EXPECT_EQ(pool.warm_samples_with_heap_allocations, 0u);
  EXPECT_EQ(pool.warm_heap_allocations_mean, std::optional<double>(0.0));
  const sim::AllocatorSummary new_delete = recorder.summary(memory::AllocatorKind::NewDelete);
  EXPECT_EQ(new_delete.samples, 30u);
  EXPECT_GT(new_delete.max_warm_heap_allocations, 0u) << "every node is a new";
}

TEST(TickRecorder, PercentilesPhaseMediansAndHeapFiguresComeFromTheRecordedSamples) {
  sim::TickRecorder recorder;
  for (int i = 0; i < 10; ++i) {
    sim::TickSample s;
    s.allocator = i < 6 ? memory::AllocatorKind::Pool : memory::AllocatorKind::NewDelete;
    s.ms =
        sim::PhaseTimes{.integrate = 1, .rebuild = 2, .pairs = 3, .resolve = 4, .total = 10.0 + i};
    s.warm = i != 0;
    s.heap_allocations = i == 0 ? 50u : (i < 6 ? 0u : 8u);
    recorder.record(s);
  }
  sim::TickSample no_counter;  // without a heap counter: timed, but no heap figure
  no_counter.ms.total = 100;
  recorder.record(no_counter);

  EXPECT_EQ(recorder.samples(), 11u);
  EXPECT_DOUBLE_EQ(recorder.tick_ms().max, 100.0);
  EXPECT_DOUBLE_EQ(recorder.phase_medians().pairs, 3.0);
  const sim::AllocatorSummary pool = recorder.summary(memory::AllocatorKind::Pool);
  EXPECT_EQ(pool.samples, 7u);
  EXPECT_DOUBLE_EQ(pool.tick_ms.median, 13.0);  // 10..15 and 100
  EXPECT_EQ(pool.warm_samples, 5u) << "the warm-up sample's 50 allocations do not count";
  EXPECT_EQ(pool.max_warm_heap_allocations, 0u);
  const auto heap = recorder.warm_heap_allocations();
  ASSERT_TRUE(heap.has_value());
  EXPECT_DOUBLE_EQ(heap->max, 8.0);
  EXPECT_DOUBLE_EQ(heap->median, 0.0);  // five zeros and four eights
  recorder.clear();
  EXPECT_EQ(recorder.samples(), 0u);
  EXPECT_FALSE(recorder.warm_heap_allocations().has_value());
}

TEST(TickSample, AFramesTicksAddUpAndItIsWarmOnlyWhenEveryTickWas) {
  sim::TickSample frame{.ms = {.integrate = 1, .rebuild = 1, .pairs = 1, .resolve = 1, .total = 5},
                        .allocator = memory::AllocatorKind::Pool,
                        .heap_allocations = 2u,
                        .warm = false};
  frame.add(
      sim::TickSample{.ms = {.integrate = 1, .rebuild = 2, .pairs = 3, .resolve = 4, .total = 11},
                      .allocator = memory::AllocatorKind::NewDelete,
                      .heap_allocations = 3u,
                      .warm = true});
  EXPECT_DOUBLE_EQ(frame.ms.resolve, 5.0);
  EXPECT_DOUBLE_EQ(frame.ms.total, 16.0);
  EXPECT_EQ(frame.allocator, memory::AllocatorKind::NewDelete);
  EXPECT_EQ(frame.heap_allocations, std::optional<std::uint64_t>(5u));
  EXPECT_FALSE(frame.warm);
}

}  // namespace
}  // namespace quadpool::game
