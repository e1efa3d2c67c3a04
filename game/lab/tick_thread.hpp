#pragma once
/// TickThread: one long-lived thread that runs a SimRunner's frame plans, so that the lab's
/// window can present the frame it has drawn while the next ticks run.
///
/// The handshake is a pair of binary semaphores. start() hands over a plan and releases `go`;
/// the thread acquires it, runs the plan and releases `done`; join() acquires `done`. A
/// semaphore's release happens before the acquire that it satisfies, so everything the caller
/// wrote before start() (the runner, its simulation, the TaskSystem's state) is visible to the
/// ticks, and everything the ticks wrote is visible to the caller after join(). Between the two
/// the runner, its simulation, the sample and the TaskSystem the simulation runs on belong to
/// the thread: the caller must touch none of them.
///
/// Started once, in the constructor; start() and join() allocate nothing, so a frame costs no
/// heap allocation and no thread creation. Not copyable; the destructor waits for ticks in
/// flight, then stops and joins the thread.

#include <exception>
#include <semaphore>
#include <thread>

#include "game/lab/frame_stats.hpp"
#include "game/lab/sim_runner.hpp"

namespace quadpool::game::lab {

class TickThread {
 public:
  /// Starts the thread, which waits for start(). `runner` must outlive this object.
  explicit TickThread(SimRunner& runner);
  ~TickThread();
  TickThread(const TickThread&) = delete;
  TickThread& operator=(const TickThread&) = delete;

  /// Runs runner.run(plan, sample) on the thread and returns at once. Until join() returns, the
  /// caller must not touch the runner, its simulation or `sample`. Asserts that no plan is in
  /// flight already.
  void start(const FramePlan& plan, FrameSample& sample);
  /// Waits until the plan start() handed over has run; returns at once when none is in flight.
  /// Rethrows what the plan threw (std::bad_alloc: the ticks ran out of memory).
  void join();
  bool in_flight() const noexcept { return in_flight_; }

 private:
  void loop(std::stop_token stop);
  void wait() noexcept;

  SimRunner& runner_;
  FramePlan plan_;                 // written by start(), read by the thread
  FrameSample* sample_ = nullptr;  // likewise
  std::exception_ptr failure_;     // written by the thread, read by join()
  bool in_flight_ = false;         // the caller's side only
  std::binary_semaphore go_{0};
  std::binary_semaphore done_{0};
  std::jthread thread_;  // last: started after every member above exists
};

}  // namespace quadpool::game::lab
