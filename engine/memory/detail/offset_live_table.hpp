#pragma once
// OffsetAllocator's table of live ranges (an implementation detail of offset_allocator.hpp): the
// node of each live range by its offset, so that free(offset, size) finds its block in O(1)
// without a search tree. Open addressing with linear probing, at most half full, Fibonacci
// hashing; erase shifts the following entries back, so there are no tombstones and a steady
// mix of inserts and erases never needs a rehash.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace quadpool::memory::detail {

class OffsetLiveTable {
 public:
  static constexpr std::uint32_t kNone = ~std::uint32_t{0};

  std::size_t size() const noexcept { return size_; }

  /// The node stored for `offset`, or kNone.
  std::uint32_t find(std::uint64_t offset) const noexcept {
    if (slots_.empty()) return kNone;
    for (std::size_t i = home(offset);; i = (i + 1) & mask()) {
      const Slot& slot = slots_[i];
      if (slot.node == kNone || slot.offset == offset) return slot.node;
    }
  }

  /// Makes room for `count` entries, so that inserting up to that many cannot allocate. May
  /// throw std::bad_alloc, leaving the table as it was.
  void reserve(std::size_t count) {
    if (2 * count <= slots_.size()) return;
    std::size_t grown = 16;
    int bits = 4;
    while (grown < 2 * count) grown *= 2, ++bits;
    std::vector<Slot> old(grown, Slot{0, kNone});
    old.swap(slots_);
    shift_ = 64 - bits;
    for (const Slot& slot : old) {
      if (slot.node != kNone) place(slot);
    }
  }

  /// Adds `offset` -> `node`; the caller has reserved room and `offset` is not in the table.
  void insert(std::uint64_t offset, std::uint32_t node) noexcept {
    place({offset, node});
    ++size_;
  }

  /// Removes `offset`, which is in the table.
  void erase(std::uint64_t offset) noexcept {
    std::size_t hole = home(offset);
    while (slots_[hole].offset != offset || slots_[hole].node == kNone) hole = (hole + 1) & mask();
    // Backward shift: move up every later entry of the run that may live at the hole.
    for (std::size_t i = (hole + 1) & mask(); slots_[i].node != kNone; i = (i + 1) & mask()) {
      const std::size_t wanted = home(slots_[i].offset);
      if (((i - wanted) & mask()) >= ((i - hole) & mask())) {
        slots_[hole] = slots_[i];
        hole = i;
      }
    }
    slots_[hole].node = kNone;
    --size_;
  }

  /// Calls f(offset, node) for every entry, in no particular order.
  template <class F>
  void for_each(F&& f) const {
    for (const Slot& slot : slots_) {
      if (slot.node != kNone) f(slot.offset, slot.node);
    }
  }

 private:
  struct Slot {
    std::uint64_t offset;
    std::uint32_t node;
  };

  std::size_t mask() const noexcept { return slots_.size() - 1; }
  std::size_t home(std::uint64_t offset) const noexcept {
    return static_cast<std::size_t>((offset * 0x9E3779B97F4A7C15ull) >> shift_);
  }
  void place(Slot slot) noexcept {
    std::size_t i = home(slot.offset);
    while (slots_[i].node != kNone) i = (i + 1) & mask();
    slots_[i] = slot;
  }

  std::vector<Slot> slots_;  // a power of two in size, or empty
  int shift_ = 64;           // 64 - log2(slots_.size())
  std::size_t size_ = 0;
};

}  // namespace quadpool::memory::detail
