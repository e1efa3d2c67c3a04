// Tests of game/worker_pool.*, the game's std::jthread implementation of the engine's task
// interface: every item of a task runs exactly once, on a worker index below the pool's count,
// job after job; one thread runs everything inline. The ThreadSanitizer stage runs these.
#include "common/worker_pool.hpp"

#include <atomic>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "engine/core/task_system.hpp"

namespace quadpool::game {
namespace {

// Runs a task over `count` items on `pool` and returns how often each item ran. `bad_range`
// is set by a worker index out of range, an empty range, or a range shorter than `min_range`
// that does not end the task (the contract lets only the last be shorter).
std::vector<int> run_counts(WorkerPool& pool, std::uint32_t count, std::uint32_t min_range,
                            std::atomic<bool>& bad_range) {
  std::vector<int> runs(count, 0);
  const TaskSystem tasks = pool.task_system();
  parallel_for(tasks, count, min_range,
               [&](std::uint32_t begin, std::uint32_t end, std::uint32_t worker) {
                 if (worker >= tasks.worker_count || end - begin < 1) bad_range = true;
                 if (end - begin < min_range && end != count) bad_range = true;
                 for (std::uint32_t i = begin; i < end; ++i) ++runs[i];
               });
  return runs;
}

TEST(WorkerPool, EveryItemRunsExactlyOnceInRangesOfAtLeastTheMinimumJobAfterJob) {
  for (const std::uint32_t threads : {1u, 2u, 4u, 7u}) {
    WorkerPool pool(threads);
    EXPECT_EQ(pool.task_system().worker_count, threads);
    std::atomic<bool> bad_range{false};
    for (int job = 0; job < 200; ++job) {
      // The first job as the tick's sprite loops at 100k: ranges of at least 16,384 items.
      const auto count = job == 0 ? 100000u : static_cast<std::uint32_t>(1 + (job * 7919) % 5000);
      const std::uint32_t min_range = job == 0 ? 16384u : static_cast<std::uint32_t>(1 + job % 64);
      const std::vector<int> runs = run_counts(pool, count, min_range, bad_range);
      for (std::uint32_t i = 0; i < count; ++i) {
        ASSERT_EQ(runs[i], 1) << "item " << i << " of " << count << ", job " << job << ", "
                              << threads << " threads";
      }
    }
    EXPECT_FALSE(bad_range) << threads << " threads";
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
