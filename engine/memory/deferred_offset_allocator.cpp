// DeferredOffsetAllocator (see offset_allocator.hpp): frees wait in a queue sorted by frame
// until release_completed_frames returns them to the OffsetAllocator.
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "engine/core/assert.hpp"
#include "engine/memory/offset_allocator.hpp"

namespace quadpool::memory {

DeferredOffsetAllocator::DeferredOffsetAllocator(std::uint64_t capacity) : allocator_(capacity) {}

OffsetAllocation DeferredOffsetAllocator::allocate(std::uint64_t size, std::uint64_t alignment) {
  return allocator_.allocate(size, alignment);
}

void DeferredOffsetAllocator::free(OffsetAllocation allocation, std::uint64_t frame) {
  if constexpr (kAssertsEnabled) {
    allocator_.check_handle(allocation);
  }
  const StaleRange entry{frame, allocation};
  if (stale_head_ == stale_.size() || stale_.back().frame <= frame) {
    stale_.push_back(entry);
  } else {
    // An earlier frame than the last one queued: keep the queue sorted (after equal frames, so
    // ties release in the order they were freed).
    const auto at = std::upper_bound(
        stale_.begin() + static_cast<std::ptrdiff_t>(stale_head_), stale_.end(), frame,
        [](std::uint64_t f, const StaleRange& range) { return f < range.frame; });
    stale_.insert(at, entry);
  }
  stale_size_ += allocation.size;
}

void DeferredOffsetAllocator::free_now(OffsetAllocation allocation) {
  allocator_.free(allocation);
}

void DeferredOffsetAllocator::release_completed_frames(std::uint64_t completed_frames) {
  while (stale_head_ < stale_.size() && stale_[stale_head_].frame < completed_frames) {
    const OffsetAllocation allocation = stale_[stale_head_].allocation;
    allocator_.free(allocation);
    stale_size_ -= allocation.size;
    ++stale_head_;
  }
  // Reclaim the released front without giving memory back: clear when empty, otherwise slide
  // the pending entries down once they are at most half the vector (amortised O(1) each).
  if (stale_head_ == stale_.size()) {
    stale_.clear();
    stale_head_ = 0;
  } else if (stale_head_ >= stale_.size() / 2) {
    stale_.erase(stale_.begin(), stale_.begin() + static_cast<std::ptrdiff_t>(stale_head_));
    stale_head_ = 0;
  }
}

}  // namespace quadpool::memory
