#include "engine/memory/pool_allocator.hpp"

#include <algorithm>
#include <bit>
#include <limits>
#include <stdexcept>
#include <string>

#include "engine/core/log.hpp"
#include "engine/core/str_cat.hpp"

namespace quadpool::memory {
namespace {

constexpr std::size_t kNpos = std::numeric_limits<std::size_t>::max();
// Bytes allocated past the last block of every chunk. With them no chunk can start right where
// another's last block ends, so deallocate() can tell that a block is in the newest chunk from
// `block + block_size == bump_next_` alone, without a second compare against the chunk's start.
constexpr std::size_t kChunkPadding = 1;

std::size_t round_up(std::size_t value, std::size_t alignment) {
  return (value + alignment - 1) & ~(alignment - 1);
}

}  // namespace

PoolAllocator::PoolAllocator(const PoolConfig& config)
    : blocks_per_chunk_(config.blocks_per_chunk), growth_(config.growth) {
  if (config.block_size == 0) {
    throw std::invalid_argument("PoolConfig::block_size is 0; it must be at least 1 byte");
  }
  if (config.blocks_per_chunk == 0) {
    throw std::invalid_argument("PoolConfig::blocks_per_chunk is 0; it must be at least 1");
  }
  if (config.alignment == 0 || !std::has_single_bit(config.alignment) ||
      config.alignment > kMaxAlignment) {
    throw std::invalid_argument(str_cat("PoolConfig::alignment is ", config.alignment,
                                        "; it must be a power of two from 1 to ", kMaxAlignment));
  }
  // A free block holds the free-list link, so it must be big and aligned enough for a pointer.
  alignment_ = std::max(config.alignment, alignof(FreeBlock));
  constexpr std::size_t kMaxBlockSize = std::numeric_limits<std::size_t>::max() / 2;
  if (config.block_size > kMaxBlockSize) {
    throw std::invalid_argument(str_cat("PoolConfig::block_size is ", config.block_size,
                                        "; it must be at most ", kMaxBlockSize));
  }
  block_size_ = round_up(std::max(config.block_size, kMinBlockSize), alignment_);
  chunk_alignment_ = std::max<std::size_t>(alignment_, 64);
  if (blocks_per_chunk_ > (std::numeric_limits<std::size_t>::max() - kChunkPadding) / block_size_) {
    throw std::invalid_argument(
        str_cat("PoolConfig: a chunk of ", blocks_per_chunk_, " blocks of ", block_size_,
                " bytes overflows the address space; use fewer blocks per chunk"));
  }
  chunk_bytes_ = blocks_per_chunk_ * block_size_;
  if (growth_ == Growth::Fixed && !add_chunk()) throw std::bad_alloc();
}

PoolAllocator::~PoolAllocator() {
  const std::size_t live = blocks_in_use();
  if constexpr (debug::kLeakCheck) {
    QUADPOOL_ASSERT(live == 0,
                    str_cat("pool destroyed with ", live, " live block(s) of ", block_size_,
                            " bytes: a leak (every allocate needs a deallocate)")
                        .c_str());
  } else if (live != 0) {
    log_message(LogLevel::Warning,
                str_cat("pool destroyed with ", live, " live block(s) of ", block_size_, " bytes"));
  }
  for (Chunk& chunk : chunks_) {
    debug::unpoison(chunk.begin, chunk_bytes_);
    ::operator delete (chunk.begin, std::align_val_t{chunk_alignment_});
  }
}

bool PoolAllocator::add_chunk() noexcept {
  std::byte* begin;
  try {
    // Reserve first, so that no push_back below can throw after the chunk is allocated.
    if (chunks_.size() == chunks_.capacity()) {
      chunks_.reserve(std::max<std::size_t>(8, 2 * chunks_.size()));
      chunks_by_address_.reserve(chunks_.capacity());
    }
    begin = static_cast<std::byte*>(
        ::operator new (chunk_bytes_ + kChunkPadding, std::align_val_t{chunk_alignment_}));
  } catch (const std::bad_alloc&) {
    return false;
  }
  Chunk chunk{begin, nullptr};
  if constexpr (debug::kSlotState) {
    chunk.slot_state.reset(new (std::nothrow) BlockState[blocks_per_chunk_]);
    if (chunk.slot_state == nullptr) {
      ::operator delete (begin, std::align_val_t{chunk_alignment_});
      return false;
    }
    std::fill_n(chunk.slot_state.get(), blocks_per_chunk_, BlockState::NeverUsed);
  }
  if constexpr (debug::kFill) std::memset(begin, debug::kFreshFill, chunk_bytes_);
  debug::poison(begin, chunk_bytes_);
  chunks_.push_back(std::move(chunk));
  const auto position =
      std::upper_bound(chunks_by_address_.begin(), chunks_by_address_.end(), begin,
                       [this](const std::byte* p, std::size_t i) { return p < chunks_[i].begin; });
  chunks_by_address_.insert(position, chunks_.size() - 1);
  // A chunk is added only when the free list is empty and every block of the others is live.
  enter_chunk(chunks_.size() - 1, begin, begin);
  return true;
}

void PoolAllocator::enter_chunk(std::size_t index, std::byte* next,
                                std::byte* newest_mark) noexcept {
  std::byte* const begin = chunks_[index].begin;
  newest_high_mark_ = newest_mark;
  bump_chunk_ = index;
  bump_next_ = next;
  bump_end_ = begin + chunk_bytes_;
  high_mark_ = index + 1 == chunks_.size() ? newest_mark : bump_end_;
  bump_origin_ = reinterpret_cast<std::uintptr_t>(begin) - index * chunk_bytes_;
}

void PoolAllocator::rewind() noexcept {
  // The blocks keep their state (free, poisoned, slot state Free); only the way back to them
  // changes, from the list to the bump pointer.
  free_list_head_ = nullptr;
  free_bytes_ = 0;
  enter_chunk(0, chunks_[0].begin, newest_high_mark());
}

// The bump pointer is at the end of its chunk and the free list is empty.
void* PoolAllocator::allocate_slow() noexcept {
  if (bump_chunk_ + 1 < chunks_.size()) {
    // Into the next chunk, which LIFO frees or a rewind had un-bumped.
    enter_chunk(bump_chunk_ + 1, chunks_[bump_chunk_ + 1].begin, newest_high_mark());
  } else if (growth_ == Growth::Fixed || !add_chunk()) {
    return nullptr;
  }
  void* block = bump_next_;
  bump_next_ += block_size_;
  high_mark_ = std::max(high_mark_, bump_next_);
  debug::unpoison(block, block_size_);
  return block;
}

bool PoolAllocator::unbump_into_previous_chunk(std::byte* block) noexcept {
  if (bump_chunk_ == 0) return false;
  std::byte* const previous_end = chunks_[bump_chunk_ - 1].begin + chunk_bytes_;
  if (block + block_size_ != previous_end) return false;
  enter_chunk(bump_chunk_ - 1, block, newest_high_mark());
  return true;
}

std::size_t PoolAllocator::find_chunk(const void* p) const noexcept {
  const auto* byte = static_cast<const std::byte*>(p);
  // The last chunk whose begin is <= p is the only one that can hold p.
  auto it =
      std::upper_bound(chunks_by_address_.begin(), chunks_by_address_.end(), byte,
                       [this](const std::byte* q, std::size_t i) { return q < chunks_[i].begin; });
  if (it == chunks_by_address_.begin()) return kNpos;
  const std::size_t index = *(it - 1);
  const std::byte* begin = chunks_[index].begin;
  // Compare as integers: p may point anywhere, and pointer comparison across objects is
  // unspecified.
  const auto offset =
      reinterpret_cast<std::uintptr_t>(byte) - reinterpret_cast<std::uintptr_t>(begin);
  return offset < chunk_bytes_ ? index : kNpos;
}

bool PoolAllocator::owns(const void* p) const noexcept {
  return find_chunk(p) != kNpos;
}

void PoolAllocator::on_allocate_checked(void* block) noexcept {
  if constexpr (debug::kSlotState) {
    const std::size_t index = find_chunk(block);
    const Chunk& chunk = chunks_[index];
    const std::size_t slot =
        static_cast<std::size_t>(static_cast<std::byte*>(block) - chunk.begin) / block_size_;
    QUADPOOL_ASSERT(chunk.slot_state[slot] != BlockState::Live,
                    "pool free list handed out a live block: the free list is corrupt "
                    "(a write through a dangling pointer?)");
    chunk.slot_state[slot] = BlockState::Live;
  }
  if constexpr (debug::kFill) std::memset(block, debug::kFreshFill, block_size_);
}

void PoolAllocator::on_deallocate_checked(void* block) noexcept {
  if constexpr (debug::kPointerChecks || debug::kSlotState) {
    const std::size_t index = find_chunk(block);
    QUADPOOL_ASSERT(index != kNpos, "deallocate: pointer does not belong to this pool");
    const Chunk& chunk = chunks_[index];
    const auto offset = static_cast<std::size_t>(static_cast<std::byte*>(block) - chunk.begin);
    QUADPOOL_ASSERT(offset % block_size_ == 0,
                    "deallocate: pointer is misaligned, it is inside a block, not at its start");
    if constexpr (debug::kSlotState) {
      BlockState& state = chunk.slot_state[offset / block_size_];
      QUADPOOL_ASSERT(state != BlockState::Free, "deallocate: double free of a pool block");
      QUADPOOL_ASSERT(state != BlockState::NeverUsed,
                      "deallocate: block was never allocated from this pool");
      state = BlockState::Free;
    }
  }
  if constexpr (debug::kFill) std::memset(block, debug::kFreedFill, block_size_);
}

// Every block handed out (below the bump pointer, in chunk order) is either live or on the free
// list, and the free list holds no other block: un-bumping needs an empty free list and passes a
// live block, and a rewind empties the list.
std::size_t PoolAllocator::blocks_in_use() const noexcept {
  return (handed_out_bytes() - free_bytes_) / block_size_;
}

std::size_t PoolAllocator::blocks_before(std::size_t chunk, const std::byte* mark) const noexcept {
  return chunk * blocks_per_chunk_ +
         static_cast<std::size_t>(mark - chunks_[chunk].begin) / block_size_;
}

std::byte* PoolAllocator::newest_high_mark() const noexcept {
  return bump_chunk_ + 1 == chunks_.size() ? high_mark_ : newest_high_mark_;
}

PoolStats PoolAllocator::stats() const noexcept {
  const std::size_t chunks = chunks_.size();
  const std::size_t in_use = blocks_in_use();
  return PoolStats{
      .block_size = block_size_,
      .alignment = alignment_,
      .blocks_in_use = in_use,
      .capacity = chunks * blocks_per_chunk_,
      .chunks = chunks,
      .high_water = chunks == 0 ? 0 : blocks_before(chunks - 1, newest_high_mark()),
      .total_allocations = total_deallocations_ + in_use,
      .total_deallocations = total_deallocations_,
      .bytes_reserved = chunks * chunk_bytes_,
  };
}

void PoolAllocator::chunk_block_states(std::size_t chunk, std::span<BlockState> out) const {
  if (chunk >= chunks_.size()) {
    throw std::out_of_range(str_cat("chunk_block_states: chunk ", chunk, " of a pool with ",
                                    chunks_.size(), " chunk(s)"));
  }
  if (out.size() < blocks_per_chunk_) {
    throw std::invalid_argument(str_cat("chunk_block_states: output holds ", out.size(),
                                        " entries, the chunk has ", blocks_per_chunk_, " blocks"));
  }
  const std::byte* begin = chunks_[chunk].begin;
  // Live (or on the free list) up to `handed_out`, un-bumped (Free) up to `ever_used`, then
  // never used; see the ranges beside the members.
  const auto blocks_to = [&](const std::byte* mark) {
    return static_cast<std::size_t>(mark - begin) / block_size_;
  };
  std::size_t handed_out = blocks_per_chunk_;
  std::size_t ever_used = blocks_per_chunk_;
  if (chunk == bump_chunk_) {
    handed_out = blocks_to(bump_next_);
    ever_used = blocks_to(high_mark_);
  } else if (chunk > bump_chunk_) {
    handed_out = 0;
    if (chunk + 1 == chunks_.size()) ever_used = blocks_to(newest_high_mark_);
  }
  const auto at = [&out](std::size_t i) { return out.begin() + static_cast<std::ptrdiff_t>(i); };
  std::fill(at(0), at(handed_out), BlockState::Live);
  std::fill(at(handed_out), at(ever_used), BlockState::Free);
  std::fill(at(ever_used), at(blocks_per_chunk_), BlockState::NeverUsed);
  for (const FreeBlock* block = free_list_head_; block != nullptr; block = read_link(block)) {
    const auto offset =
        reinterpret_cast<std::uintptr_t>(block) - reinterpret_cast<std::uintptr_t>(begin);
    if (offset < chunk_bytes_) out[offset / block_size_] = BlockState::Free;
  }
}

}  // namespace quadpool::memory
