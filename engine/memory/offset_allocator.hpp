#pragma once
/// OffsetAllocator: a best-fit allocator of variable-size ranges inside one linear space of
/// `capacity()` bytes (a GPU buffer, a staging ring, a file). It hands out offsets, never
/// pointers, and touches no memory of the space it manages.
///
/// Every block of the space, free or live, is a 32-byte node in one flat array, linked to its
/// neighbours in offset order, so a free finds the blocks either side of it in O(1). Free blocks
/// also sit in size classes (bins, as in TLSF: exact below 512 bytes, 256 per octave above) that
/// a three-level bitmap indexes. A bin is half a cache line that holds one block with its key
/// (once the bin is sorted, its smallest), so the usual search loads no node; further blocks go
/// into a small treap ordered by (size, offset), which a bin builds only when a search first
/// needs its order. A bucketed hash table keyed by offset finds the node of a live range. The
/// fit stays exact: the smallest block that holds the request, the lowest offset on a tie. The
/// allocator makes no heap allocation once its arrays have reached their high-water mark (a
/// steady frame loop makes none; `reserve` can pre-size them).
///
/// DeferredOffsetAllocator wraps it for the GPU case: a range freed in frame F is held back until
/// the caller says that every frame < F + 1 has completed.
///
/// Invariants (checked by validate()):
/// - the blocks tile [0, capacity()) in offset order, each of size > 0, and two free blocks are
///   never neighbours (a free merges with its free neighbours);
/// - every free block is in the bin of its size: the bin's inline entry, pending, or in the bin's
///   treap, in (size, offset) order with the heap property and wholly after the inline entry; a
///   bin of blocks under 2^32 bytes has a treap only while it has an inline entry; a bin's bit is
///   set exactly when it is not empty;
/// - once built, the live table holds exactly the live blocks;
/// - `free_size() == capacity() - sum of live sizes`, alignment padding included in the free side.
///
/// Not thread-safe: one allocator belongs to one thread (the render loop).

#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/core/config.hpp"
#include "engine/memory/detail/offset_bins.hpp"
#include "engine/memory/detail/offset_live_table.hpp"

namespace quadpool::memory {

/// The offset of a failed allocation.
inline constexpr std::uint64_t kNoSpace = ~std::uint64_t{0};

/// Names a live range to the allocator that handed it out, so that a free reaches the range's
/// block without looking its offset up. Opaque: copy it, compare it, keep it with the range.
/// Release builds keep only the block's node index; builds with asserts add a generation (of the
/// node, counted up each time it becomes a live range) and the id of the allocator, so that a
/// double free, a stale handle and a handle from another allocator are caught.
struct OffsetAllocationHandle {
  std::uint32_t node = ~std::uint32_t{0};
#if QUADPOOL_CONFIG_ASSERTS
  std::uint32_t generation = 0;
  std::uint32_t allocator_id = 0;  // 0: no allocator (a failed allocation)
#endif

  friend bool operator==(const OffsetAllocationHandle&, const OffsetAllocationHandle&) = default;
};

/// A range handed out by OffsetAllocator, with the handle that frees it. A failed allocation is
/// {kNoSpace, 0} with an empty handle. 24 bytes in release builds (32 with asserts).
struct OffsetAllocation {
  std::uint64_t offset;
  std::uint64_t size;
  OffsetAllocationHandle handle{};

  friend bool operator==(const OffsetAllocation&, const OffsetAllocation&) = default;
};

class DeferredOffsetAllocator;

class OffsetAllocator {
 public:
  /// An allocator whose whole `capacity` (may be 0) is one free block at offset 0.
  explicit OffsetAllocator(std::uint64_t capacity);

  /// Best fit: the smallest free block that can hold `size` bytes starting at a multiple of
  /// `alignment`; among blocks of that size, the lowest offset. The padding in front of the
  /// aligned offset stays free as its own block. Returns {offset, size, handle}, or
  /// {kNoSpace, 0} when no block fits or `size` is 0.
  ///
  /// Complexity: O(1) to find the first bin that can hold the request, plus O(log m) inside a
  /// bin of m free blocks, when `alignment` is 1 and whenever the smallest block of at least
  /// `size` bytes can hold the request. Otherwise the search walks up the size order past the
  /// blocks that are big enough but not once padded, O(1) amortised each; only blocks with a size
  /// in [size, size + alignment - 1) can fail that way.
  ///
  /// Throws std::invalid_argument when `alignment` is not a power of two, and std::bad_alloc
  /// only when an internal array must grow and the system has no memory (the allocator is then
  /// unchanged).
  OffsetAllocation allocate(std::uint64_t size, std::uint64_t alignment = 1);

  /// Returns the range of `allocation`, exactly as allocate() returned it, through its handle:
  /// O(1) to reach the block, plus the merge with its free neighbours (four cases: none, the
  /// one before, the one after, both), O(log m) for a merged neighbour in its bin's treap or
  /// its bin's inline entry. Reads no live table (once free(offset, size) has built one, it
  /// also erases the range's entry there, a load that starts beside the node's).
  /// QUADPOOL_ASSERT fires, before anything changes, on a handle from another allocator, on a
  /// double free, on a stale handle (its range was freed and its block now holds another) and
  /// on an offset or size that is not the handle's range. With asserts compiled out a handle
  /// that names no live block at `allocation.offset` is ignored; a stale handle whose node
  /// holds a new range at the same offset is not caught there.
  void free(const OffsetAllocation& allocation);

  /// Returns a range by its offset and size alone: exactly the offset and size that allocate()
  /// returned, for callers that do not keep the handle. Finds the block in the live table, O(1)
  /// expected, then merges as free(allocation) does. The first call builds the table, O(live
  /// ranges) once (and may throw std::bad_alloc); every later allocate keeps it up to date.
  /// QUADPOOL_ASSERT fires, before anything changes, when `size` is 0, when the range lies
  /// outside [0, capacity()), when it overlaps a free block (a double free), or when it is not
  /// exactly a live range. With asserts compiled out such a call is ignored.
  void free(std::uint64_t offset, std::uint64_t size);

  /// Grows the space at its end by `additional_bytes` (0 is a no-op); the new bytes merge with a
  /// free block that ends at the old capacity. Throws std::invalid_argument when the capacity
  /// would pass 2^64 - 1.
  void extend(std::uint64_t additional_bytes);

  /// Pre-sizes the internal arrays for `live_ranges` live ranges (and the free blocks between
  /// them), so that no later call allocates until the allocator holds more than that.
  void reserve(std::size_t live_ranges);

  std::uint64_t capacity() const noexcept { return capacity_; }
  /// Bytes not handed out, alignment padding included. O(1).
  std::uint64_t free_size() const noexcept { return free_size_; }
  /// The size of the largest free block (0 when none). O(log m), plus the unsorted blocks of
  /// the largest size class.
  std::uint64_t largest_free_block() const noexcept;
  /// O(1).
  std::size_t free_block_count() const noexcept { return free_block_count_; }

  /// Calls f(offset, size) for every free block in increasing offset order, for example to draw
  /// the buffer as a bar. O(blocks, live ones included). f must not change the allocator.
  template <class F>
  void for_each_free_block(F&& f) const {
    for (std::uint32_t i = first_; i != kNil; i = nodes_[i].next) {
      if (is_free(i)) f(nodes_[i].offset, nodes_[i].size);
    }
  }

  /// Checks every invariant listed at the top of this file, firing QUADPOOL_ASSERT with the one
  /// that fails. O(n); allocates scratch space. Does nothing when asserts are compiled out.
  void validate() const;

 private:
  friend class DeferredOffsetAllocator;

  static constexpr std::uint32_t kNil = ~std::uint32_t{0};
  static constexpr std::size_t kMaxNodes = kNil;  // indices 0 .. 2^32 - 2

  enum class State : std::uint8_t {
    kUnused,   // on the unused-node list
    kLive,     // a live range
    kPending,  // free, on its bin's pending list, not yet in its bin's order
    kSorted,   // free, in its bin's treap
    kInline,   // free, its bin's inline entry
  };

  // One block of the space, free or live: 32 bytes, aligned so that a node never straddles two
  // cache lines. Its State lives beside it in states_, a byte per node that stays in cache, so
  // that free() sees whether a neighbour is free without loading the neighbour's node. The treap
  // priority is a hash of the node's index (priority()).
  struct alignas(32) Node {
    std::uint64_t offset;
    std::uint64_t size;
    std::uint32_t prev, next;  // the blocks either side (kNil at the ends); unused: next unused
    // kSorted: the treap's children (0: smaller keys).
    // kPending: child[0] and child[1] are the previous and next node of the pending list.
    std::uint32_t child[2];
  };
  // A bin's free blocks, in half a cache line: one block as the inline entry, which carries its
  // key (the first to arrive, and once a search has sorted the bin, the smallest sorted block),
  // so that the usual search (the smallest block of a bin, or one big enough in the request's
  // own bin) reads no node; the other sorted blocks, all after the entry in (size, offset) order,
  // in the treap; blocks not sorted yet on the pending list, which a search scans. The entry is
  // empty only while the treap is, and blocks of 2^32 bytes or more are never inline (those bins
  // keep every block in the treap or pending).
  // Measured with three inline entries in a whole line too: fewer blocks went past the entries,
  // but twice the lines per bin cost more cache misses than that saved (cachegrind, 100k live
  // ranges in a 512 KB last level: 4 % more misses than one entry; 12 to 15 % more instructions).
  struct alignas(32) Bin {
    std::uint64_t inline_offset = 0;
    std::uint32_t inline_size = 0;
    std::uint32_t inline_node = 0;
    std::uint32_t has_inline = 0;  // 0 or 1
    std::uint32_t root = kNil;
    std::uint32_t pending = kNil;
    std::uint32_t pending_count = 0;

    bool empty() const noexcept { return (has_inline == 0) & ((root & pending) == kNil); }
  };
  static_assert(sizeof(Bin) == 32);
  // A search scans up to this many pending blocks of a bin rather than sorting them.
  static constexpr std::uint32_t kScanLimit = 8;

  bool is_free(std::uint32_t node) const noexcept { return states_[node] >= State::kPending; }

  // A search's best block so far, with its key (defined in detail/offset_candidate.hpp): the
  // searches return it, so that allocate() knows the offset before it loads the block's node.
  struct Candidate;
  Candidate find_best_fit(std::uint64_t size, std::uint64_t alignment);
  Candidate find_aligned_fit(std::uint64_t size, std::uint64_t alignment);
  // The first block of `bin` in (size, offset) order with at least `size` bytes (not found()
  // when there is none).
  Candidate first_in_bin(std::uint32_t bin, std::uint64_t size) noexcept;
  // first_in_bin's rest, for a bin whose inline entry alone does not settle the search.
  Candidate first_beyond_inline(std::uint32_t bin, std::uint64_t size) noexcept;
  // The node of a live range that free(allocation) may release, or kNil (only with asserts
  // compiled out: with them, a bad handle fires QUADPOOL_ASSERT). Also used by
  // DeferredOffsetAllocator::free to fail early. Not noexcept: a test's assert handler throws.
  std::uint32_t check_handle(const OffsetAllocation& allocation) const;
  void report_bad_handle(const OffsetAllocation& allocation) const;
  std::uint32_t find_live(std::uint64_t offset) const noexcept {
    return live_.find(offset, [this](std::uint32_t node) { return nodes_[node].offset; });
  }
  void report_bad_free(std::uint64_t offset, std::uint64_t size, std::uint32_t live) const;
  // The handle of `node`, which has just become a live range (counts its generation up).
  OffsetAllocationHandle make_handle(std::uint32_t node) noexcept;
  // The first free(offset, size): enters every live range into the live table.
  void build_live_table();
  // The common end of both frees: `node`, a live range already out of the live table, merges
  // with its free neighbours and joins its bin.
  void release_range(std::uint32_t node) noexcept;

  // Guarantees that `nodes` more nodes and one more live range can be added without allocating.
  void reserve_for(std::size_t nodes, std::size_t live_ranges);
  std::uint32_t acquire_node(std::uint64_t offset, std::uint64_t size) noexcept;
  void release_node(std::uint32_t node) noexcept;
  void link_after(std::uint32_t node, std::uint32_t prev) noexcept;
  void unlink(std::uint32_t node) noexcept;

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
  bool less(std::uint32_t a, std::uint32_t b) const noexcept;
  // A free block joins its bin's pending list, O(1), and leaves it in O(1) or its treap in
  // O(log m). A bin is
  // sorted (its pending blocks go into its treap) only when a search needs its order, so a
  // block that no search reaches, such as a sliver smaller than every request, never pays for
  // a treap descent.
  void bin_insert(std::uint32_t node) noexcept;
  void bin_erase(std::uint32_t node) noexcept;
  void sort_bin(std::uint32_t bin) noexcept;
  // Makes `node` the inline entry of `b` (its size fits 32 bits).
  void set_inline(Bin& b, std::uint32_t node) noexcept;
  // Puts `node` into the sorted part of `bin`: the inline entry when it is the smallest block
  // there (the previous entry moves into the treap), else the treap.
  void add_sorted(std::uint32_t bin, std::uint32_t node) noexcept;
  void treap_insert(std::uint32_t bin, std::uint32_t node) noexcept;
  void treap_erase(std::uint32_t bin, std::uint32_t node) noexcept;
  // The parts of validate(): the block list, the live table and the unused nodes (marks each
  // block 1 in `seen`), then the bins and their bitmap (marks each block found there 2).
  void validate_block_list(std::vector<std::uint8_t>& seen) const;
  void validate_bins(std::vector<std::uint8_t>& seen) const;
  // validate() for the subtree at `node` of `bin`, whose keys must lie strictly between those of
  // `low` and `high` (kNil: unbounded) and whose priorities must not pass its parent's. Marks
  // each node seen; returns the node count.
  std::size_t validate_subtree(std::uint32_t bin, std::uint32_t node, std::uint32_t low,
                               std::uint32_t high, std::uint32_t parent_priority,
                               std::vector<std::uint8_t>& seen) const;

  std::vector<Node> nodes_;
  std::vector<State> states_;  // same indices as nodes_
  std::vector<Bin> bins_;            // up to the bin of capacity()
  detail::OffsetBinBitmap bin_bits_;  // the bins that hold a free block
  // Live range offset -> node, for free(offset, size) only: built by its first call.
  detail::OffsetLiveTable live_;
  bool has_live_table_ = false;
  std::size_t live_count_ = 0;
  // With asserts: each node's generation (same indices as nodes_) and this allocator's id, which
  // handles carry. Empty and unused without asserts.
  std::vector<std::uint32_t> generations_;
  std::uint32_t id_ = 0;
  // Scratch for find_aligned_fit's walk, kept so that a steady state allocates nothing.
  std::vector<std::uint32_t> walk_stack_;
  std::uint32_t first_ = kNil, last_ = kNil;  // the blocks at the start and the end of the space
  std::uint32_t unused_head_ = kNil;          // unused nodes, linked through Node::next
  std::uint64_t capacity_ = 0;
  std::uint64_t free_size_ = 0;
  std::size_t free_block_count_ = 0;
};

/// The GPU variant: a free names the frame that last used the range, and the range is only
/// returned to the allocator once that frame has completed. Typical frame loop, with frame
/// numbers counting up from 0:
///
///   auto range = stream.allocate(bytes, 16);        // write vertices into [offset, +size)
///   stream.free(range, frame);                      // the GPU reads it during `frame`
///   stream.release_completed_frames(completed);     // completed = frames the GPU has finished
///
/// Pending frees wait in a queue sorted by frame: O(1) each when frames come in non-decreasing
/// order (the normal case), O(pending) for one that names an earlier frame. The queue reuses its
/// storage, so a steady loop makes no heap allocation.
class DeferredOffsetAllocator {
 public:
  explicit DeferredOffsetAllocator(std::uint64_t capacity);

  /// As OffsetAllocator::allocate: pending frees are not available until released.
  OffsetAllocation allocate(std::uint64_t size, std::uint64_t alignment = 1);

  /// Queues `allocation` to be returned, by its handle, once `frame` has completed. The handle is
  /// checked now, as OffsetAllocator::free(allocation) checks it (QUADPOOL_ASSERT on a handle
  /// from another allocator, a stale handle, a range freed already); a range queued twice
  /// before release is caught when it is released.
  void free(OffsetAllocation allocation, std::uint64_t frame);

  /// Returns `allocation` at once, for a range no frame in flight uses (by its handle, as
  /// OffsetAllocator::free(allocation)).
  void free_now(OffsetAllocation allocation);
  /// As free_now(allocation), by offset and size alone (OffsetAllocator::free(offset, size)).
  void free_now(std::uint64_t offset, std::uint64_t size) { allocator_.free(offset, size); }

  /// Releases every allocation freed in a frame < completed_frames, i.e. all frames numbered
  /// below `completed_frames` have completed. As OffsetAllocator::free per released range.
  void release_completed_frames(std::uint64_t completed_frames);

  /// As OffsetAllocator::extend.
  void extend(std::uint64_t additional_bytes) { allocator_.extend(additional_bytes); }

  /// Bytes freed but not yet released. O(1).
  std::uint64_t stale_size() const noexcept { return stale_size_; }
  /// Allocations freed but not yet released. O(1).
  std::size_t stale_count() const noexcept { return stale_.size() - stale_head_; }

  const OffsetAllocator& allocator() const noexcept { return allocator_; }

 private:
  struct StaleRange {
    std::uint64_t frame;
    OffsetAllocation allocation;
  };

  OffsetAllocator allocator_;
  // Pending frees sorted by frame; entries before stale_head_ are already released.
  std::vector<StaleRange> stale_;
  std::size_t stale_head_ = 0;
  std::uint64_t stale_size_ = 0;
};

}  // namespace quadpool::memory
