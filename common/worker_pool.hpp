#pragma once
/// The game's implementation of the engine's task interface (engine/core/task_system.hpp): a
/// fixed pool of std::jthread workers, started once, that split each task into ranges, one block
/// of ranges per thread; a thread done with its block takes ranges from the others'. The thread
/// that enqueues is worker 0 and runs ranges too while it waits in finish(), so a pool of N
/// threads starts N - 1 of its own.
///
/// Against oneTBB (measured in docs/simulation.md, "Threads"): oneTBB's two-thread tick takes 0.97
/// to 0.99 of this pool's; the pool is kept because it adds no package. It makes no heap
/// allocation after its construction.
///
/// A thread out of work polls for about 30 µs (a tick's next phase comes within microseconds,
/// and waking a sleeping thread costs tens of microseconds on a virtual machine), then for up to
/// 1 ms yields its core to any thread that wants it between looks, then sleeps in
/// std::atomic::wait (a futex on Linux): the machines this runs on are shared, so it never
/// holds a core longer. Not copyable; the destructor stops and joins the workers.

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

#include "engine/core/task_system.hpp"

namespace quadpool {

/// The most threads a pool takes (the runner's --threads range is 1..kMaxThreads).
inline constexpr std::uint32_t kMaxThreads = 256;

/// The machine's hardware threads, clamped into 1..kMaxThreads (1 when unknown).
std::uint32_t default_thread_count() noexcept;

class WorkerPool {
 public:
  /// `threads` in 1..kMaxThreads, counting the caller's thread; asserts otherwise (clamped when
  /// asserts are compiled out). 1 starts no thread: every task runs inline.
  explicit WorkerPool(std::uint32_t threads);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  std::uint32_t threads() const noexcept { return threads_; }
  /// The TaskSystem to give the engine; valid while the pool lives.
  TaskSystem task_system() noexcept;

 private:
  struct Job {
    TaskCallback task = nullptr;
    void* context = nullptr;
    std::uint32_t item_count = 0;
    std::uint32_t range = 1;   // items per range
    std::uint32_t ranges = 0;  // ranges in all
  };

  static void* enqueue(TaskCallback task, std::uint32_t item_count, std::uint32_t min_range,
                       void* task_context, void* user_context);
  static void finish(void* user_task, void* user_context);
  void work(std::uint32_t worker, std::stop_token stop);
  void run_ranges(std::uint32_t worker) noexcept;
  void run_block(std::uint32_t worker, std::atomic<std::uint64_t>& claim) noexcept;

  // One per thread, each on a cache line of its own: the claim word of that thread's block of
  // ranges (worker_pool.cpp).
  struct alignas(64) Block {
    std::atomic<std::uint64_t> claim{0};
  };

  std::uint32_t threads_;
  Job job_;
  std::uint64_t job_number_ = 0;  // enqueue's alone: the jobs so far
  std::vector<Block> blocks_;
  std::atomic<std::uint32_t> ranges_done_{0};
  std::atomic<std::uint32_t> generation_{0};  // bumped per job (and at shutdown) to wake workers
  std::vector<std::jthread> workers_;         // last: started after every member above exists
};

}  // namespace quadpool
