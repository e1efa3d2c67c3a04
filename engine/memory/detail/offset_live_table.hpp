#pragma once
// OffsetAllocator's table of live ranges (an implementation detail of offset_allocator.hpp): the
// node of each live range by its offset, so that free(offset, size) finds its block in O(1)
// without a search tree.
//
// Open addressing over buckets of one cache line each: 7 ways of {32-bit hash tag, node}, a mask
// of the ways in use and an overflow count. A lookup compares the 7 tags of the offset's home
// bucket at once (SSE2 where available) and confirms a match with `offset_of` (a callable node
// -> offset; the offset lives in the node, which the caller reads anyway). An entry goes to the
// first bucket with a free way from its home on; every full bucket it passes counts it in its
// overflow, and a lookup goes on to the next bucket only while that count is not 0. Erase clears
// a way and takes the entry off the counts it was added to, so there are no tombstones and a
// steady mix of inserts and erases never needs a rehash. The table is kept at most half full, so
// a bucket overflows rarely and a lookup is, almost always, one line and no loop: no branch that
// depends on how a run of slots happens to be laid out.

#include <bit>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace quadpool::memory::detail {

class OffsetLiveTable {
 public:
  static constexpr std::uint32_t kNone = ~std::uint32_t{0};
  static constexpr std::size_t kNoSlot = ~std::size_t{0};

  std::size_t size() const noexcept { return size_; }

  /// The slot that holds `offset`'s entry, or kNoSlot. The slot stays valid until the next insert
  /// or erase.
  template <class OffsetOf>
  std::size_t find_slot(std::uint64_t offset, OffsetOf offset_of) const noexcept {
    if (buckets_.empty()) return kNoSlot;
    const std::uint32_t tag = tag_of(offset);
    for (std::size_t b = home(tag);; b = (b + 1) & mask()) {
      const Bucket& bucket = buckets_[b];
      for (std::uint32_t match = matches(bucket, tag); match != 0; match &= match - 1) {
        const auto way = static_cast<std::uint32_t>(std::countr_zero(match));
        if (offset_of(bucket.node[way]) == offset) return b * kSlotsPerBucket + way;
      }
      if (bucket.overflow == 0) return kNoSlot;
    }
  }

  /// The node of a slot that find_slot returned.
  std::uint32_t node_at(std::size_t slot) const noexcept {
    return buckets_[slot / kSlotsPerBucket].node[slot % kSlotsPerBucket];
  }

  /// The node stored for `offset`, or kNone.
  template <class OffsetOf>
  std::uint32_t find(std::uint64_t offset, OffsetOf offset_of) const noexcept {
    const std::size_t slot = find_slot(offset, offset_of);
    return slot == kNoSlot ? kNone : node_at(slot);
  }

  /// True when `count` entries fit without growing (what reserve(count) would ensure).
  bool has_room_for(std::size_t count) const noexcept {
    return 2 * count <= buckets_.size() * kWays;
  }

  /// Makes room for `count` entries, so that inserting up to that many cannot allocate. May
  /// throw std::bad_alloc, leaving the table as it was.
  void reserve(std::size_t count) {
    if (has_room_for(count)) return;
    if (count > (std::size_t{1} << 31))
      throw std::length_error("OffsetAllocator: over 2^31 live ranges");
    std::size_t grown = 4;
    int bits = 2;
    while (grown * kWays < 2 * count) grown *= 2, ++bits;
    std::vector<Bucket> old(grown);
    old.swap(buckets_);
    shift_ = 32 - bits;
    for (const Bucket& bucket : old) {
      for (std::uint32_t used = bucket.used; used != 0; used &= used - 1) {
        const auto way = static_cast<std::uint32_t>(std::countr_zero(used));
        place(bucket.tag[way], bucket.node[way]);
      }
    }
  }

  /// Starts loading the bucket where `offset` would go, for an insert or find soon after.
  void prefetch(std::uint64_t offset) const noexcept {
    if (!buckets_.empty()) __builtin_prefetch(&buckets_[home(tag_of(offset))]);
  }

  /// Adds `offset` -> `node`; the caller has reserved room and `offset` is not in the table.
  void insert(std::uint64_t offset, std::uint32_t node) noexcept {
    place(tag_of(offset), node);
    ++size_;
  }

  /// Removes the entry in `slot`, a slot that find_slot returned.
  void erase_at(std::size_t slot) noexcept {
    const std::size_t b = slot / kSlotsPerBucket;
    const auto way = static_cast<std::uint32_t>(slot % kSlotsPerBucket);
    Bucket& bucket = buckets_[b];
    bucket.used &= ~(std::uint32_t{1} << way);
    // The full buckets it passed on its way from home no longer send lookups on for it.
    for (std::size_t i = home(bucket.tag[way]); i != b; i = (i + 1) & mask()) --buckets_[i].overflow;
    --size_;
  }

  /// Every overflow count equals the entries that passed its bucket (for validate()). O(n).
  bool overflow_counts_agree() const {
    std::vector<std::uint32_t> passed(buckets_.size(), 0);
    std::size_t entries = 0;
    for (std::size_t b = 0; b < buckets_.size(); ++b) {
      if ((buckets_[b].used & ~kAllWays) != 0) return false;
      for (std::uint32_t used = buckets_[b].used; used != 0; used &= used - 1) {
        const auto way = static_cast<std::uint32_t>(std::countr_zero(used));
        for (std::size_t i = home(buckets_[b].tag[way]); i != b; i = (i + 1) & mask()) ++passed[i];
        ++entries;
      }
    }
    for (std::size_t b = 0; b < buckets_.size(); ++b) {
      if (passed[b] != buckets_[b].overflow) return false;
    }
    return entries == size_;
  }

 private:
  static constexpr std::uint32_t kWays = 7;
  static constexpr std::size_t kSlotsPerBucket = 8;  // slot = bucket * 8 + way
  static constexpr std::uint32_t kAllWays = (std::uint32_t{1} << kWays) - 1;

  // One cache line. `used` follows the tags so that two 16-byte compares cover the 7 tags (the
  // eighth lane, `used` itself, is masked off by `used`, whose bit 7 is never set).
  struct alignas(64) Bucket {
    std::uint32_t tag[kWays] = {};
    std::uint32_t used = 0;
    std::uint32_t node[kWays] = {};
    std::uint32_t overflow = 0;  // entries stored past this bucket that passed it when it was full
  };
  static_assert(sizeof(Bucket) == 64);

  // Bit w set when way w is in use and holds `tag`.
  static std::uint32_t matches(const Bucket& bucket, std::uint32_t tag) noexcept {
#if defined(__SSE2__)
    const __m128i wanted = _mm_set1_epi32(static_cast<int>(tag));
    const auto* lanes = reinterpret_cast<const __m128i*>(bucket.tag);
    const int low = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(_mm_load_si128(lanes), wanted)));
    const int high =
        _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(_mm_load_si128(lanes + 1), wanted)));
    return static_cast<std::uint32_t>(low | (high << 4)) & bucket.used;
#else
    std::uint32_t match = 0;
    for (std::uint32_t way = 0; way < kWays; ++way)
      match |= static_cast<std::uint32_t>(bucket.tag[way] == tag) << way;
    return match & bucket.used;
#endif
  }

  static std::uint32_t tag_of(std::uint64_t offset) noexcept {
    return static_cast<std::uint32_t>((offset * 0x9E3779B97F4A7C15ull) >> 32);
  }
  std::size_t mask() const noexcept { return buckets_.size() - 1; }
  std::size_t home(std::uint32_t tag) const noexcept { return tag >> shift_; }
  void place(std::uint32_t tag, std::uint32_t node) noexcept {
    std::size_t b = home(tag);
    while (buckets_[b].used == kAllWays) {
      ++buckets_[b].overflow;
      b = (b + 1) & mask();
    }
    Bucket& bucket = buckets_[b];
    const auto way = static_cast<std::uint32_t>(std::countr_zero(~bucket.used));
    bucket.tag[way] = tag;
    bucket.node[way] = node;
    bucket.used |= std::uint32_t{1} << way;
  }

  std::vector<Bucket> buckets_;  // a power of two in size (at least 4), or empty
  int shift_ = 32;               // 32 - log2(buckets_.size())
  std::size_t size_ = 0;
};

}  // namespace quadpool::memory::detail
