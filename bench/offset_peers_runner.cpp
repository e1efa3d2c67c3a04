// offset_peers' runner of quadpool's OffsetAllocator (see offset_peers.hpp). Compiled once for
// this checkout (run_this) and, with QUADPOOL_OFFSET_OTHER_DIR, once more against another
// checkout's headers and sources with -Dquadpool=qpold (run_other): the adapters are in
// namespace quadpool, so that each build's instantiations get their own mangled names.
#include "bench/offset_peers_timing.hpp"
#include "engine/memory/offset_allocator.hpp"

namespace quadpool::bench::peers {

struct ByHandle : HandleChurnAdapter {
  ByHandle(std::uint64_t capacity, std::size_t /*live_ranges*/) : HandleChurnAdapter(capacity) {}
};
struct ByOffset : ChurnAdapter<memory::OffsetAllocator> {
  ByOffset(std::uint64_t capacity, std::size_t /*live_ranges*/) : ChurnAdapter(capacity) {}
};

}  // namespace quadpool::bench::peers

namespace offset_peers {

#if QUADPOOL_OFFSET_PEERS_OTHER
Run run_other(FreeBy free_by, std::size_t live_ranges, double space_factor) {
#else
Run run_this(FreeBy free_by, std::size_t live_ranges, double space_factor) {
#endif
  namespace peers = quadpool::bench::peers;
  const auto offset_of = [](const quadpool::memory::OffsetAllocation& a) { return a.offset; };
  return free_by == FreeBy::kHandle
             ? detail::run_churn<peers::ByHandle>(live_ranges, space_factor, offset_of)
             : detail::run_churn<peers::ByOffset>(live_ranges, space_factor, offset_of);
}

}  // namespace offset_peers
