// OffsetAllocator and DeferredOffsetAllocator (see offset_allocator.hpp).
//
// Sections: helpers, allocate and free, extend and queries, nodes and the block list, bins
// (pending lists and treaps), DeferredOffsetAllocator. validate() is in
// offset_allocator_validate.cpp.
#include "engine/memory/offset_allocator.hpp"

#include <algorithm>
#include <atomic>
#include <limits>
#include <stdexcept>
#include <string>

#include "engine/core/assert.hpp"
#include "engine/core/str_cat.hpp"

namespace quadpool::memory {

using detail::bin_of;

// --- helpers -----------------------------------------------------------------------------------
namespace {

bool is_power_of_two(std::uint64_t x) noexcept {
  return x != 0 && (x & (x - 1)) == 0;
}

// Whether a block of `size` bytes can be a bin's inline entry, whose size field has 32 bits.
// Bins of larger blocks keep every block in their treap or pending list.
bool fits_inline(std::uint64_t size) noexcept {
  return size <= std::numeric_limits<std::uint32_t>::max();
}

// Bytes from `offset` up to the next multiple of `alignment`. Never overflows, unlike rounding
// offset + alignment - 1 down.
std::uint64_t padding_for(std::uint64_t offset, std::uint64_t alignment) noexcept {
  const std::uint64_t misalignment = offset & (alignment - 1);
  return misalignment == 0 ? 0 : alignment - misalignment;
}

// The (size, offset) order of free blocks, on keys read from a bin's inline entry or a node.
// Bitwise, not short-circuit: the search compares blocks in an order no predictor can learn, and
// selects the winner with conditional moves rather than branches.
bool key_less(std::uint64_t size_a, std::uint64_t offset_a, std::uint64_t size_b,
              std::uint64_t offset_b) noexcept {
  return (size_a < size_b) | ((size_a == size_b) & (offset_a < offset_b));
}

}  // namespace

// The best candidate of a search so far: its node and its key. It starts past every block, so
// that any eligible block beats it.
struct OffsetAllocator::Candidate {
  std::uint32_t node = kNil;
  std::uint64_t size = ~std::uint64_t{0};
  std::uint64_t offset = ~std::uint64_t{0};

  bool found() const noexcept { return node != kNil; }
  // Takes the block when it is `eligible` and comes first in (size, offset) order.
  void consider(bool eligible, std::uint32_t other, std::uint64_t other_size,
                std::uint64_t other_offset) noexcept {
    const bool take = eligible & key_less(other_size, other_offset, size, offset);
    node = take ? other : node;
    size = take ? other_size : size;
    offset = take ? other_offset : offset;
  }
};

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
  const std::uint64_t padding = padding_for(fit.offset, alignment);
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

inline OffsetAllocator::Candidate OffsetAllocator::first_in_bin(std::uint32_t bin,
                                                                std::uint64_t size) noexcept {
  // Most searches end at the inline entry: it is smaller than every block in the treap, so when
  // it is big enough and nothing is pending, nothing else in the bin can beat it. Decided here,
  // inline, without a call and without loading a node.
  const Bin& b = bins_[bin];
  Candidate best;
  best.consider((b.has_inline != 0) & (b.inline_size >= size), b.inline_node, b.inline_size,
                b.inline_offset);
  if ((b.pending == kNil) & (best.found() | (b.root == kNil))) [[likely]]
    return best;
  return first_beyond_inline(bin, size);
}

OffsetAllocator::Candidate OffsetAllocator::first_beyond_inline(std::uint32_t bin,
                                                               std::uint64_t size) noexcept {
  Bin& b = bins_[bin];
  // A few pending blocks are cheaper to scan than to sort; more go into the order first (which
  // may change the inline entry).
  if (b.pending_count > kScanLimit) sort_bin(bin);
  Candidate best;
  best.consider((b.has_inline != 0) & (b.inline_size >= size), b.inline_node, b.inline_size,
                b.inline_offset);
  // Every treap key is above the inline entry's: the treap matters only when that entry is
  // missing or too small.
  if (!best.found()) {
    std::uint32_t in_treap = kNil;
    for (std::uint32_t node = b.root; node != kNil;) {
      const bool fits = nodes_[node].size >= size;
      if (fits) in_treap = node;
      node = nodes_[node].child[fits ? 0 : 1];
    }
    if (in_treap != kNil)
      best.consider(true, in_treap, nodes_[in_treap].size, nodes_[in_treap].offset);
  }
  for (std::uint32_t node = b.pending; node != kNil; node = nodes_[node].child[1]) {
    const Node& n = nodes_[node];
    best.consider(n.size >= size, node, n.size, n.offset);
  }
  return best;
}

OffsetAllocator::Candidate OffsetAllocator::find_best_fit(std::uint64_t size,
                                                         std::uint64_t alignment) {
  if (alignment > 1) return find_aligned_fit(size, alignment);
  // Every block of at least `size` bytes holds an unaligned request: the first in (size, offset)
  // order is the best fit. Its own bin holds sizes on both sides of `size`; every later bin
  // holds only larger ones, so there the first block of the first non-empty bin wins.
  // The bin is read without testing its bit first: the line is needed whenever the bit is set,
  // and one branch on the result is mispredicted less often than two.
  std::uint32_t bin = bin_of(size);
  if (bin >= bins_.size()) return {};  // larger than the capacity: there is no such bin
  if (const Candidate found = first_in_bin(bin, size); found.found()) return found;
  bin = bin_bits_.first_at_or_after(bin + 1);
  return bin == detail::OffsetBinBitmap::kNone ? Candidate{} : first_in_bin(bin, 0);
}

OffsetAllocator::Candidate OffsetAllocator::find_aligned_fit(std::uint64_t size,
                                                            std::uint64_t alignment) {
  // The padding in front of the aligned offset may make a big-enough block too small: walk the
  // (size, offset) order, bin after bin, to the first block that holds the request. The walk
  // inside a bin is in-order with an explicit stack of the nodes still to visit (ancestors
  // entered from the left, deepest last), so each step costs O(1) amortised.
  std::vector<std::uint32_t>& pending = walk_stack_;
  for (std::uint32_t bin = bin_bits_.first_at_or_after(bin_of(size));
       bin != detail::OffsetBinBitmap::kNone; bin = bin_bits_.first_at_or_after(bin + 1)) {
    sort_bin(bin);
    // The inline entry's fit; every treap block comes after it, so the walk below stops at once
    // when it fits.
    const Bin& b = bins_[bin];
    Candidate best;
    if (b.has_inline != 0) {
      const std::uint64_t padding = padding_for(b.inline_offset, alignment);
      best.consider(padding <= b.inline_size && b.inline_size - padding >= size, b.inline_node,
                    b.inline_size, b.inline_offset);
    }
    pending.clear();
    for (std::uint32_t node = bins_[bin].root; node != kNil;) {
      if (nodes_[node].size >= size) {
        pending.push_back(node);
        node = nodes_[node].child[0];
      } else {
        node = nodes_[node].child[1];
      }
    }
    while (!pending.empty()) {
      const std::uint32_t candidate = pending.back();
      pending.pop_back();
      const Node& block = nodes_[candidate];
      if (best.found() && key_less(best.size, best.offset, block.size, block.offset)) break;
      const std::uint64_t padding = padding_for(block.offset, alignment);
      if (padding <= block.size && block.size - padding >= size)
        return {candidate, block.size, block.offset};
      for (std::uint32_t node = block.child[1]; node != kNil; node = nodes_[node].child[0]) {
        pending.push_back(node);
      }
    }
    if (best.found()) return best;
  }
  return {};
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

// --- bins -------------------------------------------------------------------------------------
// A bin's sorted blocks form a treap: in (size, offset) order left to right, and each node's
// priority is at least its children's. Insert and erase are the iterative split and merge forms;
// every key is unique, since offsets are.

bool OffsetAllocator::less(std::uint32_t a, std::uint32_t b) const noexcept {
  const Node& x = nodes_[a];
  const Node& y = nodes_[b];
  return x.size < y.size || (x.size == y.size && x.offset < y.offset);
}

void OffsetAllocator::set_inline(Bin& b, std::uint32_t node) noexcept {
  b.inline_offset = nodes_[node].offset;
  b.inline_size = static_cast<std::uint32_t>(nodes_[node].size);
  b.inline_node = node;
  b.has_inline = 1;
  states_[node] = State::kInline;
}

void OffsetAllocator::add_sorted(std::uint32_t bin, std::uint32_t node) noexcept {
  Bin& b = bins_[bin];
  const Node& n = nodes_[node];
  if (b.has_inline == 0) {
    // No inline entry: the bin's sizes do not fit one (2^32 bytes or more), or its order is
    // empty and `node` starts it.
    if (b.root == kNil && fits_inline(n.size)) {
      set_inline(b, node);
    } else {
      treap_insert(bin, node);
    }
  } else if (key_less(n.size, n.offset, b.inline_size, b.inline_offset)) {
    // The new smallest block: the inline entry's block moves into the treap, below every key
    // there.
    treap_insert(bin, b.inline_node);
    set_inline(b, node);
  } else {
    treap_insert(bin, node);
  }
}

void OffsetAllocator::bin_insert(std::uint32_t node) noexcept {
  Node& n = nodes_[node];
  const std::uint32_t bin = bin_of(n.size);
  Bin& b = bins_[bin];
  if (b.empty()) bin_bits_.set(bin);
  // A bin without an inline entry has an empty treap (whose keys must all come after the
  // entry's), so the block can take the entry; it is not ordered against the pending blocks.
  if (b.has_inline == 0 && fits_inline(n.size)) {
    set_inline(b, node);
    return;
  }
  states_[node] = State::kPending;
  n.child[0] = kNil;
  n.child[1] = b.pending;
  if (b.pending != kNil) nodes_[b.pending].child[0] = node;
  b.pending = node;
  ++b.pending_count;
}

void OffsetAllocator::bin_erase(std::uint32_t node) noexcept {
  const std::uint32_t bin = bin_of(nodes_[node].size);
  Bin& b = bins_[bin];
  const Node& n = nodes_[node];
  if (states_[node] == State::kInline) {
    // The treap's smallest block takes its place: a walk down the left edge, which nothing later
    // in the caller waits for.
    if (b.root != kNil) {
      std::uint32_t* link = &b.root;
      while (nodes_[*link].child[0] != kNil) link = &nodes_[*link].child[0];
      const std::uint32_t smallest = *link;
      *link = nodes_[smallest].child[1];
      set_inline(b, smallest);
    } else {
      b.has_inline = 0;
    }
  } else if (states_[node] == State::kPending) {
    (n.child[0] == kNil ? b.pending : nodes_[n.child[0]].child[1]) = n.child[1];
    if (n.child[1] != kNil) nodes_[n.child[1]].child[0] = n.child[0];
    --b.pending_count;
  } else {
    treap_erase(bin, node);
  }
  if (b.empty()) bin_bits_.clear(bin);
}

void OffsetAllocator::sort_bin(std::uint32_t bin) noexcept {
  Bin& b = bins_[bin];
  while (b.pending != kNil) {
    const std::uint32_t node = b.pending;
    b.pending = nodes_[node].child[1];
    add_sorted(bin, node);
  }
  b.pending_count = 0;
}

void OffsetAllocator::treap_insert(std::uint32_t bin, std::uint32_t node) noexcept {
  states_[node] = State::kSorted;
  std::uint32_t* link = &bins_[bin].root;
  const std::uint32_t node_priority = priority(node);
  while (*link != kNil && priority(*link) > node_priority) {
    link = &nodes_[*link].child[less(node, *link) ? 0 : 1];
  }
  // `node` takes the place of the subtree at *link, which splits into the keys below it (its
  // left subtree) and above it (its right subtree).
  std::uint32_t subtree = *link;
  std::uint32_t* below = &nodes_[node].child[0];
  std::uint32_t* above = &nodes_[node].child[1];
  while (subtree != kNil) {
    if (less(subtree, node)) {
      *below = subtree;
      below = &nodes_[subtree].child[1];
      subtree = *below;
    } else {
      *above = subtree;
      above = &nodes_[subtree].child[0];
      subtree = *above;
    }
  }
  *below = kNil;
  *above = kNil;
  *link = node;
}

void OffsetAllocator::treap_erase(std::uint32_t bin, std::uint32_t node) noexcept {
  std::uint32_t* link = &bins_[bin].root;
  while (*link != node) {
    QUADPOOL_ASSERT(*link != kNil,
                    "OffsetAllocator: internal error, a free block is missing from its bin "
                    "(memory corruption?)");
    link = &nodes_[*link].child[less(node, *link) ? 0 : 1];
  }
  // Merge the two subtrees of `node` into its place, higher priority on top.
  std::uint32_t left = nodes_[node].child[0];
  std::uint32_t right = nodes_[node].child[1];
  while (left != kNil && right != kNil) {
    if (priority(left) > priority(right)) {
      *link = left;
      link = &nodes_[left].child[1];
      left = *link;
    } else {
      *link = right;
      link = &nodes_[right].child[0];
      right = *link;
    }
  }
  *link = left != kNil ? left : right;
}

// --- DeferredOffsetAllocator -------------------------------------------------------------------

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
