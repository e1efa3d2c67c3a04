#include "game/lab/tick_thread.hpp"

#include <exception>
#include <stop_token>
#include <utility>

#include "engine/core/assert.hpp"

namespace quadpool::game::lab {

TickThread::TickThread(SimRunner& runner)
    : runner_(runner), thread_([this](std::stop_token stop) { loop(std::move(stop)); }) {}

TickThread::~TickThread() {
  wait();
  thread_.request_stop();
  go_.release();  // wakes the thread, which sees the stop request and returns
}  // thread_ joins here

void TickThread::start(const FramePlan& plan, FrameSample& sample) {
  QUADPOOL_ASSERT(!in_flight_, "TickThread::start: the last plan has not been joined");
  plan_ = plan;
  sample_ = &sample;
  in_flight_ = true;
  runner_.lent_ = true;
  go_.release();
}

void TickThread::join() {
  wait();
  if (failure_) std::rethrow_exception(std::exchange(failure_, nullptr));
}

void TickThread::wait() noexcept {
  if (!in_flight_) return;
  done_.acquire();
  in_flight_ = false;
  runner_.lent_ = false;
}

void TickThread::loop(std::stop_token stop) {
  while (true) {
    go_.acquire();
    if (stop.stop_requested()) return;
    try {
      runner_.run(plan_, *sample_);
    } catch (...) {
      failure_ = std::current_exception();
    }
    done_.release();
  }
}

}  // namespace quadpool::game::lab
