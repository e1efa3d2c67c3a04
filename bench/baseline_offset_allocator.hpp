#pragma once
// The offset allocator as it was before its size-class rewrite: best fit on two treaps (by
// offset, by (size, offset)) over one flat node array, kept verbatim so that
// offset_allocator_bench.cpp measures the rewrite against it in the same process. Benchmark
// code only: DeferredOffsetAllocator and validate() were dropped; the algorithm, its data layout
// and its asserts were not touched.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/memory/offset_allocator.hpp"  // kNoSpace, OffsetAllocation

namespace quadpool::bench::baseline {

using memory::kNoSpace;
using memory::OffsetAllocation;

class OffsetAllocator {
 public:
  /// An allocator whose whole `capacity` (may be 0) is one free block at offset 0.
  explicit OffsetAllocator(std::uint64_t capacity);

  /// Best fit: the smallest free block that can hold `size` bytes starting at a multiple of
  /// `alignment`; among blocks of that size, the lowest offset. The padding in front of the
  /// aligned offset stays free as its own block. Returns {offset, size}, or {kNoSpace, 0} when no
  /// block fits or `size` is 0.
  ///
  /// Complexity: O(log n) in the number of free blocks when `alignment` is 1, and whenever the
  /// smallest block of at least `size` bytes can hold the request. Otherwise the search walks up
  /// the size order, O(1) amortised per step, past the blocks that are big enough but not once
  /// padded: O(log n + k), where k counts the free blocks with a size in
  /// [size, size + alignment - 1) (only those can fail that way).
  ///
  /// Throws std::invalid_argument when `alignment` is not a power of two, and std::bad_alloc
  /// only when an internal array must grow and the system has no memory (the allocator is then
  /// unchanged).
  OffsetAllocation allocate(std::uint64_t size, std::uint64_t alignment = 1);

  /// Returns a range: exactly the offset and size that allocate() returned. Merges it with its
  /// free neighbours (four cases: none, the one before, the one after, both). O(log n).
  /// QUADPOOL_ASSERT fires, before anything changes, when `size` is 0, when the range lies
  /// outside [0, capacity()), or when it overlaps a free block (a double free).
  void free(std::uint64_t offset, std::uint64_t size);

  /// Grows the space at its end by `additional_bytes` (0 is a no-op); the new bytes merge with a
  /// free block that ends at the old capacity. O(log n). Throws std::invalid_argument when the
  /// capacity would pass 2^64 - 1.
  void extend(std::uint64_t additional_bytes);

  /// Pre-sizes the node array for `count` free blocks, so that no later call allocates until the
  /// allocator holds more free blocks than that.
  void reserve_free_blocks(std::size_t count);

  std::uint64_t capacity() const noexcept { return capacity_; }
  /// Bytes not handed out, alignment padding included. O(1).
  std::uint64_t free_size() const noexcept { return free_size_; }
  /// The size of the largest free block (0 when none). O(log n).
  std::uint64_t largest_free_block() const noexcept;
  /// O(1).
  std::size_t free_block_count() const noexcept { return free_block_count_; }

  /// Calls f(offset, size) for every free block in increasing offset order, for example to draw
  /// the buffer as a bar. O(n). f must not change the allocator.
  template <class F>
  void for_each_free_block(F&& f) const {
    for (std::uint32_t i = first_; i != kNil; i = list_[i].next)
      f(nodes_[i].offset, nodes_[i].size);
  }

 private:
  static constexpr std::uint32_t kNil = ~std::uint32_t{0};
  // Which tree a link belongs to; the index into Node::child.
  enum Tree : int { kByOffset = 0, kBySize = 1 };

  // What a tree descent reads, and nothing else: 32 bytes, aligned so that a node never
  // straddles two cache lines. The treap priority is a hash of the node's index (priority()).
  struct alignas(32) Node {
    std::uint64_t offset;
    std::uint64_t size;
    std::uint32_t child[2][2];  // [tree][0: smaller keys, 1: larger keys]
  };
  // The free blocks in offset order, for neighbours and iteration, beside the nodes (same index).
  // An unused node keeps the next unused node's index in `next`.
  struct ListLinks {
    std::uint32_t prev, next;
  };

  // The free blocks on either side of an offset: `next` starts at or after it, `prev` before it.
  struct Neighbours {
    std::uint32_t prev, next;
  };

  // The first node in `tree`'s order for which at_or_after(node) holds; the predicate must be
  // false, then true, along that order. kNil when it never holds.
  template <class Predicate>
  std::uint32_t first_where(Tree tree, Predicate at_or_after) const noexcept;
  std::uint32_t find_best_fit(std::uint64_t size, std::uint64_t alignment);
  Neighbours neighbours_of(std::uint64_t offset) const noexcept;
  // The three checks of free(); also used by DeferredOffsetAllocator::free to fail early.
  void check_free(std::uint64_t offset, std::uint64_t size, Neighbours around) const;

  std::uint32_t acquire_node(std::uint64_t offset, std::uint64_t size);
  void release_node(std::uint32_t node) noexcept;
  // A new free block between the free blocks `around`, in both trees and the list.
  std::uint32_t insert_block(std::uint64_t offset, std::uint64_t size, Neighbours around);
  void remove_block(std::uint32_t node) noexcept;
  void list_insert(std::uint32_t node, std::uint32_t prev, std::uint32_t next) noexcept;
  void list_unlink(std::uint32_t node) noexcept;
  // A random-looking, reproducible heap key per node index (a MurmurHash3 finaliser): a treap
  // needs priorities independent of the keys, and the index of a node says nothing about its
  // block. Computing it costs less than the cache miss of storing it.
  static std::uint32_t priority(std::uint32_t node) noexcept {
    node ^= node >> 16;
    node *= 0x85EBCA6Bu;
    node ^= node >> 13;
    node *= 0xC2B2AE35u;
    return node ^ (node >> 16);
  }
  bool less(Tree tree, std::uint32_t a, std::uint32_t b) const noexcept;
  void tree_insert(Tree tree, std::uint32_t node) noexcept;
  void tree_erase(Tree tree, std::uint32_t node) noexcept;
  // Changes a block's size: the one key change that moves it in the size tree.
  void resize_block(std::uint32_t node, std::uint64_t new_size) noexcept;
  std::vector<Node> nodes_;
  std::vector<ListLinks> list_;  // same indices as nodes_
  // Scratch for find_best_fit's walk, kept so that a steady state allocates nothing. It grows
  // to the height of the size tree, about 2 log2(free blocks).
  std::vector<std::uint32_t> walk_stack_;
  std::uint32_t roots_[2] = {kNil, kNil};
  std::uint32_t first_ = kNil, last_ = kNil;  // lowest and highest free block by offset
  std::uint32_t unused_head_ = kNil;          // unused nodes, linked through Node::next
  std::uint64_t capacity_ = 0;
  std::uint64_t free_size_ = 0;
  std::size_t free_block_count_ = 0;
};

}  // namespace quadpool::bench::baseline
