// The previous OffsetAllocator, kept as a benchmark baseline (see baseline_offset_allocator.hpp).
//
// Sections: helpers, allocate and free, extend and queries, node array and offset list, treaps.
#include "bench/baseline_offset_allocator.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "engine/core/assert.hpp"

namespace quadpool::bench::baseline {

// --- helpers -----------------------------------------------------------------------------------
namespace {

bool is_power_of_two(std::uint64_t x) noexcept {
  return x != 0 && (x & (x - 1)) == 0;
}

// Bytes from `offset` up to the next multiple of `alignment`. Never overflows, unlike rounding
// offset + alignment - 1 down.
std::uint64_t padding_for(std::uint64_t offset, std::uint64_t alignment) noexcept {
  const std::uint64_t misalignment = offset & (alignment - 1);
  return misalignment == 0 ? 0 : alignment - misalignment;
}

}  // namespace

OffsetAllocator::OffsetAllocator(std::uint64_t capacity) {
  extend(capacity);
}

// --- allocate and free -------------------------------------------------------------------------

OffsetAllocation OffsetAllocator::allocate(std::uint64_t size, std::uint64_t alignment) {
  if (!is_power_of_two(alignment)) {
    throw std::invalid_argument(fmt::format(
        "OffsetAllocator::allocate: alignment {} is not a power of two (valid: 1, 2, 4, ... 2^63)",
        alignment));
  }
  if (size == 0) return {kNoSpace, 0};
  const std::uint32_t block = find_best_fit(size, alignment);
  if (block == kNil) return {kNoSpace, 0};

  const std::uint64_t block_offset = nodes_[block].offset;
  const std::uint64_t padding = padding_for(block_offset, alignment);
  const std::uint64_t rest = nodes_[block].size - padding - size;
  const std::uint64_t aligned = block_offset + padding;

  if (padding > 0 && rest > 0) {
    // The block splits into padding, allocation and rest: the rest needs a node of its own.
    // Added first, so that a std::bad_alloc leaves the allocator as it was.
    insert_block(aligned + size, rest, {block, list_[block].next});
    resize_block(block, padding);
  } else if (padding > 0) {
    resize_block(block, padding);
  } else if (rest > 0) {
    // The block keeps its place in offset order (nothing lies between it and its neighbours),
    // so only its size key moves.
    tree_erase(kBySize, block);
    nodes_[block].offset = aligned + size;
    nodes_[block].size = rest;
    tree_insert(kBySize, block);
  } else {
    remove_block(block);
  }
  free_size_ -= size;
  return {aligned, size};
}

void OffsetAllocator::free(std::uint64_t offset, std::uint64_t size) {
  const Neighbours around = neighbours_of(offset);
  if constexpr (kAssertsEnabled) check_free(offset, size, around);

  const std::uint32_t prev = around.prev;
  const std::uint32_t next = around.next;
  const bool merges_prev = prev != kNil && nodes_[prev].offset + nodes_[prev].size == offset;
  const bool merges_next = next != kNil && offset + size == nodes_[next].offset;
  if (merges_prev && merges_next) {
    // prev swallows the range and next; next's node goes back to the unused list.
    const std::uint64_t merged = nodes_[prev].size + size + nodes_[next].size;
    remove_block(next);
    resize_block(prev, merged);
  } else if (merges_prev) {
    resize_block(prev, nodes_[prev].size + size);
  } else if (merges_next) {
    // next starts earlier but stays between the same neighbours: its offset key changes in
    // place, only its size key moves.
    tree_erase(kBySize, next);
    nodes_[next].offset = offset;
    nodes_[next].size += size;
    tree_insert(kBySize, next);
  } else {
    insert_block(offset, size, around);
  }
  free_size_ += size;
}

void OffsetAllocator::check_free(std::uint64_t offset, std::uint64_t size,
                                 Neighbours around) const {
  QUADPOOL_ASSERT(size != 0, fmt::format("OffsetAllocator::free(offset {}, size 0): size 0; free "
                                         "takes the exact offset and size that allocate returned",
                                         offset));
  QUADPOOL_ASSERT(offset != kNoSpace,
                  "OffsetAllocator::free: offset is kNoSpace, the result of a failed allocate");
  QUADPOOL_ASSERT(offset <= capacity_ && size <= capacity_ - offset,
                  fmt::format("OffsetAllocator::free(offset {}, size {}): the range lies outside "
                              "the capacity [0, {})",
                              offset, size, capacity_));
  // Free blocks are disjoint and sorted, so only the two around `offset` can overlap the range.
  for (const std::uint32_t block : {around.prev, around.next}) {
    if (block == kNil) continue;
    const std::uint64_t block_end = nodes_[block].offset + nodes_[block].size;
    QUADPOOL_ASSERT(block_end <= offset || offset + size <= nodes_[block].offset,
                    fmt::format("OffsetAllocator::free(offset {}, size {}): double free, the range "
                                "overlaps the free block [{}, {})",
                                offset, size, nodes_[block].offset, block_end));
  }
}

// --- extend and queries ------------------------------------------------------------------------

void OffsetAllocator::extend(std::uint64_t additional_bytes) {
  if (additional_bytes == 0) return;
  if (additional_bytes > std::numeric_limits<std::uint64_t>::max() - capacity_) {
    throw std::invalid_argument(fmt::format(
        "OffsetAllocator::extend: capacity {} + {} bytes passes the largest capacity, 2^64 - 1",
        capacity_, additional_bytes));
  }
  if (last_ != kNil && nodes_[last_].offset + nodes_[last_].size == capacity_) {
    resize_block(last_, nodes_[last_].size + additional_bytes);
  } else {
    insert_block(capacity_, additional_bytes, {last_, kNil});
  }
  capacity_ += additional_bytes;
  free_size_ += additional_bytes;
}

void OffsetAllocator::reserve_free_blocks(std::size_t count) {
  nodes_.reserve(count);
  list_.reserve(count);
}

std::uint64_t OffsetAllocator::largest_free_block() const noexcept {
  std::uint32_t node = roots_[kBySize];
  if (node == kNil) return 0;
  while (nodes_[node].child[kBySize][1] != kNil) node = nodes_[node].child[kBySize][1];
  return nodes_[node].size;
}

template <class Predicate>
std::uint32_t OffsetAllocator::first_where(Tree tree, Predicate at_or_after) const noexcept {
  std::uint32_t found = kNil;
  for (std::uint32_t node = roots_[tree]; node != kNil;) {
    const bool go_left = at_or_after(nodes_[node]);
    if (go_left) found = node;
    node = nodes_[node].child[tree][go_left ? 0 : 1];
  }
  return found;
}

std::uint32_t OffsetAllocator::find_best_fit(std::uint64_t size, std::uint64_t alignment) {
  // Every block of at least `size` bytes holds an unaligned request: the first in (size, offset)
  // order is the best fit, lowest offset on a tie.
  if (alignment == 1) {
    return first_where(kBySize, [size](const Node& block) { return block.size >= size; });
  }
  // With padding, walk the size order from there until a block holds the request; the first
  // that does is the best fit, by the same order. The walk is in-order with an explicit stack
  // of the nodes still to visit (ancestors entered from the left, deepest last), so each step
  // costs O(1) amortised rather than a fresh descent.
  std::vector<std::uint32_t>& pending = walk_stack_;
  pending.clear();
  for (std::uint32_t node = roots_[kBySize]; node != kNil;) {
    if (nodes_[node].size >= size) {
      pending.push_back(node);
      node = nodes_[node].child[kBySize][0];
    } else {
      node = nodes_[node].child[kBySize][1];
    }
  }
  while (!pending.empty()) {
    const std::uint32_t candidate = pending.back();
    pending.pop_back();
    const Node& block = nodes_[candidate];
    const std::uint64_t padding = padding_for(block.offset, alignment);
    if (padding <= block.size && block.size - padding >= size) return candidate;
    // Next in order: the leftmost node of the right subtree, remembering the path down.
    for (std::uint32_t node = block.child[kBySize][1]; node != kNil;
         node = nodes_[node].child[kBySize][0]) {
      pending.push_back(node);
    }
  }
  return kNil;
}

OffsetAllocator::Neighbours OffsetAllocator::neighbours_of(std::uint64_t offset) const noexcept {
  const std::uint32_t next =
      first_where(kByOffset, [offset](const Node& block) { return block.offset >= offset; });
  return {next == kNil ? last_ : list_[next].prev, next};
}

// --- node array and offset list ----------------------------------------------------------------

std::uint32_t OffsetAllocator::acquire_node(std::uint64_t offset, std::uint64_t size) {
  std::uint32_t index;
  if (unused_head_ != kNil) {
    index = unused_head_;
    unused_head_ = list_[index].next;
  } else {
    // More than 2^32 - 1 free blocks would need over 150 GB of nodes; say so rather than wrap.
    if (nodes_.size() >= kNil)
      throw std::length_error("OffsetAllocator: over 2^32 - 1 free blocks");
    if (nodes_.size() == nodes_.capacity() || list_.size() == list_.capacity()) {
      // Grow both arrays before adding to either, so that a std::bad_alloc changes nothing.
      const std::size_t grown = std::max<std::size_t>(16, nodes_.size() * 2);
      nodes_.reserve(grown);
      list_.reserve(grown);
    }
    index = static_cast<std::uint32_t>(nodes_.size());
    nodes_.emplace_back();
    list_.emplace_back();
  }
  Node& node = nodes_[index];
  node.offset = offset;
  node.size = size;
  node.child[0][0] = node.child[0][1] = node.child[1][0] = node.child[1][1] = kNil;
  list_[index] = {kNil, kNil};
  return index;
}

void OffsetAllocator::release_node(std::uint32_t node) noexcept {
  list_[node].next = unused_head_;
  unused_head_ = node;
}

std::uint32_t OffsetAllocator::insert_block(std::uint64_t offset, std::uint64_t size,
                                            Neighbours around) {
  const std::uint32_t node = acquire_node(offset, size);  // the only step that can throw
  tree_insert(kByOffset, node);
  tree_insert(kBySize, node);
  list_insert(node, around.prev, around.next);
  ++free_block_count_;
  return node;
}

void OffsetAllocator::remove_block(std::uint32_t node) noexcept {
  tree_erase(kBySize, node);
  tree_erase(kByOffset, node);
  list_unlink(node);
  release_node(node);
  --free_block_count_;
}

void OffsetAllocator::list_insert(std::uint32_t node, std::uint32_t prev,
                                  std::uint32_t next) noexcept {
  list_[node] = {prev, next};
  (prev == kNil ? first_ : list_[prev].next) = node;
  (next == kNil ? last_ : list_[next].prev) = node;
}

void OffsetAllocator::list_unlink(std::uint32_t node) noexcept {
  const std::uint32_t prev = list_[node].prev;
  const std::uint32_t next = list_[node].next;
  (prev == kNil ? first_ : list_[prev].next) = next;
  (next == kNil ? last_ : list_[next].prev) = prev;
}

// --- treaps ------------------------------------------------------------------------------------
// Both trees are treaps: in key order left to right, and each node's priority is at least its
// children's. Insert and erase are the iterative split and merge forms; every key is unique
// (offsets because blocks do not overlap, (size, offset) pairs because offsets are unique).

bool OffsetAllocator::less(Tree tree, std::uint32_t a, std::uint32_t b) const noexcept {
  const Node& x = nodes_[a];
  const Node& y = nodes_[b];
  if (tree == kByOffset) return x.offset < y.offset;
  return x.size < y.size || (x.size == y.size && x.offset < y.offset);
}

void OffsetAllocator::tree_insert(Tree tree, std::uint32_t node) noexcept {
  std::uint32_t* link = &roots_[tree];
  const std::uint32_t node_priority = priority(node);
  while (*link != kNil && priority(*link) > node_priority) {
    link = &nodes_[*link].child[tree][less(tree, node, *link) ? 0 : 1];
  }
  // `node` takes the place of the subtree at *link, which splits into the keys below it (its
  // left subtree) and above it (its right subtree).
  std::uint32_t subtree = *link;
  std::uint32_t* below = &nodes_[node].child[tree][0];
  std::uint32_t* above = &nodes_[node].child[tree][1];
  while (subtree != kNil) {
    if (less(tree, subtree, node)) {
      *below = subtree;
      below = &nodes_[subtree].child[tree][1];
      subtree = *below;
    } else {
      *above = subtree;
      above = &nodes_[subtree].child[tree][0];
      subtree = *above;
    }
  }
  *below = kNil;
  *above = kNil;
  *link = node;
}

void OffsetAllocator::tree_erase(Tree tree, std::uint32_t node) noexcept {
  std::uint32_t* link = &roots_[tree];
  while (*link != node) {
    QUADPOOL_ASSERT(*link != kNil,
                    "OffsetAllocator: internal error, a free block is missing "
                    "from a tree (memory corruption?)");
    link = &nodes_[*link].child[tree][less(tree, node, *link) ? 0 : 1];
  }
  // Merge the two subtrees of `node` into its place, higher priority on top.
  std::uint32_t left = nodes_[node].child[tree][0];
  std::uint32_t right = nodes_[node].child[tree][1];
  while (left != kNil && right != kNil) {
    if (priority(left) > priority(right)) {
      *link = left;
      link = &nodes_[left].child[tree][1];
      left = *link;
    } else {
      *link = right;
      link = &nodes_[right].child[tree][0];
      right = *link;
    }
  }
  *link = left != kNil ? left : right;
}

void OffsetAllocator::resize_block(std::uint32_t node, std::uint64_t new_size) noexcept {
  tree_erase(kBySize, node);
  nodes_[node].size = new_size;
  tree_insert(kBySize, node);
}

}  // namespace quadpool::bench::baseline
