#include "game/window/vertex_stream.hpp"

#include <algorithm>
#include <cstring>

#include "engine/core/assert.hpp"
#include "game/util/log.hpp"

namespace quadpool::game::window {

double VertexStreamStats::fragmentation() const noexcept {
  if (free_bytes == 0) return 0.0;
  return 1.0 - static_cast<double>(largest_free_block) / static_cast<double>(free_bytes);
}

namespace {
std::uint64_t bytes_for(std::size_t vertices) {
  return static_cast<std::uint64_t>(vertices) * sizeof(Vertex);
}
}  // namespace

VertexStream::VertexStream(std::size_t initial_vertices)
    : allocator_(bytes_for(std::max<std::size_t>(initial_vertices, 1))),
      buffer_(new std::byte[bytes_for(std::max<std::size_t>(initial_vertices, 1))]),
      capacity_(bytes_for(std::max<std::size_t>(initial_vertices, 1))) {}

void VertexStream::begin_frame(std::uint64_t frame) {
  QUADPOOL_ASSERT(frame >= frame_, "VertexStream frame numbers must not decrease");
  QUADPOOL_ASSERT(frame_allocations_.empty(), "VertexStream::begin_frame without end_frame");
  frame_ = frame;
  frame_bytes_ = 0;
  frame_batches_ = 0;
  // Frames frame - kFramesInFlight + 1 .. frame may still be read; everything before completed.
  if (frame + 1 >= kFramesInFlight) {
    const std::uint64_t completed = frame + 1 - kFramesInFlight;
    allocator_.release_completed_frames(completed);
    const auto first_kept = std::find_if(
        ranges_.begin(), ranges_.end(), [&](const StreamRange& r) { return r.frame >= completed; });
    ranges_.erase(ranges_.begin(), first_kept);
  }
}

std::span<Vertex> VertexStream::allocate(std::size_t count) {
  if (count == 0) return {};
  const std::uint64_t bytes = bytes_for(count);
  memory::OffsetAllocation range = allocator_.allocate(bytes, kRangeAlignment);
  if (range.offset == memory::kNoSpace) {
    grow(bytes + kRangeAlignment);
    range = allocator_.allocate(bytes, kRangeAlignment);
    QUADPOOL_ASSERT(range.offset != memory::kNoSpace, "VertexStream::grow left no room");
  }
  frame_allocations_.push_back(range);
  ranges_.push_back({range.offset, range.size, frame_, false});
  frame_bytes_ += range.size;
  ++frame_batches_;
  // The buffer is an array of bytes aligned for any type; Vertex is an implicit-lifetime type.
  return {reinterpret_cast<Vertex*>(buffer_.get() + range.offset), count};
}

void VertexStream::end_frame() {
  for (const memory::OffsetAllocation& range : frame_allocations_) allocator_.free(range, frame_);
  frame_allocations_.clear();
  for (StreamRange& range : ranges_) range.stale = true;
}

void VertexStream::grow(std::uint64_t at_least_bytes) {
  // A GPU renderer would create a bigger buffer and retire the old one after the frames in
  // flight; on the CPU the old contents are copied, so earlier ranges stay readable in place.
  const std::uint64_t added = std::max(capacity_, at_least_bytes);
  const std::uint64_t new_capacity = capacity_ + added;
  std::unique_ptr<std::byte[]> bigger(new std::byte[new_capacity]);
  std::memcpy(bigger.get(), buffer_.get(), capacity_);
  buffer_ = std::move(bigger);
  allocator_.extend(added);
  capacity_ = new_capacity;
  ++grows_;
  util::logger().info("vertex stream grew to {:.1f} MiB",
                      static_cast<double>(capacity_) / (1 << 20));
}

VertexStreamStats VertexStream::stats() const noexcept {
  VertexStreamStats s;
  const memory::OffsetAllocator& a = allocator_.allocator();
  s.capacity_bytes = capacity_;
  s.frame_bytes = frame_bytes_;
  s.stale_bytes = allocator_.stale_size();
  s.free_bytes = a.free_size();
  s.largest_free_block = a.largest_free_block();
  s.free_blocks = a.free_block_count();
  s.batches = frame_batches_;
  s.grows = grows_;
  return s;
}

}  // namespace quadpool::game::window
