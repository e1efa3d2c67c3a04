#pragma once
// A TaskSystem for tests: runs a task's ranges at once, last to first, each on the next worker
// index, a schedule no real pool would pick and so a good test of order independence.

#include <cstdint>

#include "engine/core/task_system.hpp"

namespace quadpool::test {

// Cuts a task into ranges of `min_range` and runs them last to first.
struct ReversedScheduler {
  std::uint32_t workers;
  std::uint32_t calls = 0;

  static void* enqueue(TaskCallback task, std::uint32_t count, std::uint32_t min_range,
                       void* task_context, void* user_context) {
    auto& self = *static_cast<ReversedScheduler*>(user_context);
    const std::uint32_t ranges = (count + min_range - 1) / min_range;
    for (std::uint32_t r = ranges; r-- > 0;) {
      const std::uint32_t begin = r * min_range;
      const std::uint32_t end = begin + min_range < count ? begin + min_range : count;
      task(begin, end, self.calls++ % self.workers, task_context);
    }
    return nullptr;  // all done already: no finish call
  }

  TaskSystem task_system() {
    return TaskSystem{
        .enqueue = &enqueue, .finish = nullptr, .user_context = this, .worker_count = workers};
  }
};

}  // namespace quadpool::test
