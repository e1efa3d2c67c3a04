#pragma once
// OffsetAllocator's table of live ranges (an implementation detail of offset_allocator.hpp): the
// node of each live range by its offset, so that free(offset, size) finds its block in O(1)
// without a search tree. Open addressing with linear probing, at most half full, Fibonacci
// hashing; erase shifts the following entries back, so there are no tombstones and a steady
// mix of inserts and erases never needs a rehash.
//
// A slot is 8 bytes: the node and the top 32 bits of the offset's hash (which also give the
// slot's home). The offset itself lives in the node, which the caller reads anyway; `offset_of`
// (a callable node -> offset) confirms a match.

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace quadpool::memory::detail {

class OffsetLiveTable {
 public:
  static constexpr std::uint32_t kNone = ~std::uint32_t{0};

  std::size_t size() const noexcept { return size_; }

  /// The node stored for `offset`, or kNone.
  template <class OffsetOf>
  std::uint32_t find(std::uint64_t offset, OffsetOf offset_of) const noexcept {
    if (slots_.empty()) return kNone;
    const std::uint32_t tag = tag_of(offset);
    for (std::size_t i = home(tag);; i = (i + 1) & mask()) {
      const Slot& slot = slots_[i];
      if (slot.node == kNone) return kNone;
      if (slot.tag == tag && offset_of(slot.node) == offset) return slot.node;
    }
  }

  /// True when `count` entries fit without growing (what reserve(count) would ensure).
  bool has_room_for(std::size_t count) const noexcept { return 2 * count <= slots_.size(); }

  /// Makes room for `count` entries, so that inserting up to that many cannot allocate. May
  /// throw std::bad_alloc, leaving the table as it was.
  void reserve(std::size_t count) {
    if (has_room_for(count)) return;
    if (count > (std::size_t{1} << 31))
      throw std::length_error("OffsetAllocator: over 2^31 live ranges");
    std::size_t grown = 16;
    int bits = 4;
    while (grown < 2 * count) grown *= 2, ++bits;
    std::vector<Slot> old(grown, Slot{kNone, 0});
    old.swap(slots_);
    shift_ = 32 - bits;
    for (const Slot& slot : old) {
      if (slot.node != kNone) place(slot);
    }
  }

  /// Starts loading the slot where `offset` would go, for an insert or find soon after.
  void prefetch(std::uint64_t offset) const noexcept {
    if (!slots_.empty()) __builtin_prefetch(&slots_[home(tag_of(offset))]);
  }

  /// Adds `offset` -> `node`; the caller has reserved room and `offset` is not in the table.
  void insert(std::uint64_t offset, std::uint32_t node) noexcept {
    place({node, tag_of(offset)});
    ++size_;
  }

  /// Removes the entry of `node`, stored for `offset`.
  void erase(std::uint64_t offset, std::uint32_t node) noexcept {
    std::size_t hole = home(tag_of(offset));
    while (slots_[hole].node != node) hole = (hole + 1) & mask();
    // Backward shift: move up every later entry of the run that may live at the hole.
    for (std::size_t i = (hole + 1) & mask(); slots_[i].node != kNone; i = (i + 1) & mask()) {
      const std::size_t wanted = home(slots_[i].tag);
      if (((i - wanted) & mask()) >= ((i - hole) & mask())) {
        slots_[hole] = slots_[i];
        hole = i;
      }
    }
    slots_[hole].node = kNone;
    --size_;
  }

 private:
  struct Slot {
    std::uint32_t node;
    std::uint32_t tag;
  };

  static std::uint32_t tag_of(std::uint64_t offset) noexcept {
    return static_cast<std::uint32_t>((offset * 0x9E3779B97F4A7C15ull) >> 32);
  }
  std::size_t mask() const noexcept { return slots_.size() - 1; }
  std::size_t home(std::uint32_t tag) const noexcept { return tag >> shift_; }
  void place(Slot slot) noexcept {
    std::size_t i = home(slot.tag);
    while (slots_[i].node != kNone) i = (i + 1) & mask();
    slots_[i] = slot;
  }

  std::vector<Slot> slots_;  // a power of two in size (at most 2^32), or empty
  int shift_ = 32;           // 32 - log2(slots_.size())
  std::size_t size_ = 0;
};

}  // namespace quadpool::memory::detail
