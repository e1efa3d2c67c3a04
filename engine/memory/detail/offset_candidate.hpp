#pragma once
// OffsetAllocator's order of free blocks (an implementation detail of offset_allocator.hpp): the
// (size, offset) comparison the searches and the bins share, and a search's best block so far,
// which the searches return so that allocate() knows the block's key before it loads its node.

#include <cstdint>

#include "engine/memory/offset_allocator.hpp"

namespace quadpool::memory {
namespace detail {

// Bytes from `offset` up to the next multiple of `alignment`. Never overflows, unlike rounding
// offset + alignment - 1 down.
inline std::uint64_t padding_for(std::uint64_t offset, std::uint64_t alignment) noexcept {
  const std::uint64_t misalignment = offset & (alignment - 1);
  return misalignment == 0 ? 0 : alignment - misalignment;
}

// The (size, offset) order of free blocks, on keys read from a bin's inline entry or a node.
// Bitwise, not short-circuit: the search compares blocks in an order no predictor can learn, and
// selects the winner with conditional moves rather than branches.
inline bool key_less(std::uint64_t size_a, std::uint64_t offset_a, std::uint64_t size_b,
                     std::uint64_t offset_b) noexcept {
  return (size_a < size_b) | ((size_a == size_b) & (offset_a < offset_b));
}

}  // namespace detail

// The best candidate of a search so far: its node and its key. It starts past every block, so
// that any eligible block beats it.
struct OffsetAllocator::Candidate {
  std::uint32_t node = kNil;
  std::uint64_t size = ~std::uint64_t{0};
  std::uint64_t offset = ~std::uint64_t{0};

  bool found() const noexcept { return node != kNil; }
  // Takes the block when it is `eligible` and comes first in (size, offset) order.
  void consider(bool eligible, std::uint32_t other, std::uint64_t other_size,
                std::uint64_t other_offset) noexcept {
    const bool take = eligible & detail::key_less(other_size, other_offset, size, offset);
    node = take ? other : node;
    size = take ? other_size : size;
    offset = take ? other_offset : offset;
  }
};

}  // namespace quadpool::memory
