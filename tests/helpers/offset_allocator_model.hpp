#pragma once
// A deliberately simple reference model of OffsetAllocator, and a driver that applies the same
// random operations to a DeferredOffsetAllocator and to the model and compares them after every
// step. The differential test feeds it a seeded Random; the fuzz target feeds it fuzzer bytes.
//
// The model shares no idea with the allocator: it keeps the occupied ranges (live or waiting for
// their frame) in a sorted vector, and free space is whatever they leave uncovered. There is no
// merging to get wrong, and best fit is a linear scan over the gaps.
//
// Sections: OffsetAllocatorModel (the reference), OffsetAllocatorDifferential (the driver),
// ByteChoices and run_offset_allocator_input (the fuzz target's entry, also replayed by tests).

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "engine/memory/offset_allocator.hpp"

namespace quadpool::test {

struct ModelRange {
  std::uint64_t offset;
  std::uint64_t size;
  std::uint64_t end() const { return offset + size; }
  friend bool operator==(const ModelRange&, const ModelRange&) = default;
};

class OffsetAllocatorModel {
 public:
  explicit OffsetAllocatorModel(std::uint64_t capacity) : capacity_(capacity) {}

  std::uint64_t capacity() const { return capacity_; }
  void extend(std::uint64_t bytes) { capacity_ += bytes; }

  std::uint64_t occupied_bytes() const {
    std::uint64_t sum = 0;
    const std::size_t count = occupied_.size();
    for (std::size_t i = 0; i < count; ++i) sum += occupied_.data()[i].size;
    return sum;
  }

  /// The free ranges in offset order: every gap between occupied ranges.
  void gaps(std::vector<ModelRange>& out) const {
    // Index loops over data(): this runs every step, also in unoptimised sanitizer builds.
    out.clear();
    std::uint64_t cursor = 0;
    const ModelRange* occupied = occupied_.data();
    const std::size_t count = occupied_.size();
    for (std::size_t i = 0; i < count; ++i) {
      if (occupied[i].offset > cursor) out.push_back({cursor, occupied[i].offset - cursor});
      cursor = occupied[i].offset + occupied[i].size;
    }
    if (capacity_ > cursor) out.push_back({cursor, capacity_ - cursor});
  }

  /// Best fit by brute force: the smallest gap with room for `size` bytes at a multiple of
  /// `alignment`, the first (lowest) such gap on a tie; the aligned offset, or kNoSpace.
  std::uint64_t best_fit(std::uint64_t size, std::uint64_t alignment) const {
    std::uint64_t best_offset = memory::kNoSpace;
    std::uint64_t best_gap = std::numeric_limits<std::uint64_t>::max();
    std::uint64_t cursor = 0;
    auto consider = [&](std::uint64_t start, std::uint64_t end) {
      if (start >= end) return;
      const std::uint64_t aligned = (start + alignment - 1) / alignment * alignment;
      if (aligned < end && end - aligned >= size && end - start < best_gap) {
        best_gap = end - start;
        best_offset = aligned;
      }
    };
    const ModelRange* occupied = occupied_.data();
    const std::size_t count = occupied_.size();
    for (std::size_t i = 0; i < count; ++i) {
      consider(cursor, occupied[i].offset);
      cursor = occupied[i].offset + occupied[i].size;
    }
    consider(cursor, capacity_);
    return best_offset;
  }

  /// Marks `r` occupied; false when it is empty, passes the capacity or overlaps an occupied
  /// range (two live ranges would overlap).
  bool occupy(ModelRange r) {
    if (r.size == 0 || r.end() > capacity_) return false;
    const auto at =
        std::lower_bound(occupied_.begin(), occupied_.end(), r.offset,
                         [](const ModelRange& x, std::uint64_t o) { return x.offset < o; });
    if (at != occupied_.end() && at->offset < r.end()) return false;
    if (at != occupied_.begin() && std::prev(at)->end() > r.offset) return false;
    occupied_.insert(at, r);
    return true;
  }

  /// Frees exactly one occupied range; false when no occupied range is exactly `r`.
  bool vacate(ModelRange r) {
    const auto at = std::find(occupied_.begin(), occupied_.end(), r);
    if (at == occupied_.end()) return false;
    occupied_.erase(at);
    return true;
  }

 private:
  std::uint64_t capacity_;
  std::vector<ModelRange> occupied_;  // sorted by offset, disjoint
};

/// Where the driver's choices come from.
template <class T>
concept ChoiceSource = requires(T source, std::uint64_t bound) {
  { source.below(bound) } -> std::convertible_to<std::uint64_t>;
};

/// How the differential returns ranges at once: always by handle, or by handle or by offset and
/// size, one or the other at random (the first free by offset builds the allocator's live
/// table, so both kinds of run are needed to cover the handle path with and without it).
enum class FreeBy { kHandle, kHandleOrOffset };

/// Runs random operations on a DeferredOffsetAllocator and the model side by side. Every method
/// returns "" when both agree, or a description of the first disagreement.
class OffsetAllocatorDifferential {
 public:
  struct Counts {
    std::uint64_t allocations = 0, failed_allocations = 0, aligned_allocations = 0, frees = 0,
                  offset_frees = 0, deferred_frees = 0, releases = 0, extends = 0;
  };

  /// Every size, alignment and extension that the driver picks is a multiple of `unit` (a power
  /// of two): with a unit of 2^30 the same mix runs on ranges of gigabytes to terabytes, whose
  /// bins never hold an inline entry.
  OffsetAllocatorDifferential(std::uint64_t capacity, std::uint64_t max_capacity,
                              std::uint64_t unit = 1, FreeBy free_by = FreeBy::kHandleOrOffset)
      : allocator_(capacity),
        model_(capacity),
        max_capacity_(max_capacity),
        unit_(unit),
        free_by_(free_by) {}

  const memory::DeferredOffsetAllocator& allocator() const { return allocator_; }
  const Counts& counts() const { return counts_; }

  /// One random operation, then check().
  template <ChoiceSource Source>
  std::string step(Source& choices) {
    // Every choice is drawn in its own statement: the order of evaluation of function arguments
    // differs between GCC and clang, and a seed must replay the same run on both.
    std::string error;
    const std::uint64_t capacity = model_.capacity();
    // Out of 20: 8 allocate, 4 free, 3 deferred free, 2 end of frame, 1 extend, 1 allocate
    // that is often too big, 1 allocate with a large alignment.
    const std::uint64_t roll = choices.below(20);
    if (roll < 8) {
      const std::uint64_t size = unit_ * pick_size(choices);
      error = allocate(size, unit_ * pick_alignment(choices));
    } else if (roll < 12) {
      error = free_now(choices);
    } else if (roll < 15) {
      error = free_deferred(choices);
    } else if (roll < 17) {
      error = end_frame(choices);
    } else if (roll == 17) {
      if (capacity < max_capacity_) {
        const std::uint64_t bytes = unit_ * (1 + choices.below(256));
        allocator_.extend(bytes);
        model_.extend(bytes);
        ++counts_.extends;
      }
    } else if (roll == 18) {  // failures must agree too
      const std::uint64_t size = 1 + choices.below(capacity + 1);
      error = allocate(size, unit_ * pick_alignment(choices));
    } else {  // where the smallest big-enough block may not fit once padded
      const std::uint64_t size = unit_ * (1 + choices.below(64));
      error = allocate(size, unit_ << choices.below(13));
    }
    return error.empty() ? check() : error;
  }

  /// Compares everything observable; validate() fires QUADPOOL_ASSERT on a broken invariant.
  std::string check() {
    const memory::OffsetAllocator& a = allocator_.allocator();
    a.validate();
    model_.gaps(expected_);
    const ModelRange* gaps = expected_.data();
    const std::size_t gap_count = expected_.size();
    std::size_t matched = 0;
    bool same = true;
    std::uint64_t largest = 0;  // of the model's gaps, once `same` holds
    a.for_each_free_block([&](std::uint64_t offset, std::uint64_t size) {
      same = same && matched < gap_count && gaps[matched].offset == offset &&
             gaps[matched].size == size;
      largest = std::max(largest, size);
      ++matched;
    });
    if (!same || matched != gap_count) {
      return "the free blocks differ from the model's gaps: " + describe();
    }
    std::uint64_t stale = 0;
    for (std::size_t i = 0; i < pending_.size(); ++i) stale += pending_.data()[i].range.size;
    if (a.capacity() != model_.capacity()) return "capacity differs";
    if (a.free_size() != model_.capacity() - model_.occupied_bytes()) {
      return fmt::format("free_size {} != capacity - live - stale = {}", a.free_size(),
                         model_.capacity() - model_.occupied_bytes());
    }
    if (a.free_block_count() != gap_count) return "free_block_count differs";
    if (a.largest_free_block() != largest) {
      return fmt::format("largest_free_block {} != {}", a.largest_free_block(), largest);
    }
    if (allocator_.stale_size() != stale || allocator_.stale_count() != pending_.size()) {
      return fmt::format("stale {} bytes in {} frees, the model has {} in {}",
                         allocator_.stale_size(), allocator_.stale_count(), stale, pending_.size());
    }
    return {};
  }

  /// The closing check: free everything, release every frame, then the whole capacity must come
  /// back as one allocation at offset 0.
  std::string finish() {
    for (const memory::OffsetAllocation& a : live_) {
      allocator_.free_now(a);
      if (!model_.vacate({a.offset, a.size})) return "model lost a live range";
    }
    live_.clear();
    allocator_.release_completed_frames(std::numeric_limits<std::uint64_t>::max());
    for (const Pending& p : pending_) {
      if (!model_.vacate(p.range)) return "model lost a pending range";
    }
    pending_.clear();
    if (std::string error = check(); !error.empty()) return error;
    const std::uint64_t capacity = model_.capacity();
    if (capacity == 0) return {};
    const memory::OffsetAllocation whole = allocator_.allocate(capacity);
    if (whole.offset != 0 || whole.size != capacity) {
      return fmt::format("after freeing everything, allocate(capacity {}) returned {{{}, {}}}",
                         capacity, whole.offset, whole.size);
    }
    allocator_.free_now(whole);
    return check();
  }

 private:
  struct Pending {
    std::uint64_t frame;
    ModelRange range;
  };

  template <ChoiceSource Source>
  static std::uint64_t pick_size(Source& choices) {
    switch (choices.below(4)) {
      case 0:
        return 1 + choices.below(8);
      case 1:
        return 1 + choices.below(64);
      case 2:
        return 1 + choices.below(256);
      default:
        return 1 + choices.below(1024);
    }
  }

  template <ChoiceSource Source>
  static std::uint64_t pick_alignment(Source& choices) {
    return choices.below(2) == 0 ? 1 : std::uint64_t{1} << choices.below(9);
  }

  std::string allocate(std::uint64_t size, std::uint64_t alignment) {
    const std::uint64_t expected = model_.best_fit(size, alignment);
    const memory::OffsetAllocation got = allocator_.allocate(size, alignment);
    if (got.offset != expected) {
      return fmt::format(
          "allocate(size {}, alignment {}) returned offset {}, the model's best fit "
          "is {} ({})",
          size, alignment, got.offset, expected, describe());
    }
    if (got.offset == memory::kNoSpace) {
      ++counts_.failed_allocations;
      return got.size == 0 ? "" : "a failed allocation has a size";
    }
    if (got.size != size || got.offset % alignment != 0)
      return "allocation has a wrong size or alignment";
    if (!model_.occupy({got.offset, got.size})) {
      return fmt::format("allocation [{}, +{}) overlaps a live range or passes the capacity",
                         got.offset, got.size);
    }
    live_.push_back(got);
    ++counts_.allocations;
    if (alignment > 1) ++counts_.aligned_allocations;
    return {};
  }

  template <ChoiceSource Source>
  memory::OffsetAllocation take_live(Source& choices) {
    const std::size_t index = static_cast<std::size_t>(choices.below(live_.size()));
    const memory::OffsetAllocation r = live_[index];
    live_[index] = live_.back();
    live_.pop_back();
    return r;
  }

  template <ChoiceSource Source>
  std::string free_now(Source& choices) {
    if (live_.empty()) return {};
    const memory::OffsetAllocation r = take_live(choices);
    if (free_by_ == FreeBy::kHandleOrOffset && choices.below(2) == 1) {
      allocator_.free_now(r.offset, r.size);
      ++counts_.offset_frees;
    } else {
      allocator_.free_now(r);
    }
    ++counts_.frees;
    return model_.vacate({r.offset, r.size}) ? "" : "model lost a live range";
  }

  template <ChoiceSource Source>
  std::string free_deferred(Source& choices) {
    if (live_.empty()) return {};
    const memory::OffsetAllocation r = take_live(choices);
    // Mostly the current frame, sometimes an earlier one (out of order).
    const std::uint64_t frame = frame_ - std::min<std::uint64_t>(frame_, choices.below(3));
    allocator_.free(r, frame);
    pending_.push_back({frame, {r.offset, r.size}});
    ++counts_.deferred_frees;
    return {};
  }

  template <ChoiceSource Source>
  std::string end_frame(Source& choices) {
    ++frame_;
    const std::uint64_t completed = frame_ - std::min<std::uint64_t>(frame_, choices.below(4));
    allocator_.release_completed_frames(completed);
    for (std::size_t i = 0; i < pending_.size();) {
      if (pending_[i].frame < completed) {
        if (!model_.vacate(pending_[i].range)) return "model lost a pending range";
        pending_[i] = pending_.back();
        pending_.pop_back();
      } else {
        ++i;
      }
    }
    ++counts_.releases;
    return {};
  }

  std::string describe() const {
    std::string s = "allocator free blocks:";
    allocator_.allocator().for_each_free_block(
        [&s](std::uint64_t o, std::uint64_t z) { s += fmt::format(" [{}, +{})", o, z); });
    std::vector<ModelRange> gaps;
    model_.gaps(gaps);
    s += "; model gaps:";
    for (const ModelRange& g : gaps) s += fmt::format(" [{}, +{})", g.offset, g.size);
    return s;
  }

  memory::DeferredOffsetAllocator allocator_;
  OffsetAllocatorModel model_;
  std::uint64_t max_capacity_;
  std::uint64_t unit_;
  FreeBy free_by_;
  std::uint64_t frame_ = 0;
  std::vector<memory::OffsetAllocation> live_;
  std::vector<Pending> pending_;
  std::vector<ModelRange> expected_;  // scratch for check()
  Counts counts_;
};

/// Choices read from bytes (the fuzzer's input): each takes as many bytes as its bound needs,
/// and zeros once the bytes run out.
class ByteChoices {
 public:
  ByteChoices(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  bool exhausted() const { return position_ >= size_; }

  std::uint64_t below(std::uint64_t bound) {
    if (bound <= 1) return 0;
    std::uint64_t value = 0;
    for (std::uint64_t range = bound - 1; range != 0; range >>= 8) {
      value = (value << 8) | (position_ < size_ ? data_[position_++] : 0u);
    }
    return value % bound;
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t position_ = 0;
};

/// One fuzz input: the first choice sets the capacity, the second whether ranges are freed by
/// handle only or also by offset, then one operation per choice until the bytes run out, then
/// the closing check. Returns "" or the first disagreement, with its step.
inline std::string run_offset_allocator_input(const std::uint8_t* data, std::size_t size) {
  ByteChoices choices(data, size);
  // Small capacities keep the linear model fast and make failures and fragmentation common.
  const std::uint64_t capacity = 1 + choices.below(4096);
  const FreeBy free_by = choices.below(2) == 0 ? FreeBy::kHandle : FreeBy::kHandleOrOffset;
  OffsetAllocatorDifferential run(capacity, 8192, 1, free_by);
  std::size_t step = 0;
  for (; !choices.exhausted(); ++step) {
    if (std::string error = run.step(choices); !error.empty()) {
      return fmt::format("step {}: {}", step, error);
    }
  }
  if (std::string error = run.finish(); !error.empty()) {
    return fmt::format("closing check after {} steps: {}", step, error);
  }
  return {};
}

}  // namespace quadpool::test
