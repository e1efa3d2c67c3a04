#pragma once
/// The engine's task interface: how the engine runs its parallel parts on threads that the game
/// owns. The engine never starts a thread. A game hands it a TaskSystem, two callbacks over its
/// own job system in the manner of Box2D v3's b2EnqueueTaskCallback / b2FinishTaskCallback; a
/// default TaskSystem runs everything inline on the calling thread.
///
/// Contract for a TaskSystem implementation:
///   - enqueue(task, item_count, min_range, task_context, user_context) must see to it that
///     task(begin, end, worker, task_context) is called for ranges [begin, end) that together
///     cover [0, item_count) exactly once, each at least min_range long (the last may be
///     shorter), with `worker` < worker_count and no two calls running at once with the same
///     worker index. It returns a handle for finish(), or nullptr when it has already run every
///     range itself (finish is then not called).
///   - finish(handle, user_context) returns once every range of that enqueue has run.
///   - The engine calls finish() before its next enqueue(): one job is in flight at a time.
///
/// Determinism: the engine only ever writes a range's results to slots fixed by the item
/// indices, and uses `worker` only to pick scratch memory, so its results do not depend on how
/// the ranges fall on the workers or on worker_count.

#include <cstdint>
#include <type_traits>

namespace quadpool {

/// Runs items [begin, end) of a task as worker `worker`.
using TaskCallback = void (*)(std::uint32_t begin, std::uint32_t end, std::uint32_t worker,
                              void* task_context);
/// Starts `task` over items [0, item_count) in ranges of at least `min_range` items. Returns a
/// handle for the finish callback, or nullptr when everything has run already.
using EnqueueTaskCallback = void* (*)(TaskCallback task, std::uint32_t item_count,
                                      std::uint32_t min_range, void* task_context,
                                      void* user_context);
/// Waits for every range of the task behind `user_task` (a handle from enqueue).
using FinishTaskCallback = void (*)(void* user_task, void* user_context);

struct TaskSystem {
  EnqueueTaskCallback enqueue = nullptr;  ///< nullptr: every task runs inline as worker 0
  FinishTaskCallback finish = nullptr;
  void* user_context = nullptr;    ///< passed back to enqueue and finish
  std::uint32_t worker_count = 1;  ///< >= 1; worker indices are 0..worker_count - 1
};

/// Runs `task` over [0, item_count) through `tasks` and returns when all of it has run. With no
/// enqueue callback, or item_count <= min_range, it is one inline call as worker 0. No heap
/// allocation here (the TaskSystem's own callbacks may allocate).
inline void run_task(const TaskSystem& tasks, std::uint32_t item_count, std::uint32_t min_range,
                     TaskCallback task, void* task_context) {
  if (item_count == 0) return;
  if (tasks.enqueue == nullptr || tasks.worker_count <= 1 || item_count <= min_range) {
    task(0, item_count, 0, task_context);
    return;
  }
  void* handle = tasks.enqueue(task, item_count, min_range < 1 ? 1 : min_range, task_context,
                               tasks.user_context);
  if (handle != nullptr) tasks.finish(handle, tasks.user_context);
}

/// run_task() for a callable: f(std::uint32_t begin, std::uint32_t end, std::uint32_t worker).
template <class F>
void parallel_for(const TaskSystem& tasks, std::uint32_t item_count, std::uint32_t min_range,
                  F&& f) {
  using Callable = std::remove_reference_t<F>;
  const TaskCallback trampoline = [](std::uint32_t begin, std::uint32_t end, std::uint32_t worker,
                                     void* context) {
    (*static_cast<Callable*>(context))(begin, end, worker);
  };
  run_task(tasks, item_count, min_range, trampoline,
           const_cast<void*>(static_cast<const void*>(&f)));
}

}  // namespace quadpool
