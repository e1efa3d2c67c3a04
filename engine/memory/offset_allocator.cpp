// OffsetAllocator (see offset_allocator.hpp): allocate, the two frees, extend, the queries and
// the nodes of the block list. Elsewhere: the best-fit searches (offset_allocator_search.cpp), the
// bins and their order (offset_allocator_bins.cpp), the messages of a bad free
// (offset_allocator_checks.cpp), validate() (offset_allocator_validate.cpp) and
// DeferredOffsetAllocator (deferred_offset_allocator.cpp).
//
// Sections: allocate and free, extend and queries, nodes and the block list.
#include "engine/memory/offset_allocator.hpp"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>

#include "engine/core/assert.hpp"
#include "engine/core/str_cat.hpp"
#include "engine/memory/detail/offset_bins.hpp"
#include "engine/memory/detail/offset_candidate.hpp"
#include "engine/memory/detail/offset_live_table.hpp"

namespace quadpool::memory {

using detail::bin_of;

namespace {

bool is_power_of_two(std::uint64_t x) noexcept {
  return x != 0 && (x & (x - 1)) == 0;
}

}  // namespace

OffsetAllocator::OffsetAllocator(std::uint64_t capacity) {
  if constexpr (kAssertsEnabled) {
    // Ids start at 1 (0 marks the empty handle of a failed allocation); a copy keeps its
    // original's id, since the same handles name the same ranges in both.
    static std::atomic<std::uint32_t> next_id{1};
    id_ = next_id.fetch_add(1, std::memory_order_relaxed);
  }
  // The aligned search's stack holds at most one treap path, and a bin's treap is rarely deeper
  // than a few dozen nodes: sized once here, it does not grow in a steady loop.
  walk_stack_.reserve(64);
  extend(capacity);
}

// --- allocate and free -------------------------------------------------------------------------

OffsetAllocation OffsetAllocator::allocate(std::uint64_t size, std::uint64_t alignment) {
  if (!is_power_of_two(alignment)) {
    throw std::invalid_argument(str_cat("OffsetAllocator::allocate: alignment ", alignment,
                                        " is not a power of two (valid: 1, 2, 4, ... 2^63)"));
  }
  if (size == 0) return {kNoSpace, 0};
  const Candidate fit = find_best_fit(size, alignment);
  if (!fit.found()) return {kNoSpace, 0};
  const std::uint32_t block = fit.node;
  const std::uint64_t padding = detail::padding_for(fit.offset, alignment);
  const std::uint64_t rest = fit.size - padding - size;
  const std::uint64_t aligned = fit.offset + padding;
  // The live slot, when there is a table, is written last; the search found the block's key in
  // its bin, so its load starts now, beside the node's rather than after it.
  if (has_live_table_) live_.prefetch(aligned);
  // Room for a padding or rest node (and the live entry) first, so that a std::bad_alloc leaves
  // the allocator as it was. The usual case, free nodes to reuse and room in the table, is
  // decided inline.
  if (nodes_.size() - live_count_ - free_block_count_ < 2 ||
      (has_live_table_ && !live_.has_room_for(live_count_ + 1)))
    reserve_for(2, live_count_ + 1);

  Node& found = nodes_[block];
  if (found.next != kNil) __builtin_prefetch(&nodes_[found.next]);
  bin_erase(block);
  // The block splits into padding (free), allocation (live) and rest (free). The found node
  // keeps the padding when there is some, else it becomes the allocation.
  std::uint32_t allocation = block;
  if (padding > 0) {
    found.size = padding;
    bin_insert(block);
    allocation = acquire_node(aligned, size);
    link_after(allocation, block);
  } else {
    found.size = size;
  }
  states_[allocation] = State::kLive;
  if (rest > 0) {
    const std::uint32_t rest_node = acquire_node(aligned + size, rest);
    link_after(rest_node, allocation);
    bin_insert(rest_node);
  }
  if (has_live_table_) live_.insert(aligned, allocation);
  ++live_count_;
  free_block_count_ += static_cast<std::size_t>(padding > 0) + static_cast<std::size_t>(rest > 0);
  --free_block_count_;
  free_size_ -= size;
  return {aligned, size, make_handle(allocation)};
}

OffsetAllocationHandle OffsetAllocator::make_handle(std::uint32_t node) noexcept {
  OffsetAllocationHandle handle;
  handle.node = node;
#if QUADPOOL_CONFIG_ASSERTS
  handle.generation = ++generations_[node];
  handle.allocator_id = id_;
#endif
  return handle;
}

void OffsetAllocator::free(const OffsetAllocation& allocation) {
  // The table's bucket (when there is one) and the node load side by side: the allocation
  // carries both the offset and the node.
  if (has_live_table_) live_.prefetch(allocation.offset);
  const std::uint32_t node = check_handle(allocation);
  if (node == kNil) [[unlikely]]
    return;  // only with asserts compiled out: a bad handle is ignored
  if (has_live_table_) {
    live_.erase_at(live_.find_slot(allocation.offset,
                                   [this](std::uint32_t n) { return nodes_[n].offset; }));
  }
  release_range(node);
}

std::uint32_t OffsetAllocator::check_handle(const OffsetAllocation& allocation) const {
  const std::uint32_t node = allocation.handle.node;
  // Without asserts, what costs nothing beyond the node's own load: the node exists, is live and
  // starts at the allocation's offset.
  bool valid = node < states_.size() && states_[node] == State::kLive &&
               nodes_[node].offset == allocation.offset;
#if QUADPOOL_CONFIG_ASSERTS
  valid = valid && allocation.handle.allocator_id == id_ &&
          allocation.handle.generation == generations_[node] &&
          nodes_[node].size == allocation.size;
  if (!valid) [[unlikely]]
    report_bad_handle(allocation);
#endif
  return valid ? node : kNil;
}

void OffsetAllocator::build_live_table() {
  live_.reserve(std::max(live_count_, nodes_.capacity() / 2));
  for (std::uint32_t i = first_; i != kNil; i = nodes_[i].next) {
    if (states_[i] == State::kLive) live_.insert(nodes_[i].offset, i);
  }
  has_live_table_ = true;
}

void OffsetAllocator::free(std::uint64_t offset, std::uint64_t size) {
  if (!has_live_table_) [[unlikely]]
    build_live_table();
  // The check's lookup, keeping the slot so that the erase needs no second probe.
  const std::size_t slot = live_.find_slot(offset, [this](std::uint32_t n) { return nodes_[n].offset; });
  const std::uint32_t node = slot == detail::OffsetLiveTable::kNoSlot ? kNil : live_.node_at(slot);
  if (node == kNil || nodes_[node].size != size) [[unlikely]] {
    if constexpr (kAssertsEnabled) report_bad_free(offset, size, node);
    return;  // only with asserts compiled out: a bad free is ignored
  }
  live_.erase_at(slot);
  release_range(node);
}

void OffsetAllocator::release_range(std::uint32_t node) noexcept {
  --live_count_;
  free_size_ += nodes_[node].size;
  ++free_block_count_;
  // A free neighbour's node is read below: start the second load before the first one's work.
  if (const std::uint32_t next = nodes_[node].next; next != kNil && is_free(next))
    __builtin_prefetch(&nodes_[next]);

  // Merge with the free blocks either side: the earlier node absorbs the later one.
  if (const std::uint32_t prev = nodes_[node].prev; prev != kNil && is_free(prev)) {
    bin_erase(prev);
    nodes_[prev].size += nodes_[node].size;
    unlink(node);
    release_node(node);
    node = prev;
    --free_block_count_;
  }
  if (const std::uint32_t next = nodes_[node].next; next != kNil && is_free(next)) {
    bin_erase(next);
    nodes_[node].size += nodes_[next].size;
    unlink(next);
    release_node(next);
    --free_block_count_;
  }
  bin_insert(node);
}

// --- extend and queries ------------------------------------------------------------------------

void OffsetAllocator::extend(std::uint64_t additional_bytes) {
  if (additional_bytes == 0) return;
  if (additional_bytes > std::numeric_limits<std::uint64_t>::max() - capacity_) {
    throw std::invalid_argument(str_cat("OffsetAllocator::extend: capacity ", capacity_, " + ",
                                        additional_bytes,
                                        " bytes passes the largest capacity, 2^64 - 1"));
  }
  // Every allocation step first, so that a std::bad_alloc changes nothing.
  bins_.resize(std::max<std::size_t>(bins_.size(), bin_of(capacity_ + additional_bytes) + 1));
  reserve_for(1, live_count_);
  if (last_ != kNil && is_free(last_)) {
    bin_erase(last_);
    nodes_[last_].size += additional_bytes;
    bin_insert(last_);
  } else {
    const std::uint32_t node = acquire_node(capacity_, additional_bytes);
    link_after(node, last_);
    bin_insert(node);
    ++free_block_count_;
  }
  capacity_ += additional_bytes;
  free_size_ += additional_bytes;
}

void OffsetAllocator::reserve(std::size_t live_ranges) {
  // Between and around n live ranges there are at most n + 1 free blocks.
  if (live_ranges >= kMaxNodes / 2) throw std::length_error("OffsetAllocator: over 2^32 - 1 blocks");
  nodes_.reserve(2 * live_ranges + 1);
  states_.reserve(2 * live_ranges + 1);
  if constexpr (kAssertsEnabled) generations_.reserve(2 * live_ranges + 1);
  if (has_live_table_) live_.reserve(live_ranges);
}

std::uint64_t OffsetAllocator::largest_free_block() const noexcept {
  const std::uint32_t bin = bin_bits_.last();
  if (bin == detail::OffsetBinBitmap::kNone) return 0;
  std::uint64_t largest = 0;
  const Bin& b = bins_[bin];
  if (b.has_inline != 0) largest = b.inline_size;
  // The treap's rightmost node is its largest (all of them lie above the inline entry).
  for (std::uint32_t node = bins_[bin].root; node != kNil; node = nodes_[node].child[1])
    largest = std::max(largest, nodes_[node].size);
  for (std::uint32_t node = bins_[bin].pending; node != kNil; node = nodes_[node].child[1])
    largest = std::max(largest, nodes_[node].size);
  return largest;
}

// --- nodes and the block list ------------------------------------------------------------------

void OffsetAllocator::reserve_for(std::size_t nodes, std::size_t live_ranges) {
  if (has_live_table_) live_.reserve(live_ranges);
  const std::size_t unused = nodes_.size() - live_count_ - free_block_count_;
  std::size_t capacity = std::min(nodes_.capacity(), states_.capacity());
  if constexpr (kAssertsEnabled) capacity = std::min(capacity, generations_.capacity());
  const std::size_t room = capacity - nodes_.size();
  if (room + unused >= nodes) return;
  // More than 2^32 - 1 blocks would need over 128 GB of nodes; say so rather than wrap.
  if (nodes_.size() + nodes >= kMaxNodes)
    throw std::length_error("OffsetAllocator: over 2^32 - 1 blocks");
  const std::size_t grown =
      std::max(nodes_.size() + nodes, std::max<std::size_t>(16, 2 * nodes_.size()));
  nodes_.reserve(grown);
  states_.reserve(grown);
  if constexpr (kAssertsEnabled) generations_.reserve(grown);
}

std::uint32_t OffsetAllocator::acquire_node(std::uint64_t offset, std::uint64_t size) noexcept {
  std::uint32_t index;
  if (unused_head_ != kNil) {
    index = unused_head_;
    unused_head_ = nodes_[index].next;
  } else {
    index = static_cast<std::uint32_t>(nodes_.size());
    nodes_.emplace_back();  // reserve_for made room in both: no allocation
    states_.push_back(State::kUnused);
    if constexpr (kAssertsEnabled) generations_.push_back(0);
  }
  nodes_[index] = {offset, size, kNil, kNil, {kNil, kNil}};
  return index;
}

void OffsetAllocator::release_node(std::uint32_t node) noexcept {
  states_[node] = State::kUnused;
  nodes_[node].next = unused_head_;
  unused_head_ = node;
}

void OffsetAllocator::link_after(std::uint32_t node, std::uint32_t prev) noexcept {
  const std::uint32_t next = prev == kNil ? first_ : nodes_[prev].next;
  nodes_[node].prev = prev;
  nodes_[node].next = next;
  (prev == kNil ? first_ : nodes_[prev].next) = node;
  (next == kNil ? last_ : nodes_[next].prev) = node;
}

void OffsetAllocator::unlink(std::uint32_t node) noexcept {
  const std::uint32_t prev = nodes_[node].prev;
  const std::uint32_t next = nodes_[node].next;
  (prev == kNil ? first_ : nodes_[prev].next) = next;
  (next == kNil ? last_ : nodes_[next].prev) = prev;
}

}  // namespace quadpool::memory
