#include "engine/memory/pool_allocator.hpp"

#include <algorithm>
#include <bit>
#include <limits>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "engine/core/log.hpp"

namespace quadpool::memory {
namespace {

constexpr std::size_t kNpos = std::numeric_limits<std::size_t>::max();

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
    throw std::invalid_argument(
        fmt::format("PoolConfig::alignment is {}; it must be a power of two from 1 to {}",
                    config.alignment, kMaxAlignment));
  }
  // A free block holds the free-list link, so it must be big and aligned enough for a pointer.
  alignment_ = std::max(config.alignment, alignof(FreeBlock));
  constexpr std::size_t kMaxBlockSize = std::numeric_limits<std::size_t>::max() / 2;
  if (config.block_size > kMaxBlockSize) {
    throw std::invalid_argument(fmt::format("PoolConfig::block_size is {}; it must be at most {}",
                                            config.block_size, kMaxBlockSize));
  }
  block_size_ = round_up(std::max(config.block_size, kMinBlockSize), alignment_);
  chunk_alignment_ = std::max<std::size_t>(alignment_, 64);
  if (blocks_per_chunk_ > std::numeric_limits<std::size_t>::max() / block_size_) {
    throw std::invalid_argument(
        fmt::format("PoolConfig: a chunk of {} blocks of {} bytes overflows the address space; "
                    "use fewer blocks per chunk",
                    blocks_per_chunk_, block_size_));
  }
  chunk_bytes_ = blocks_per_chunk_ * block_size_;
  if (growth_ == Growth::Fixed && !add_chunk()) throw std::bad_alloc();
}

PoolAllocator::~PoolAllocator() {
  const std::size_t live = blocks_in_use();
  if constexpr (debug::kLeakCheck) {
    QUADPOOL_ASSERT(live == 0, fmt::format("pool destroyed with {} live block(s) of {} bytes: "
                                           "a leak (every allocate needs a deallocate)",
                                           live, block_size_)
                                   .c_str());
  } else if (live != 0) {
    logger().warn("pool destroyed with {} live block(s) of {} bytes", live, block_size_);
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
    begin =
        static_cast<std::byte*>(::operator new (chunk_bytes_, std::align_val_t{chunk_alignment_}));
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
  // Only the newest chunk has never-used blocks: a chunk is added only when all others are full.
  bump_next_ = begin;
  bump_end_ = begin + chunk_bytes_;
  return true;
}

void* PoolAllocator::allocate_slow() noexcept {
  if (growth_ == Growth::Fixed) return nullptr;
  if (!add_chunk()) return nullptr;
  void* block = bump_next_;
  bump_next_ += block_size_;
  debug::unpoison(block, block_size_);
  return block;
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

// Every block ever handed out is either live or on the free list.
std::size_t PoolAllocator::blocks_in_use() const noexcept {
  std::size_t free_blocks = 0;
  for (const FreeBlock* block = free_list_head_; block != nullptr; block = read_link(block)) {
    ++free_blocks;
  }
  return blocks_ever_used() - free_blocks;
}

std::size_t PoolAllocator::blocks_ever_used() const noexcept {
  if (chunks_.empty()) return 0;
  // Every chunk but the newest is fully used; the newest is used up to the bump pointer.
  const std::byte* newest = bump_end_ - chunk_bytes_;
  return (chunks_.size() - 1) * blocks_per_chunk_ +
         static_cast<std::size_t>(bump_next_ - newest) / block_size_;
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
      .high_water = blocks_ever_used(),
      .total_allocations = total_deallocations_ + in_use,
      .total_deallocations = total_deallocations_,
      .bytes_reserved = chunks * chunk_bytes_,
  };
}

void PoolAllocator::chunk_block_states(std::size_t chunk, std::span<BlockState> out) const {
  if (chunk >= chunks_.size()) {
    throw std::out_of_range(fmt::format("chunk_block_states: chunk {} of a pool with {} chunk(s)",
                                        chunk, chunks_.size()));
  }
  if (out.size() < blocks_per_chunk_) {
    throw std::invalid_argument(
        fmt::format("chunk_block_states: output holds {} entries, the chunk has {} blocks",
                    out.size(), blocks_per_chunk_));
  }
  const std::byte* begin = chunks_[chunk].begin;
  std::size_t used = blocks_per_chunk_;
  if (bump_end_ == begin + chunk_bytes_) {
    used = static_cast<std::size_t>(bump_next_ - begin) / block_size_;
  }
  std::fill_n(out.begin(), used, BlockState::Live);
  std::fill(out.begin() + static_cast<std::ptrdiff_t>(used),
            out.begin() + static_cast<std::ptrdiff_t>(blocks_per_chunk_), BlockState::NeverUsed);
  for (const FreeBlock* block = free_list_head_; block != nullptr; block = read_link(block)) {
    const auto offset =
        reinterpret_cast<std::uintptr_t>(block) - reinterpret_cast<std::uintptr_t>(begin);
    if (offset < chunk_bytes_) out[offset / block_size_] = BlockState::Free;
  }
}

}  // namespace quadpool::memory
