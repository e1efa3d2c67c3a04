// offset_peers' runner of quadpool's OffsetAllocator (see offset_peers.hpp). Compiled once for
// this checkout (run_this) and, with QUADPOOL_OFFSET_OTHER_DIR, once more against another
// checkout's headers and sources with -Dquadpool=qpold (run_other): the adapters are in
// namespace quadpool, and the factories local to run_this or run_other, so that each build's
// instantiations get their own mangled names.
// The tool's own header by a path relative to this file: the other build puts the other
// checkout's include directory first, and its bench/ (an older tool, or none) must not replace
// this one's; the engine's headers, found through the include path, are that checkout's.
#include "offset_peers_timing.hpp"

#include "engine/memory/offset_allocator.hpp"

namespace offset_peers {

#if QUADPOOL_OFFSET_PEERS_OTHER
Run run_other(FreeBy free_by, std::size_t live_ranges, double space_factor) {
#else
Run run_this(FreeBy free_by, std::size_t live_ranges, double space_factor) {
#endif
  namespace bench = quadpool::bench;
  const auto offset_of = [](const quadpool::memory::OffsetAllocation& a) { return a.offset; };
  if (free_by == FreeBy::kHandle) {
    return detail::run_churn(
        live_ranges, space_factor,
        [](std::uint64_t capacity, std::size_t) { return bench::HandleChurnAdapter(capacity); },
        offset_of);
  }
  return detail::run_churn(
      live_ranges, space_factor,
      [](std::uint64_t capacity, std::size_t) {
        return bench::ChurnAdapter<quadpool::memory::OffsetAllocator>(capacity);
      },
      offset_of);
}

}  // namespace offset_peers
