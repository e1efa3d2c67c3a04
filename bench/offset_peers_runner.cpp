// offset_peers' runner of quadpool's OffsetAllocator (see offset_peers.hpp). Compiled once for
// this checkout (run_this) and, with QUADPOOL_OFFSET_OTHER_DIR, once more against another
// checkout's headers and sources with -Dquadpool=qpold (run_other): the adapters are in
// namespace quadpool and the runner's templates in an unnamed namespace, so that each build's
// instantiations are its own.
// The tool's own header by a path relative to this file: the other build puts the other
// checkout's include directory first, and its bench/ (an older tool, or none) must not replace
// this one's; the engine's headers, found through the include path, are that checkout's.
#include "offset_peers_timing.hpp"

#include "engine/memory/offset_allocator.hpp"

namespace offset_peers {
namespace {

// Whether `Allocator` frees by handle: the other checkout may predate handles, and then only its
// offset path runs.
template <class Allocator>
constexpr bool kFreesByHandle = requires(Allocator& allocator) {
  allocator.free(allocator.allocate(1));
};

// A template, so that the handle path of an allocator without one is never instantiated.
template <class Allocator>
Run run_allocator(FreeBy free_by, std::size_t live_ranges, double space_factor) {
  namespace bench = quadpool::bench;
  const auto offset_of = [](const auto& slot) { return slot.offset; };
  if constexpr (kFreesByHandle<Allocator>) {
    if (free_by == FreeBy::kHandle) {
      return detail::run_churn(
          live_ranges, space_factor,
          [](std::uint64_t capacity, std::size_t) {
            return bench::BasicHandleChurnAdapter<Allocator>(capacity);
          },
          offset_of);
    }
  }
  return detail::run_churn(
      live_ranges, space_factor,
      [](std::uint64_t capacity, std::size_t) { return bench::ChurnAdapter<Allocator>(capacity); },
      offset_of);
}

}  // namespace

#if QUADPOOL_OFFSET_PEERS_OTHER
bool other_frees_by_handle() {
  return kFreesByHandle<quadpool::memory::OffsetAllocator>;
}

Run run_other(FreeBy free_by, std::size_t live_ranges, double space_factor) {
#else
static_assert(kFreesByHandle<quadpool::memory::OffsetAllocator>,
              "this checkout's allocator must free by handle, or the handle path would time the "
              "offset path");

Run run_this(FreeBy free_by, std::size_t live_ranges, double space_factor) {
#endif
  return run_allocator<quadpool::memory::OffsetAllocator>(free_by, live_ranges, space_factor);
}

}  // namespace offset_peers
