// Tests of game/worker_pool.*, the game's std::jthread implementation of the engine's task
// interface: every item of a task runs exactly once, on a worker index below the pool's count,
// job after job; one thread runs everything inline. The ThreadSanitizer stage runs these.
#include "game/worker_pool.hpp"

#include <atomic>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "engine/core/task_system.hpp"

namespace quadpool::game {
namespace {

// Runs a task over `count` items on `pool` and returns how often each item ran.
std::vector<int> run_counts(WorkerPool& pool, std::uint32_t count, std::uint32_t min_range,
                            std::atomic<bool>& bad_worker) {
  std::vector<int> runs(count, 0);
  const TaskSystem tasks = pool.task_system();
  parallel_for(tasks, count, min_range, [&](std::uint32_t begin, std::uint32_t end, std::uint32_t worker) {
    if (worker >= tasks.worker_count || end - begin < 1) bad_worker = true;
    for (std::uint32_t i = begin; i < end; ++i) ++runs[i];
  });
  return runs;
}

TEST(WorkerPool, EveryItemRunsExactlyOnceJobAfterJob) {
  for (const std::uint32_t threads : {1u, 2u, 4u, 7u}) {
    WorkerPool pool(threads);
    EXPECT_EQ(pool.task_system().worker_count, threads);
    std::atomic<bool> bad_worker{false};
    for (int job = 0; job < 200; ++job) {
      const auto count = static_cast<std::uint32_t>(1 + (job * 7919) % 5000);
      const std::vector<int> runs = run_counts(pool, count, 1 + job % 64, bad_worker);
      for (std::uint32_t i = 0; i < count; ++i) {
        ASSERT_EQ(runs[i], 1) << "item " << i << " of " << count << ", job " << job << ", "
                              << threads << " threads";
      }
    }
    EXPECT_FALSE(bad_worker) << threads << " threads";
  }
}

TEST(WorkerPool, SeveralWorkersShareALongTask) {
  WorkerPool pool(4);
  const TaskSystem tasks = pool.task_system();
  std::vector<std::atomic<int>> per_worker(tasks.worker_count);
  parallel_for(tasks, 64, 1, [&](std::uint32_t begin, std::uint32_t end, std::uint32_t worker) {
    per_worker[worker] += static_cast<int>(end - begin);
  });
  int total = 0;
  for (const std::atomic<int>& items : per_worker) total += items;
  EXPECT_EQ(total, 64);
}

TEST(WorkerPool, OneThreadRunsInlineAsWorkerZero) {
  WorkerPool pool(1);
  std::uint32_t seen_worker = 99;
  std::uint32_t ranges = 0;
  parallel_for(pool.task_system(), 1000, 10,
               [&](std::uint32_t, std::uint32_t, std::uint32_t worker) {
                 seen_worker = worker;
                 ++ranges;
               });
  EXPECT_EQ(seen_worker, 0u);
  EXPECT_EQ(ranges, 1u);
}

TEST(WorkerPool, TheDefaultCountIsInRange) {
  EXPECT_GE(default_thread_count(), 1u);
  EXPECT_LE(default_thread_count(), kMaxThreads);
}

}  // namespace
}  // namespace quadpool::game
