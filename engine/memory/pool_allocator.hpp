#pragma once
/// PoolAllocator: a fixed-size block allocator with an intrusive free list.
///
/// Every block has the same size and alignment. Free blocks hold the free list inside themselves
/// (the first bytes of a free block point to the next free block), so a live block costs nothing
/// beyond its alignment padding. Memory comes in chunks of `blocks_per_chunk` blocks:
/// - `Growth::Fixed` allocates one chunk up front and never another;
/// - `Growth::Grow` allocates a chunk on the first allocation and another whenever all are full.
/// Chunks are never moved or freed while the pool lives, so a block's address is stable.
///
/// A new chunk is not threaded into the free list. Never-used blocks are handed out by bumping a
/// pointer through the newest chunk, so a chunk of a million blocks costs one allocation and no
/// loop. While the free list is empty, freeing the block just below the bump pointer moves the
/// pointer back ("un-bumps") instead of pushing the block, across chunk boundaries too: a frame
/// that creates N objects and destroys them in reverse is then a pointer moving up and down, with
/// no load from a block. Blocks come back in exactly the order a plain LIFO free list would give
/// them, with one exception: when a free leaves no block live, the pool forgets its free list and
/// starts over from its first block, in address order (a teardown in any order is then followed
/// by a frame of pure bumping, not by a walk of a list scattered over memory).
/// allocate() and deallocate() are O(1) and inline; only adding a chunk is out of line.
///
/// Not thread-safe: one pool belongs to one thread (a frame loop).
///
/// Checked builds (see debug.hpp) add, each behind its own switch: fill patterns, O(1)
/// double-free detection through a per-slot state byte kept beside the chunk, foreign and
/// misaligned pointer checks, a leak report on destruction, and ASan poisoning of free blocks.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <span>
#include <vector>

#include "engine/memory/debug.hpp"

namespace quadpool::memory {

enum class Growth { Fixed, Grow };

struct PoolConfig {
  std::size_t block_size;                             // bytes per block, > 0
  std::size_t blocks_per_chunk;                       // > 0
  std::size_t alignment = alignof(std::max_align_t);  // power of two, at most kMaxAlignment
  Growth growth = Growth::Grow;
};

/// A snapshot of a pool. Every field is exact at the moment it is read.
struct PoolStats {
  std::size_t block_size, alignment;  // effective values after rounding
  std::size_t blocks_in_use, capacity, chunks, high_water;
  std::uint64_t total_allocations, total_deallocations;
  std::size_t bytes_reserved;
};

/// The state of one block, for tools and the demo's per-chunk strip.
enum class BlockState : std::uint8_t { NeverUsed, Free, Live };

class PoolAllocator {
 public:
  /// The largest alignment honoured for every block.
  static constexpr std::size_t kMaxAlignment = 4096;
  /// The smallest block: a free block holds the free-list link.
  static constexpr std::size_t kMinBlockSize = sizeof(void*);

  /// Throws std::invalid_argument, naming the field and its valid range, when block_size or
  /// blocks_per_chunk is 0, when alignment is not a power of two in [1, 4096], or when a chunk's
  /// size overflows. A Fixed pool allocates its one chunk here (std::bad_alloc if that fails).
  explicit PoolAllocator(const PoolConfig& config);

  /// Asserts (QUADPOOL_MEMORY_LEAK_CHECK) when blocks are still live, with their count.
  ~PoolAllocator();

  PoolAllocator(const PoolAllocator&) = delete;
  PoolAllocator& operator=(const PoolAllocator&) = delete;

  /// A block of `stats().block_size` bytes aligned to `stats().alignment`. O(1), amortised O(1)
  /// when a chunk is added. Throws std::bad_alloc when a Fixed pool is exhausted.
  void* allocate();

  /// As allocate(), but returns nullptr when a Fixed pool is exhausted (or a new chunk cannot be
  /// had from the system).
  void* try_allocate() noexcept;

  /// Returns a block to the pool. O(1). nullptr is a no-op. In checked builds a double free, a
  /// pointer from elsewhere or one that is not the start of a block fires QUADPOOL_ASSERT.
  void deallocate(void* block) noexcept;

  /// True when `p` points into one of this pool's chunks. O(log chunks).
  bool owns(const void* p) const noexcept;

  /// Exact when read, O(1). Derived, so that the bump and un-bump paths keep no counter but one
  /// (a counter in memory is a store-to-load chain through every call): blocks_in_use is the
  /// blocks handed out by the bump pointer less those on the free list, which the free-list paths
  /// count; high_water is the blocks below the newest chunk's high mark; total_allocations is
  /// total_deallocations plus blocks_in_use.
  PoolStats stats() const noexcept;

  std::size_t blocks_per_chunk() const noexcept { return blocks_per_chunk_; }

  /// Writes the state of every block of chunk `chunk` (in creation order) into `out`, which must
  /// hold blocks_per_chunk() entries. O(blocks_per_chunk + free blocks): a tool, not a hot path.
  /// A block is Free when it is on the free list or was un-bumped (handed out, then given back
  /// by moving the bump pointer over it); NeverUsed only when it was never handed out.
  void chunk_block_states(std::size_t chunk, std::span<BlockState> out) const;

 private:
  // What a free block holds: the link to the next free block, nothing else.
  struct FreeBlock {
    FreeBlock* next;
  };
  struct Chunk {
    std::byte* begin;
    std::unique_ptr<BlockState[]> slot_state;  // only with QUADPOOL_MEMORY_SLOT_STATE
  };

  /// allocate() (kThrow) and try_allocate(): one fast path, two ways to fail.
  template <bool kThrow>
  void* allocate_impl() noexcept(!kThrow);
  void* allocate_slow() noexcept;
  /// deallocate() without the free list: moves the bump pointer back over `block` when `block`
  /// is the last one it handed out. The caller checks that the free list is empty.
  bool try_unbump(std::byte* block) noexcept;
  /// try_unbump() at the start of a chunk: moves the bump pointer into the chunk before when
  /// `block` is that chunk's last block.
  bool unbump_into_previous_chunk(std::byte* block) noexcept;
  /// Pushes `block` on the free list; rewinds when that leaves no block live.
  void push_free(void* block) noexcept;
  /// Every block handed out is on the free list: empties it and moves the bump pointer to the
  /// first block, so that every block handed out so far counts as un-bumped.
  void rewind() noexcept;
  /// Moves the bump pointer to `next` in chunk `index`, with the newest chunk's high mark.
  void enter_chunk(std::size_t index, std::byte* next, std::byte* newest_mark) noexcept;
  /// The bytes of the blocks handed out by the bump pointer (the chunks before its own count
  /// whole): O(1), a subtraction.
  std::size_t handed_out_bytes() const noexcept {
    return static_cast<std::size_t>(reinterpret_cast<std::uintptr_t>(bump_next_) - bump_origin_);
  }
  /// The blocks of the chunks before `chunk`, plus those of `chunk` below `mark`.
  std::size_t blocks_before(std::size_t chunk, const std::byte* mark) const noexcept;
  /// The end of the blocks of the newest chunk ever handed out.
  std::byte* newest_high_mark() const noexcept;
  std::size_t blocks_in_use() const noexcept;
  bool add_chunk() noexcept;
  /// The index in chunks_ of the chunk holding p, or npos.
  std::size_t find_chunk(const void* p) const noexcept;
  void on_allocate_checked(void* block) noexcept;
  void on_deallocate_checked(void* block) noexcept;
  /// block->next of a free (and so, under ASan, poisoned) block.
  static FreeBlock* read_link(const FreeBlock* block) noexcept {
    debug::unpoison(block, sizeof(FreeBlock*));
    FreeBlock* next = block->next;
    debug::poison(block, sizeof(FreeBlock*));
    return next;
  }

  std::size_t block_size_;
  std::size_t alignment_;
  std::size_t blocks_per_chunk_;
  std::size_t chunk_bytes_;
  std::size_t chunk_alignment_;  // at least a cache line, so 64-byte blocks sit on line boundaries
  Growth growth_;

  // Hot state first: the fast paths touch only these. The bump pointer walks the chunks in
  // creation order; it is in chunk bump_chunk_, the newest unless LIFO frees un-bumped back past
  // a chunk's start or a rewind sent it to the first. Every block is in one of these ranges, in
  // that order:
  //   handed out (live or on the free list): the chunks before bump_chunk_, and bump_chunk_'s
  //     blocks below bump_next_;
  //   un-bumped (handed out before, free now, not on the free list): from bump_next_ up to
  //     high_mark_, then every block of the chunks after bump_chunk_ up to the newest chunk's
  //     high mark (newest_high_mark_ while bump_chunk_ is not the newest);
  //   never used: the rest of the newest chunk.
  FreeBlock* free_list_head_ = nullptr;
  std::byte* bump_next_ = nullptr;  // the next block the bump pointer hands out
  std::byte* high_mark_ = nullptr;  // where re-bumping ends in this chunk: its end, or in the
                                    // newest chunk the end of the blocks ever handed out
  std::byte* bump_end_ = nullptr;   // the end of chunk bump_chunk_
  // The one counter. It cannot be derived: N creates and N reverse destroys leave the pool
  // exactly as they found it, so only a count can tell one such frame from ten.
  std::uint64_t total_deallocations_ = 0;

  // Kept by the free-list paths only (push, pop), never by bump or un-bump.
  std::size_t free_bytes_ = 0;  // block_size_ times the blocks on the free list
  // The address bump_next_ would have if every chunk before its own lay just below it, so that
  // bump_next_ - bump_origin_ is handed_out_bytes(). Integer arithmetic: it is no real address.
  std::uintptr_t bump_origin_ = 0;

  std::size_t bump_chunk_ = 0;  // the index in chunks_ of the chunk the bump pointer is in
  std::byte* newest_high_mark_ = nullptr;  // the newest chunk's high mark, while bump_chunk_ is older
  // No high-water counter: the bump pointer passes the newest chunk's high mark only when the
  // free list is empty and every block below it is live, so the blocks below that mark ARE the
  // high-water mark.
  std::vector<Chunk> chunks_;                   // creation order
  std::vector<std::size_t> chunks_by_address_;  // indices into chunks_, sorted by begin
};

// --- inline fast paths -------------------------------------------------------------------------

template <bool kThrow>
inline void* PoolAllocator::allocate_impl() noexcept(!kThrow) {
  void* block;
  // The likely paths are the bump pointer's: a frame freed newest first, or freed so that it left
  // nothing live, hands its blocks out again by bumping, and the branch layout should say so.
  if (free_list_head_ != nullptr) [[unlikely]] {
    FreeBlock* head = free_list_head_;
    debug::unpoison(head, block_size_);
    free_list_head_ = head->next;
    free_bytes_ -= block_size_;
    block = head;
  } else if (bump_next_ != high_mark_) [[likely]] {
    // Re-bump a block that an earlier deallocate() un-bumped.
    block = bump_next_;
    bump_next_ += block_size_;
    debug::unpoison(block, block_size_);
  } else if (bump_next_ != bump_end_) {
    block = bump_next_;
    bump_next_ += block_size_;
    high_mark_ = bump_next_;
    debug::unpoison(block, block_size_);
  } else {
    block = allocate_slow();
    // Only here can the block be null, so allocate() tests for failure on this path alone.
    if (block == nullptr) {
      if constexpr (kThrow) throw std::bad_alloc();
      return nullptr;
    }
  }
  if constexpr (debug::kSlotState || debug::kFill) on_allocate_checked(block);
  return block;
}

inline void* PoolAllocator::try_allocate() noexcept {
  return allocate_impl<false>();
}

inline void* PoolAllocator::allocate() {
  return allocate_impl<true>();
}

inline void PoolAllocator::deallocate(void* block) noexcept {
  if (block == nullptr) return;
  if constexpr (debug::kSlotState || debug::kPointerChecks || debug::kFill) {
    on_deallocate_checked(block);
  }
  // Un-bump only while the free list is empty: then the block goes to the front of what the next
  // allocations hand out, exactly where a push would put it, so the order blocks come back in
  // is the plain LIFO order, un-bump or not.
  if (free_list_head_ != nullptr || !try_unbump(static_cast<std::byte*>(block))) [[unlikely]] {
    push_free(block);
  }
  ++total_deallocations_;
  debug::poison(block, block_size_);
}

inline void PoolAllocator::push_free(void* block) noexcept {
  free_list_head_ = ::new (block) FreeBlock{free_list_head_};
  free_bytes_ += block_size_;
  if (free_bytes_ == handed_out_bytes()) rewind();
}

inline bool PoolAllocator::try_unbump(std::byte* block) noexcept {
  // `block + block_size_` is at most one past the end of its chunk, and no chunk starts there
  // (add_chunk() pads every chunk), so an equal pointer is in the bump pointer's chunk.
  if (block + block_size_ == bump_next_) [[likely]] {
    bump_next_ = block;
    return true;
  }
  // Out of line: a teardown crosses each chunk's start once.
  return bump_next_ + chunk_bytes_ == bump_end_ && unbump_into_previous_chunk(block);
}

}  // namespace quadpool::memory
