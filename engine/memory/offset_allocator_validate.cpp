// OffsetAllocator::validate(): every invariant listed in offset_allocator.hpp, checked with
// QUADPOOL_ASSERT. A tool for tests and debugging, kept apart from the allocator's operations.
#include "engine/memory/offset_allocator.hpp"

#include <cstdint>
#include <limits>
#include <vector>

#include "engine/core/assert.hpp"
#include "engine/core/str_cat.hpp"

namespace quadpool::memory {

using detail::bin_of;

void OffsetAllocator::validate() const {
  if constexpr (!kAssertsEnabled) return;
  // 1: listed in the block list, 2: also found in a bin.
  std::vector<std::uint8_t> seen(nodes_.size(), 0);
  validate_block_list(seen);
  validate_bins(seen);
}

void OffsetAllocator::validate_block_list(std::vector<std::uint8_t>& seen) const {
  const std::size_t node_count = nodes_.size();
  // The block list: tiles [0, capacity), no two free blocks side by side; sums match.
  std::size_t free_blocks = 0, live_blocks = 0;
  std::uint64_t cursor = 0, free_bytes = 0;
  std::uint32_t prev = kNil;
  bool prev_free = false;
  for (std::uint32_t i = first_; i != kNil; prev = i, i = nodes_[i].next) {
    QUADPOOL_ASSERT(i < node_count && seen[i] == 0,
                    "OffsetAllocator::validate: the block list is broken or cyclic");
    seen[i] = 1;
    const Node& block = nodes_[i];
    QUADPOOL_ASSERT(block.prev == prev, "OffsetAllocator::validate: a prev link is wrong");
    QUADPOOL_ASSERT(block.offset == cursor && block.size > 0 && block.size <= capacity_ - cursor,
                    str_cat("OffsetAllocator::validate: block [", block.offset, ", +", block.size,
                            ") does not follow the previous one at ", cursor,
                            " inside the capacity ", capacity_));
    QUADPOOL_ASSERT(states_[i] != State::kUnused,
                    "OffsetAllocator::validate: an unused node is in the block list");
    const bool free = is_free(i);
    QUADPOOL_ASSERT(!(free && prev_free),
                    str_cat("OffsetAllocator::validate: free blocks touch at offset ", block.offset,
                            " but were not merged"));
    if (free) {
      ++free_blocks;
      free_bytes += block.size;
    } else {
      ++live_blocks;
      QUADPOOL_ASSERT(!has_live_table_ || find_live(block.offset) == i,
                      str_cat("OffsetAllocator::validate: the live range at ", block.offset,
                              " is not in the live table"));
    }
    prev_free = free;
    cursor += block.size;
  }
  QUADPOOL_ASSERT(prev == last_ && cursor == capacity_,
                  "OffsetAllocator::validate: the blocks do not end at the capacity");
  QUADPOOL_ASSERT(
      free_blocks == free_block_count_ && free_bytes == free_size_,
      str_cat("OffsetAllocator::validate: ", free_blocks, " free blocks of ", free_bytes,
              " bytes, the counts say ", free_block_count_, " and ", free_size_));
  QUADPOOL_ASSERT(live_blocks == live_count_,
                  "OffsetAllocator::validate: the count of live ranges is wrong");
  QUADPOOL_ASSERT(!has_live_table_ || live_blocks == live_.size(),
                  "OffsetAllocator::validate: the live table holds ranges that are not blocks");
  QUADPOOL_ASSERT(!has_live_table_ || live_.overflow_counts_agree(),
                  "OffsetAllocator::validate: the live table's overflow counts are wrong");

  // Every other node is unused.
  std::size_t unused = 0;
  for (std::uint32_t i = unused_head_; i != kNil; i = nodes_[i].next) {
    QUADPOOL_ASSERT(i < node_count && seen[i] == 0 && states_[i] == State::kUnused &&
                        unused < node_count,
                    "OffsetAllocator::validate: the unused-node list is broken");
    ++unused;
  }
  QUADPOOL_ASSERT(unused + free_blocks + live_blocks == node_count,
                  "OffsetAllocator::validate: nodes lost (neither blocks nor unused)");
}

void OffsetAllocator::validate_bins(std::vector<std::uint8_t>& seen) const {
  const std::size_t node_count = nodes_.size();
  // The bins: each set bit's pending list and treap hold free blocks of its bin, the treap in
  // order and heap-ordered, and together they hold every free block once. A bin with blocks but
  // no bit would leave them uncounted.
  QUADPOOL_ASSERT(bin_bits_.levels_agree(),
                  "OffsetAllocator::validate: the bin bitmap levels differ");
  std::size_t in_bins = 0;
  for (std::uint32_t bin = bin_bits_.first_at_or_after(0); bin != detail::OffsetBinBitmap::kNone;
       bin = bin_bits_.first_at_or_after(bin + 1)) {
    QUADPOOL_ASSERT(bin < bins_.size(), "OffsetAllocator::validate: a bin past the capacity");
    const Bin& b = bins_[bin];
    std::size_t pending = 0;
    for (std::uint32_t i = b.pending; i != kNil && pending <= node_count; i = nodes_[i].child[1])
      ++pending;
    QUADPOOL_ASSERT(pending == b.pending_count,
                    str_cat("OffsetAllocator::validate: bin ", bin, " counts ", b.pending_count,
                            " pending blocks, its list holds ", pending));
    QUADPOOL_ASSERT(!b.empty(),
                    str_cat("OffsetAllocator::validate: bin ", bin, " is marked but empty"));
    if (b.has_inline != 0) {
      const std::uint32_t i = b.inline_node;
      QUADPOOL_ASSERT(b.has_inline == 1 && i < node_count && seen[i] == 1 &&
                          states_[i] == State::kInline && nodes_[i].offset == b.inline_offset &&
                          nodes_[i].size == b.inline_size && bin_of(nodes_[i].size) == bin,
                      str_cat("OffsetAllocator::validate: the inline entry of bin ", bin,
                              " does not match a free block of the bin, or is there twice"));
      seen[i] = 2;
      ++in_bins;
    } else {
      // Only bins of blocks too large for an entry keep a treap without one.
      QUADPOOL_ASSERT(
          b.root == kNil || bin >= bin_of(std::uint64_t{1} << 32),
          str_cat("OffsetAllocator::validate: bin ", bin, " has a treap but no inline entry"));
    }
    std::uint32_t before = kNil;
    for (std::uint32_t i = b.pending; i != kNil; before = i, i = nodes_[i].child[1]) {
      QUADPOOL_ASSERT(
          i < node_count && seen[i] == 1 && states_[i] == State::kPending &&
              nodes_[i].child[0] == before && bin_of(nodes_[i].size) == bin,
          str_cat("OffsetAllocator::validate: the pending list of bin ", bin, " is broken"));
      seen[i] = 2;
      ++in_bins;
    }
    // The whole treap lies above the inline entry.
    in_bins += validate_subtree(bin, b.root, b.has_inline != 0 ? b.inline_node : kNil, kNil,
                                std::numeric_limits<std::uint32_t>::max(), seen);
  }
  QUADPOOL_ASSERT(in_bins == free_block_count_,
                  str_cat("OffsetAllocator::validate: the bins hold ", in_bins, " blocks, not ",
                          free_block_count_));
}

std::size_t OffsetAllocator::validate_subtree(std::uint32_t bin, std::uint32_t node,
                                              std::uint32_t low, std::uint32_t high,
                                              std::uint32_t parent_priority,
                                              std::vector<std::uint8_t>& seen) const {
  if (node == kNil) return 0;
  QUADPOOL_ASSERT(node < nodes_.size() && seen[node] == 1 && states_[node] == State::kSorted,
                  str_cat("OffsetAllocator::validate: bin ", bin,
                          " holds a node that is not a free block, or holds one twice"));
  seen[node] = 2;
  QUADPOOL_ASSERT(bin_of(nodes_[node].size) == bin,
                  str_cat("OffsetAllocator::validate: a block of ", nodes_[node].size,
                          " bytes is in bin ", bin));
  // Bounds from every ancestor, not only the parent: that is what makes the whole tree ordered.
  QUADPOOL_ASSERT((low == kNil || less(low, node)) && (high == kNil || less(node, high)),
                  str_cat("OffsetAllocator::validate: bin ", bin, " is out of order"));
  const std::uint32_t node_priority = priority(node);
  QUADPOOL_ASSERT(node_priority <= parent_priority,
                  str_cat("OffsetAllocator::validate: bin ", bin, " breaks the heap order"));
  const Node& n = nodes_[node];
  return 1 + validate_subtree(bin, n.child[0], low, node, node_priority, seen) +
         validate_subtree(bin, n.child[1], node, high, node_priority, seen);
}

}  // namespace quadpool::memory
