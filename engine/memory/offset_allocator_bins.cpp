// OffsetAllocator's bins: each bin keeps its free blocks as an inline entry (its smallest
// sorted block), a pending list of blocks not yet ordered, and a treap of the other sorted ones.
// Blocks join and leave here; sort_bin orders a bin's pending blocks when a search needs it.
#include "engine/memory/offset_allocator.hpp"

#include <cstdint>
#include <limits>

#include "engine/core/assert.hpp"
#include "engine/memory/detail/offset_bins.hpp"
#include "engine/memory/detail/offset_candidate.hpp"

namespace quadpool::memory {

using detail::bin_of;

namespace {

// Whether a block of `size` bytes can be a bin's inline entry, whose size field has 32 bits.
// Bins of larger blocks keep every block in their treap or pending list.
bool fits_inline(std::uint64_t size) noexcept {
  return size <= std::numeric_limits<std::uint32_t>::max();
}

}  // namespace

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
  } else if (detail::key_less(n.size, n.offset, b.inline_size, b.inline_offset)) {
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

}  // namespace quadpool::memory
