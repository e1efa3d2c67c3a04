#include "common/worker_pool.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <stop_token>
#include <thread>

#include "engine/core/assert.hpp"
#include "engine/core/task_system.hpp"

namespace quadpool {

namespace {

// A job is cut into a few ranges per thread, so that a thread that finishes early takes another
// range instead of waiting for the slowest one.
constexpr std::uint32_t kRangesPerThread = 8;

// How long a thread that ran out of work polls for more before it yields: about 30 µs. A
// tick's next phase comes within microseconds, and waking a sleeping thread costs tens of
// microseconds on a virtual machine (the idle CPU has halted).
constexpr int kPollsBeforeSleep = 2000;
// Then how long it keeps looking while giving its core to any other thread that wants it
// (std::this_thread::yield), before it sleeps: the time between frames is longer, and worth a
// sleep; the gaps between a tick's loops (the serial parts left are under a millisecond at a
// million sprites) are shorter, and the thread is on time for the next loop. Measured
// against sleeping after the polls (separate runs, alternating): 0.95, 0.91 and 0.94 of the
// two-thread tick at 10k, 100k and 1M sprites; 5 ms of yielding gained no more.
constexpr std::chrono::microseconds kYieldBeforeSleep{1000};

void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// Polls `value` until it differs from `old`, or the polls and the yielding have passed.
template <class T>
void poll_while_equal(const std::atomic<T>& value, T old) noexcept {
  for (int poll = 0; poll < kPollsBeforeSleep; ++poll) {
    if (value.load(std::memory_order_relaxed) != old) return;
    cpu_relax();
  }
  const auto until = std::chrono::steady_clock::now() + kYieldBeforeSleep;
  while (std::chrono::steady_clock::now() < until) {
    if (value.load(std::memory_order_relaxed) != old) return;
    std::this_thread::yield();
  }
}

// A block's claim word: which job (bits 32..63), the block's end (bits 16..31) and its next
// unclaimed range (bits 0..15). A worker claims a range by one compare-and-swap, and reads the
// job's fields only after a claim has succeeded: while a range of a job is claimed but not done,
// finish() cannot return and no new job can overwrite them. A stale word (an earlier job's)
// fails the compare-and-swap.
constexpr std::uint64_t claim_word(std::uint64_t job, std::uint32_t next,
                                   std::uint32_t end) noexcept {
  return (job << 32) | (std::uint64_t{end} << 16) | next;
}

}  // namespace

std::uint32_t default_thread_count() noexcept {
  const unsigned hardware = std::thread::hardware_concurrency();
  return std::clamp<std::uint32_t>(hardware, 1, kMaxThreads);
}

WorkerPool::WorkerPool(std::uint32_t threads)
    : threads_(std::clamp<std::uint32_t>(threads, 1, kMaxThreads)), blocks_(threads_) {
  QUADPOOL_ASSERT(threads >= 1 && threads <= kMaxThreads, "WorkerPool: threads must be in 1..256");
  workers_.reserve(threads_ - 1);
  for (std::uint32_t w = 1; w < threads_; ++w) {
    workers_.emplace_back([this, w](std::stop_token stop) { work(w, stop); });
  }
}

WorkerPool::~WorkerPool() {
  for (std::jthread& worker : workers_) worker.request_stop();
  generation_.fetch_add(1, std::memory_order_release);
  generation_.notify_all();
  workers_.clear();  // joins
}

TaskSystem WorkerPool::task_system() noexcept {
  return TaskSystem{.enqueue = &WorkerPool::enqueue,
                    .finish = &WorkerPool::finish,
                    .user_context = this,
                    .worker_count = threads_};
}

void* WorkerPool::enqueue(TaskCallback task, std::uint32_t item_count, std::uint32_t min_range,
                          void* task_context, void* user_context) {
  auto& pool = *static_cast<WorkerPool*>(user_context);
  const std::uint32_t range_floor = std::max<std::uint32_t>(min_range, 1);
  // As many ranges as fit whole: every range but the last at least min_range long.
  const std::uint32_t most_ranges = item_count / range_floor;
  const std::uint32_t wanted = std::min<std::uint32_t>(pool.threads_ * kRangesPerThread, 0xffff);
  const std::uint32_t ranges_guess = std::max<std::uint32_t>(1, std::min(most_ranges, wanted));
  const std::uint32_t range = (item_count + ranges_guess - 1) / ranges_guess;
  pool.job_ = Job{.task = task,
                  .context = task_context,
                  .item_count = item_count,
                  .range = range,
                  .ranges = (item_count + range - 1) / range};
  pool.ranges_done_.store(0, std::memory_order_relaxed);
  // Worker w's block is the w-th of threads_ equal runs of ranges: with the same cut every job,
  // a worker that is on time runs the same items phase after phase, and finds in its own cache
  // what it wrote in the last phase (taken from one shared counter, the ranges fell on the
  // workers at random: at a million sprites the order repair's merge took 6.1 ms a job, 4.8 ms
  // with blocks). A worker whose block is done takes ranges from the others' blocks.
  const std::uint64_t job = pool.job_number_ + 1;
  pool.job_number_ = job;
  const std::uint32_t ranges = pool.job_.ranges;
  for (std::uint32_t w = 0; w < pool.threads_; ++w) {
    const auto begin = static_cast<std::uint32_t>(std::uint64_t{ranges} * w / pool.threads_);
    const auto end = static_cast<std::uint32_t>(std::uint64_t{ranges} * (w + 1) / pool.threads_);
    pool.blocks_[w].claim.store(claim_word(job, begin, end), std::memory_order_release);
  }
  pool.generation_.fetch_add(1, std::memory_order_release);
  pool.generation_.notify_all();
  return &pool;
}

void WorkerPool::finish(void* user_task, void* /*user_context*/) {
  auto& pool = *static_cast<WorkerPool*>(user_task);
  pool.run_ranges(0);
  const std::uint32_t ranges = pool.job_.ranges;
  for (std::uint32_t done = pool.ranges_done_.load(std::memory_order_acquire); done < ranges;
       done = pool.ranges_done_.load(std::memory_order_acquire)) {
    poll_while_equal(pool.ranges_done_, done);
    if (pool.ranges_done_.load(std::memory_order_acquire) != done) continue;
    pool.ranges_done_.wait(done, std::memory_order_acquire);
  }
}

void WorkerPool::work(std::uint32_t worker, std::stop_token stop) {
  std::uint32_t seen = 0;
  while (true) {
    poll_while_equal(generation_, seen);
    generation_.wait(seen, std::memory_order_acquire);
    if (stop.stop_requested()) return;
    seen = generation_.load(std::memory_order_acquire);
    run_ranges(worker);
  }
}

void WorkerPool::run_ranges(std::uint32_t worker) noexcept {
  // Its own block first, then the others' in turn.
  for (std::uint32_t b = 0; b < threads_; ++b) {
    const std::uint32_t block = worker + b < threads_ ? worker + b : worker + b - threads_;
    run_block(worker, blocks_[block].claim);
  }
}

void WorkerPool::run_block(std::uint32_t worker, std::atomic<std::uint64_t>& claim) noexcept {
  std::uint64_t word = claim.load(std::memory_order_acquire);
  while (true) {
    const auto next = static_cast<std::uint32_t>(word & 0xffffu);
    const auto end = static_cast<std::uint32_t>((word >> 16) & 0xffffu);
    if (next >= end) return;
    if (!claim.compare_exchange_weak(word, word + 1, std::memory_order_acq_rel,
                                     std::memory_order_acquire)) {
      continue;
    }
    // A copy: once this range is counted done, finish() may return and the next job overwrite
    // job_.
    const Job job = job_;
    const std::uint32_t begin = next * job.range;
    const std::uint32_t stop = std::min(begin + job.range, job.item_count);
    job.task(begin, stop, worker, job.context);
    if (ranges_done_.fetch_add(1, std::memory_order_acq_rel) + 1 == job.ranges) {
      ranges_done_.notify_all();
    }
    word = claim.load(std::memory_order_acquire);
  }
}

}  // namespace quadpool
