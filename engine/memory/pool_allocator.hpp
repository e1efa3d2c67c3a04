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
/// loop. allocate() and deallocate() are O(1) and inline; only adding a chunk is out of line.
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

  /// Exact when read. O(free blocks): blocks_in_use is the blocks ever handed out less those on
  /// the free list, which it counts, so that allocate() keeps no counter (a counter in memory
  /// is a store-to-load chain through every call, which cost a third of a create+destroy pair
  /// at -O2); total_allocations is total_deallocations plus blocks_in_use.
  PoolStats stats() const noexcept;

  std::size_t blocks_per_chunk() const noexcept { return blocks_per_chunk_; }

  /// Writes the state of every block of chunk `chunk` (in creation order) into `out`, which must
  /// hold blocks_per_chunk() entries. O(blocks_per_chunk + free blocks): a tool, not a hot path.
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

  void* allocate_slow() noexcept;
  std::size_t blocks_ever_used() const noexcept;
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

  // Hot state first: the fast paths touch only these.
  FreeBlock* free_list_head_ = nullptr;
  std::byte* bump_next_ = nullptr;  // the next never-used block of the newest chunk
  std::byte* bump_end_ = nullptr;
  std::uint64_t total_deallocations_ = 0;  // the one counter; everything else is derived

  // No high-water counter: the bump pointer moves only when the free list is empty, that is when
  // every block ever handed out is live, so the count of blocks ever bumped IS the high-water
  // mark (see stats()).
  std::vector<Chunk> chunks_;                   // creation order
  std::vector<std::size_t> chunks_by_address_;  // indices into chunks_, sorted by begin
};

// --- inline fast paths -------------------------------------------------------------------------

inline void* PoolAllocator::try_allocate() noexcept {
  void* block;
  if (free_list_head_ != nullptr) {
    FreeBlock* head = free_list_head_;
    debug::unpoison(head, block_size_);
    free_list_head_ = head->next;
    block = head;
  } else if (bump_next_ != bump_end_) {
    block = bump_next_;
    bump_next_ += block_size_;
    debug::unpoison(block, block_size_);
  } else {
    block = allocate_slow();
    if (block == nullptr) return nullptr;
  }
  if constexpr (debug::kSlotState || debug::kFill) on_allocate_checked(block);
  return block;
}

inline void* PoolAllocator::allocate() {
  void* block = try_allocate();
  if (block == nullptr) throw std::bad_alloc();
  return block;
}

inline void PoolAllocator::deallocate(void* block) noexcept {
  if (block == nullptr) return;
  if constexpr (debug::kSlotState || debug::kPointerChecks || debug::kFill) {
    on_deallocate_checked(block);
  }
  free_list_head_ = ::new (block) FreeBlock{free_list_head_};
  ++total_deallocations_;
  debug::poison(block, block_size_);
}

}  // namespace quadpool::memory
