#pragma once
// offset_peers: OffsetAllocator against allocators whose source is not in this repository, on
// the churn workload of offset_churn_workload.hpp. Each runner lives in a translation unit of its
// own, compiled with the same flags, so that the driver inlines none of them:
//
// - offset_peers_runner.cpp: this checkout's OffsetAllocator, by handle and by offset;
// - the same file compiled once more against another checkout of the project (CMake cache
//   variable QUADPOOL_OFFSET_OTHER_DIR) with -Dquadpool=qpold, so that both builds live in one
//   binary: a change timed against the code before it;
// - offset_peers_sebbbi.cpp: sebbbi/OffsetAllocator, from a checkout named by
//   QUADPOOL_SEBBBI_DIR, with its own 8-byte allocations as the workload's slots and with the
//   slots padded to the size of this allocator's.
//
// These names sit outside namespace quadpool, which the second build renames.

#include <cstddef>
#include <cstdint>

namespace offset_peers {

/// One timed run: build the allocator, fill it, time the steps.
struct Run {
  double ns_per_step = 0;    // the steps' thread CPU time / steps
  std::uint64_t failed = 0;  // allocations that found no space, fill and steps
  std::uint64_t hash = 0;    // FNV-1a of the offsets live at the end (failed: ~0)
};

/// How a run frees: through the allocation's handle or by offset and size.
enum class FreeBy { kHandle, kOffset };

Run run_this(FreeBy free_by, std::size_t live_ranges, double space_factor);
Run run_other(FreeBy free_by, std::size_t live_ranges, double space_factor);
/// Whether the other checkout's allocator frees by handle (one that predates handles runs only
/// its offset path).
bool other_frees_by_handle();
/// `wide_slots`: each of the workload's slots padded to an OffsetAllocation's size (24 bytes in
/// release builds, against sebbbi's 8), so that both read and write the same bytes per step and
/// the difference left is the allocators'.
Run run_sebbbi(std::size_t live_ranges, double space_factor, bool wide_slots);

/// The trace's seed for `live_ranges`: the one memory_bench's OffsetFit uses.
inline std::uint64_t churn_seed(std::size_t live_ranges) {
  return 0xF17 + live_ranges;
}

}  // namespace offset_peers
