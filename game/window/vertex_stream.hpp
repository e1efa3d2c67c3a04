#pragma once
/// VertexStream: the demo's per-frame vertex data, carved out of one large buffer by a
/// DeferredOffsetAllocator, the way a GPU renderer streams into a mapped vertex buffer.
///
/// Every batch (a run of sprites, the tree's lines, the highlights) allocates its own range,
/// writes its vertices there and is drawn from it. At the end of the frame every range of that
/// frame is freed *with the frame number*, by the handle its allocation carries (no lookup by
/// offset); it returns to the allocator only once
/// kFramesInFlight frames have passed, which is when a GPU would have finished reading it. SDL's
/// renderer copies vertices when they are queued, so nothing here would break if ranges were
/// reused at once: the deferral is what the real render path of an engine needs, exercised
/// under real load, and the overlay shows its cost (stale bytes) and its fragmentation.
///
/// The buffer grows (doubling, by DeferredOffsetAllocator::extend, so live offsets stay valid)
/// when a frame needs more than it has. No SDL types: the vertex layout is SDL_Vertex's, checked
/// by a static_assert where SDL is included.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "engine/memory/offset_allocator.hpp"

namespace quadpool::game::window {

/// Layout-compatible with SDL_Vertex: position in pixels, RGBA colour, texture coordinate.
struct Vertex {
  float x, y;
  std::uint8_t r, g, b, a;
  float u, v;
};

/// One range of the buffer as the overlay draws it.
struct StreamRange {
  std::uint64_t offset, size;
  std::uint64_t frame;  // the frame that wrote it
  bool stale;           // freed, waiting for its frame to complete
};

struct VertexStreamStats {
  std::uint64_t capacity_bytes = 0;
  std::uint64_t frame_bytes = 0;  // allocated by the current (or last) frame
  std::uint64_t stale_bytes = 0;  // freed by earlier frames, not yet released
  std::uint64_t free_bytes = 0;
  std::uint64_t largest_free_block = 0;
  std::size_t free_blocks = 0;
  std::size_t batches = 0;  // ranges allocated by the current (or last) frame
  std::uint64_t grows = 0;  // times the buffer had to grow
  /// 1 - largest_free_block / free_bytes: 0 when the free space is one block.
  double fragmentation() const noexcept;
};

class VertexStream {
 public:
  /// Frames whose ranges may still be read: the frame being built and the two before it.
  static constexpr std::uint64_t kFramesInFlight = 3;
  /// Every range starts at a multiple of this (a cache line, as a GPU buffer would want).
  static constexpr std::uint64_t kRangeAlignment = 64;

  /// A buffer of `initial_vertices` vertices (at least one).
  explicit VertexStream(std::size_t initial_vertices);

  /// Starts frame `frame` (frame numbers never decrease): releases the ranges of every frame
  /// that is no longer in flight.
  void begin_frame(std::uint64_t frame);

  /// A range of `count` vertices for one batch of the current frame, valid until the next
  /// allocate() (which may grow the buffer and move it). Grows the buffer when no free block
  /// fits. count == 0 gives an empty span.
  std::span<Vertex> allocate(std::size_t count);

  /// Frees every range of the current frame, deferred until the frame completes.
  void end_frame();

  VertexStreamStats stats() const noexcept;

  /// Calls f(const StreamRange&) for every range not yet released, oldest frame first. For the
  /// overlay's bar; allocation-free.
  template <class F>
  void for_each_range(F&& f) const {
    for (const StreamRange& range : ranges_) f(range);
  }

  /// Calls f(offset, size) for every free block, in offset order.
  template <class F>
  void for_each_free_block(F&& f) const {
    allocator_.allocator().for_each_free_block(f);
  }

 private:
  void grow(std::uint64_t at_least_bytes);

  memory::DeferredOffsetAllocator allocator_;
  std::unique_ptr<std::byte[]> buffer_;  // capacity bytes, aligned for Vertex
  std::uint64_t capacity_;
  std::uint64_t frame_ = 0;
  std::uint64_t frame_bytes_ = 0;
  std::size_t frame_batches_ = 0;
  std::uint64_t grows_ = 0;
  // Live and stale ranges in allocation order; the current frame's are at the back. Used for
  // the deferred frees and for drawing.
  std::vector<StreamRange> ranges_;
  // The current frame's allocations, kept whole: their handles are what end_frame frees.
  std::vector<memory::OffsetAllocation> frame_allocations_;
};

}  // namespace quadpool::game::window
