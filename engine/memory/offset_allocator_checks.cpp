// OffsetAllocator's messages for a bad free, by handle or by offset: each names the range and
// what is wrong with it. Error paths only, kept apart from the allocator's operations.
#include "engine/memory/offset_allocator.hpp"

#include <cstdint>
#include <string>

#include "engine/core/assert.hpp"
#include "engine/core/str_cat.hpp"
#include "engine/memory/detail/offset_live_table.hpp"

namespace quadpool::memory {

void OffsetAllocator::report_bad_handle(const OffsetAllocation& allocation) const {
  const OffsetAllocationHandle& handle = allocation.handle;
  const std::string which =
      str_cat("OffsetAllocator::free(offset ", allocation.offset, ", size ", allocation.size, "): ");
  QUADPOOL_ASSERT(allocation.offset != kNoSpace,
                  "OffsetAllocator::free: the allocation failed (offset kNoSpace)");
  QUADPOOL_ASSERT(handle.node != kNil,
                  str_cat(which, "the allocation has no handle (not one that allocate returned); "
                                 "free(offset, size) frees by offset"));
#if QUADPOOL_CONFIG_ASSERTS
  QUADPOOL_ASSERT(handle.allocator_id == id_,
                  str_cat(which, "the handle comes from another allocator"));
  QUADPOOL_ASSERT(handle.node < states_.size() && handle.generation == generations_[handle.node],
                  str_cat(which, "stale handle, the range was freed and its block has been "
                                 "handed out again"));
#endif
  QUADPOOL_ASSERT(states_[handle.node] == State::kLive,
                  str_cat(which, "double free, the range was freed already"));
  QUADPOOL_ASSERT(false, str_cat(which, "the handle names the range [", nodes_[handle.node].offset,
                                 ", +", nodes_[handle.node].size,
                                 "); free takes the allocation that allocate returned, unchanged"));
}

void OffsetAllocator::report_bad_free(std::uint64_t offset, std::uint64_t size,
                                      std::uint32_t live) const {
  QUADPOOL_ASSERT(
      size != 0,
      str_cat("OffsetAllocator::free(offset ", offset,
              ", size 0): size 0; free takes the exact offset and size that allocate returned"));
  QUADPOOL_ASSERT(offset != kNoSpace,
                  "OffsetAllocator::free: offset is kNoSpace, the result of a failed allocate");
  QUADPOOL_ASSERT(offset <= capacity_ && size <= capacity_ - offset,
                  str_cat("OffsetAllocator::free(offset ", offset, ", size ", size,
                          "): the range lies outside the capacity [0, ", capacity_, ")"));
  // An error path: a walk over every block finds a free one the range overlaps.
  for (std::uint32_t i = first_; i != kNil; i = nodes_[i].next) {
    const Node& block = nodes_[i];
    const std::uint64_t block_end = block.offset + block.size;
    QUADPOOL_ASSERT(!is_free(i) || block_end <= offset || offset + size <= block.offset,
                    str_cat("OffsetAllocator::free(offset ", offset, ", size ", size,
                            "): double free, the range overlaps the free block [", block.offset,
                            ", ", block_end, ")"));
  }
  QUADPOOL_ASSERT(live == detail::OffsetLiveTable::kNone,
                  str_cat("OffsetAllocator::free(offset ", offset, ", size ", size,
                          "): the range allocated at ", offset, " has ", nodes_[live].size,
                          " bytes; free takes the exact offset and size that allocate returned"));
  QUADPOOL_ASSERT(false, str_cat("OffsetAllocator::free(offset ", offset, ", size ", size,
                                 "): no live range starts at ", offset,
                                 " (never allocated, or freed already)"));
}

}  // namespace quadpool::memory
