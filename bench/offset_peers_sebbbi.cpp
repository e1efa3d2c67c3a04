// offset_peers' runner of sebbbi/OffsetAllocator (see offset_peers.hpp), built only when CMake is
// given a checkout of it (QUADPOOL_SEBBBI_DIR). Its node limit is 4 N + 64 for N live ranges:
// room for every block, so that it fails only for want of space.
#include "bench/offset_peers_timing.hpp"
#include "offsetAllocator.hpp"

namespace offset_peers {
namespace {

struct SebbbiAdapter {
  OffsetAllocator::Allocator allocator;

  SebbbiAdapter(std::uint64_t capacity, std::size_t live_ranges)
      : allocator(static_cast<std::uint32_t>(capacity),
                  static_cast<std::uint32_t>(4 * live_ranges + 64)) {}
  OffsetAllocator::Allocation allocate(std::uint64_t size) {
    return allocator.allocate(static_cast<std::uint32_t>(size));
  }
  static bool failed(const OffsetAllocator::Allocation& a) {
    return a.offset == OffsetAllocator::Allocation::NO_SPACE;
  }
  void free(const OffsetAllocator::Allocation& a) { allocator.free(a); }
};

}  // namespace

Run run_sebbbi(std::size_t live_ranges, double space_factor) {
  return detail::run_churn<SebbbiAdapter>(
      live_ranges, space_factor,
      [](const OffsetAllocator::Allocation& a) -> std::uint64_t { return a.offset; });
}

}  // namespace offset_peers
