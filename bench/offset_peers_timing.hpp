#pragma once
// The part of a run every runner of offset_peers shares (see offset_peers.hpp): fill, time the
// steps in the thread's CPU time, hash the offsets left live. Included by each runner's own
// translation unit, so each gets its own copy of the timed loop, compiled with the same flags.

#include <time.h>

#include <cstddef>
#include <cstdint>

// Relative to this file, so that a runner built against another checkout still gets this
// checkout's workload and interface (see offset_peers_runner.cpp).
#include "offset_churn_workload.hpp"
#include "offset_peers.hpp"

namespace offset_peers::detail {

// The thread's CPU time: on a shared machine the wall clock also counts the time a run waits for
// a core.
inline double thread_ns() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e9 + static_cast<double>(t.tv_nsec);
}

/// Runs the workload through the adapter that make_adapter(capacity, live_ranges) returns (the
/// three members of bench::ChurnAdapter). `offset_of` reads a slot's offset for the hash.
template <class MakeAdapter, class OffsetOf>
Run run_churn(std::size_t live_ranges, double space_factor, MakeAdapter make_adapter,
              OffsetOf offset_of) {
  namespace bench = quadpool::bench;
  const bench::ChurnTrace trace = bench::make_churn_trace(live_ranges, churn_seed(live_ranges));
  auto adapter = make_adapter(bench::churn_capacity(live_ranges, space_factor), live_ranges);
  using Adapter = decltype(adapter);
  bench::ChurnSlots<Adapter> slots;
  slots.reserve(live_ranges);
  Run run;
  run.failed = bench::churn_fill(adapter, trace, slots);
  const double start = thread_ns();
  run.failed += bench::churn_steps(adapter, trace, slots);
  run.ns_per_step = (thread_ns() - start) / static_cast<double>(trace.steps.size());
  run.hash = 0xCBF29CE484222325u;
  for (const auto& slot : slots) {
    run.hash =
        (run.hash ^ (Adapter::failed(slot) ? ~std::uint64_t{0} : offset_of(slot))) * 0x100000001B3u;
  }
  return run;
}

}  // namespace offset_peers::detail
