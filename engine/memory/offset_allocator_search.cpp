// OffsetAllocator's best-fit searches: the first free block in (size, offset) order that holds
// a request, found through the bins' bitmap, their inline entries, pending lists and treaps.
#include "engine/memory/offset_allocator.hpp"

#include <cstdint>
#include <vector>

#include "engine/memory/detail/offset_bins.hpp"
#include "engine/memory/detail/offset_candidate.hpp"

namespace quadpool::memory {

using detail::bin_of;

inline OffsetAllocator::Candidate OffsetAllocator::first_in_bin(std::uint32_t bin,
                                                                std::uint64_t size) noexcept {
  // Most searches end at the inline entry: it is smaller than every block in the treap, so when
  // it is big enough and nothing is pending, nothing else in the bin can beat it. Decided here,
  // inline, without a call and without loading a node.
  const Bin& b = bins_[bin];
  Candidate best;
  best.consider((b.has_inline != 0) & (b.inline_size >= size), b.inline_node, b.inline_size,
                b.inline_offset);
  if ((b.pending == kNil) & (best.found() | (b.root == kNil))) [[likely]]
    return best;
  return first_beyond_inline(bin, size);
}

OffsetAllocator::Candidate OffsetAllocator::first_beyond_inline(std::uint32_t bin,
                                                               std::uint64_t size) noexcept {
  Bin& b = bins_[bin];
  // A few pending blocks are cheaper to scan than to sort; more go into the order first (which
  // may change the inline entry).
  if (b.pending_count > kScanLimit) sort_bin(bin);
  Candidate best;
  best.consider((b.has_inline != 0) & (b.inline_size >= size), b.inline_node, b.inline_size,
                b.inline_offset);
  // Every treap key is above the inline entry's: the treap matters only when that entry is
  // missing or too small.
  if (!best.found()) {
    std::uint32_t in_treap = kNil;
    for (std::uint32_t node = b.root; node != kNil;) {
      const bool fits = nodes_[node].size >= size;
      if (fits) in_treap = node;
      node = nodes_[node].child[fits ? 0 : 1];
    }
    if (in_treap != kNil)
      best.consider(true, in_treap, nodes_[in_treap].size, nodes_[in_treap].offset);
  }
  for (std::uint32_t node = b.pending; node != kNil; node = nodes_[node].child[1]) {
    const Node& n = nodes_[node];
    best.consider(n.size >= size, node, n.size, n.offset);
  }
  return best;
}

OffsetAllocator::Candidate OffsetAllocator::find_best_fit(std::uint64_t size,
                                                         std::uint64_t alignment) {
  if (alignment > 1) return find_aligned_fit(size, alignment);
  // Every block of at least `size` bytes holds an unaligned request: the first in (size, offset)
  // order is the best fit. Its own bin holds sizes on both sides of `size`; every later bin
  // holds only larger ones, so there the first block of the first non-empty bin wins.
  // The bitmap, which stays in cache, is asked first: when the request's own bin is empty (54 %
  // of the benchmark's searches at 10k live ranges, 39 % at 100k), its line, which would
  // likely miss the cache, is not loaded, and the search goes straight to the next non-empty bin.
  const std::uint32_t own = bin_of(size);
  if (own >= bins_.size()) return {};  // larger than the capacity: there is no such bin
  std::uint32_t bin = bin_bits_.first_at_or_after(own);
  if (bin == own) {
    if (const Candidate found = first_in_bin(bin, size); found.found()) return found;
    bin = bin_bits_.first_at_or_after(bin + 1);
  }
  return bin == detail::OffsetBinBitmap::kNone ? Candidate{} : first_in_bin(bin, 0);
}

OffsetAllocator::Candidate OffsetAllocator::find_aligned_fit(std::uint64_t size,
                                                            std::uint64_t alignment) {
  // The padding in front of the aligned offset may make a big-enough block too small: walk the
  // (size, offset) order, bin after bin, to the first block that holds the request. The walk
  // inside a bin is in-order with an explicit stack of the nodes still to visit (ancestors
  // entered from the left, deepest last), so each step costs O(1) amortised.
  std::vector<std::uint32_t>& pending = walk_stack_;
  for (std::uint32_t bin = bin_bits_.first_at_or_after(bin_of(size));
       bin != detail::OffsetBinBitmap::kNone; bin = bin_bits_.first_at_or_after(bin + 1)) {
    sort_bin(bin);
    // The inline entry's fit; every treap block comes after it, so the walk below stops at once
    // when it fits.
    const Bin& b = bins_[bin];
    Candidate best;
    if (b.has_inline != 0) {
      const std::uint64_t padding = detail::padding_for(b.inline_offset, alignment);
      best.consider(padding <= b.inline_size && b.inline_size - padding >= size, b.inline_node,
                    b.inline_size, b.inline_offset);
    }
    pending.clear();
    for (std::uint32_t node = bins_[bin].root; node != kNil;) {
      if (nodes_[node].size >= size) {
        pending.push_back(node);
        node = nodes_[node].child[0];
      } else {
        node = nodes_[node].child[1];
      }
    }
    while (!pending.empty()) {
      const std::uint32_t candidate = pending.back();
      pending.pop_back();
      const Node& block = nodes_[candidate];
      if (best.found() && detail::key_less(best.size, best.offset, block.size, block.offset)) break;
      const std::uint64_t padding = detail::padding_for(block.offset, alignment);
      if (padding <= block.size && block.size - padding >= size)
        return {candidate, block.size, block.offset};
      for (std::uint32_t node = block.child[1]; node != kNil; node = nodes_[node].child[0]) {
        pending.push_back(node);
      }
    }
    if (best.found()) return best;
  }
  return {};
}

}  // namespace quadpool::memory
