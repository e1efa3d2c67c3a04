// offset_peers' runner of sebbbi/OffsetAllocator (see offset_peers.hpp), built only when CMake is
// given a checkout of it (QUADPOOL_SEBBBI_DIR). Its node limit is 4 N + 64 for N live ranges:
// room for every block, so that it fails only for want of space.
#include <array>
#include <cstddef>

#include "bench/offset_peers_timing.hpp"
#include "engine/memory/offset_allocator.hpp"
#include "offsetAllocator.hpp"

namespace offset_peers {
namespace {

// One slot of the workload: sebbbi's Allocation, padded to `Bytes`.
template <std::size_t Bytes>
struct Slot {
  OffsetAllocator::Allocation allocation;
  std::array<std::byte, Bytes - sizeof(OffsetAllocator::Allocation)> padding{};
};
template <>
struct Slot<sizeof(OffsetAllocator::Allocation)> {
  OffsetAllocator::Allocation allocation;
};

template <std::size_t SlotBytes>
struct SebbbiAdapter {
  OffsetAllocator::Allocator allocator;

  SebbbiAdapter(std::uint64_t capacity, std::size_t live_ranges)
      : allocator(static_cast<std::uint32_t>(capacity),
                  static_cast<std::uint32_t>(4 * live_ranges + 64)) {}
  Slot<SlotBytes> allocate(std::uint64_t size) {
    return {allocator.allocate(static_cast<std::uint32_t>(size))};
  }
  static bool failed(const Slot<SlotBytes>& s) {
    return s.allocation.offset == OffsetAllocator::Allocation::NO_SPACE;
  }
  void free(const Slot<SlotBytes>& s) { allocator.free(s.allocation); }
};

template <std::size_t SlotBytes>
Run run(std::size_t live_ranges, double space_factor) {
  static_assert(sizeof(Slot<SlotBytes>) == SlotBytes);
  return detail::run_churn(
      live_ranges, space_factor,
      [](std::uint64_t capacity, std::size_t live) {
        return SebbbiAdapter<SlotBytes>(capacity, live);
      },
      [](const Slot<SlotBytes>& s) -> std::uint64_t { return s.allocation.offset; });
}

}  // namespace

Run run_sebbbi(std::size_t live_ranges, double space_factor, bool wide_slots) {
  return wide_slots ? run<sizeof(quadpool::memory::OffsetAllocation)>(live_ranges, space_factor)
                    : run<sizeof(OffsetAllocator::Allocation)>(live_ranges, space_factor);
}

}  // namespace offset_peers
