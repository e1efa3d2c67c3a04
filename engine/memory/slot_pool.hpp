#pragma once
/// SlotPool<T>: objects in pool chunks that never move, reached through generational handles.
///
/// Sections: stats; the class (create, get/at, destroy, for_each, capacity, the allocator
/// switch); the private layout (slots, generation words, live and heap bitmaps, free stack).
///
/// Each object lives in a slot of a chunk. A chunk is one allocation of `slots_per_chunk` slots
/// (a power of two, at least 64) and is never moved or freed while the pool lives, so an
/// object's address is stable. A slot holds a 32-bit generation word in front of the object, on
/// its cache line, so get() checks the handle and reaches the object in one miss; beside the
/// chunks the pool keeps one bit per slot in a live bitmap, the skip field of for_each:
///
///   index i = (chunk << shift) | slot         generation word of a slot:
///   chunks_[chunk] -> |3 T|1 T|2 .|5 T| ...    bit 31: made by new (the slot holds a T*)
///   live_bits_      ->  1   1   0   1  ...     bits 0..30: a counter, odd while live
///   free_ (a stack of free slot indices): 2
///
/// - create(): the slot on top of the free stack (the one freed last, still warm), else the next
///   never-used slot, else a new chunk. The counter steps to the next odd value, the object is
///   constructed in place, and the handle carries {index, generation word}. O(1).
/// - get(h): nullptr unless the slot's generation word equals h's; the word shares the object's
///   cache line, so the check costs no extra miss, and a stale handle never reaches the slot's
///   new occupant. O(1).
/// - destroy(h): false for a stale handle (a double destroy is one); otherwise the counter steps
///   to the next even value, the destructor runs, and the slot goes on the free stack. O(1).
/// - for_each(f): the live bitmap, 64 slots a word, in index order: a pure function of the
///   creates and destroys, so it is deterministic and a hash over it is reproducible. O(slots
///   used / 64 + live).
///
/// Generation wrap: a slot whose counter has reached its last odd value (2^GenerationBits - 1)
/// is retired when that object is destroyed: it never goes back on the free stack, so no
/// handle can ever see a reused generation. GenerationBits (31, the most the word leaves) gives
/// each slot 2^30 lifetimes; a test instantiates the pool with 2 or 3 bits to reach the wrap.
///
/// The allocator switch (set_allocator): in AllocatorKind::NewDelete mode an object is made
/// with `new T` and its slot holds the pointer; the generation word's top bit says so. Objects
/// made before a switch stay where they are, each freed by the allocator that made it, and the
/// handles, get() and for_each() do not change.
///
/// Not thread-safe. Not copyable or movable (handles name this pool's slots).

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#include "engine/core/assert.hpp"
#include "engine/memory/allocator_kind.hpp"
#include "engine/memory/debug.hpp"
#include "engine/memory/handle.hpp"

namespace quadpool::memory {

/// A snapshot of a SlotPool. Plain data; every field exact when read.
struct SlotPoolStats {
  std::size_t live;           ///< objects alive now (pool_live + heap_live)
  std::size_t heap_live;      ///< of them, made by `new` (AllocatorKind::NewDelete)
  std::size_t capacity;       ///< slots in the chunks
  std::size_t chunks;
  std::size_t slots_used;     ///< slots ever handed out: the high-water mark of the index
  std::size_t free_slots;     ///< on the free stack, reused before a never-used slot
  std::size_t retired_slots;  ///< generation exhausted: never reused
  std::size_t slot_size;      ///< bytes per slot: T, or a T* if that is bigger
  std::uint64_t total_creates, total_destroys;
  std::uint64_t stale_destroys;  ///< destroy() calls refused: stale, null or foreign handles
};

template <class T, unsigned GenerationBits = 31>
class SlotPool {
  static_assert(GenerationBits >= 2 && GenerationBits <= 31,
                "a counter needs a live bit and at least one more; bit 31 is the allocator's");
  static_assert(!std::is_reference_v<T> && !std::is_array_v<T> && !std::is_const_v<T>);

 public:
  using value_type = T;
  using handle_type = Handle<T>;
  /// The last odd (live) counter value; destroying an object with it retires its slot.
  static constexpr std::uint32_t kCounterMask = (std::uint32_t{1} << GenerationBits) - 1;
  /// How many objects one slot holds in its life.
  static constexpr std::uint64_t kLifetimesPerSlot = (std::uint64_t{kCounterMask} + 1) / 2;

  /// A pool whose chunks hold `slots_per_chunk` slots, rounded up to a power of two of at least
  /// 64. Allocates nothing until the first create() or reserve().
  explicit SlotPool(std::size_t slots_per_chunk = 1024, AllocatorKind kind = AllocatorKind::Pool)
      : chunk_shift_(static_cast<unsigned>(
            std::countr_zero(std::bit_ceil(std::max<std::size_t>(slots_per_chunk, 64))))),
        kind_(kind) {}

  /// Destroys every live object, each with the allocator that made it, then frees the chunks.
  ~SlotPool() {
    clear();
    for (std::byte* chunk : chunks_) {
      debug::unpoison(chunk, slots_per_chunk() * kSlotSize);
      ::operator delete(chunk, std::align_val_t{kChunkAlign});
    }
  }
  SlotPool(const SlotPool&) = delete;
  SlotPool& operator=(const SlotPool&) = delete;

  /// Constructs T(args...) with the current allocator and returns its handle. O(1); a new chunk
  /// when every slot is taken (std::bad_alloc when none can be had, or past 2^32 slots). If T's
  /// constructor throws, the pool is as it was and the exception propagates. In Pool mode after
  /// reserve(n), the first n live objects cost no heap allocation.
  template <class... Args>
  Handle<T> create(Args&&... args) {
    assert_not_iterating();
    const bool reuse = !free_.empty();
    if (!reuse && slots_used_ == capacity_) add_chunk();
    const std::uint32_t index = reuse ? free_.back() : static_cast<std::uint32_t>(slots_used_);
    std::byte* slot = slot_address(index);
    std::byte* storage = slot + kObjectOffset;
    debug::unpoison(storage, kPayload);
    std::uint32_t generation = (generation_word(slot) & kCounterMask) + 1;  // even -> odd
    if (kind_ == AllocatorKind::Pool) {
      construct_in(storage, std::forward<Args>(args)...);
    } else {
      T* object;
      try {
        object = new T(std::forward<Args>(args)...);
      } catch (...) {
        debug::poison(storage, kPayload);
        throw;
      }
      ::new (static_cast<void*>(storage)) T*(object);
      generation |= kHeapFlag;
      heap_bits_[index >> 6] |= bit_of(index);
      ++heap_live_;
    }
    if (reuse) {
      free_.pop_back();
    } else {
      ++slots_used_;
    }
    generation_word(slot) = generation;
    live_bits_[index >> 6] |= bit_of(index);
    return Handle<T>(index, generation);
  }

  /// The live object `h` names, or nullptr when h is stale (destroyed, even if its slot holds
  /// another object now), null, or not from this pool's slots. O(1).
  T* get(Handle<T> h) noexcept { return const_cast<T*>(std::as_const(*this).get(h)); }
  const T* get(Handle<T> h) const noexcept {
    const std::uint32_t index = h.index();
    if (index >= capacity_) return nullptr;
    const std::byte* slot = slot_address(index);
    const std::uint32_t generation = generation_word(slot);
    if (generation != h.generation()) return nullptr;
    // Tested on the handle's word, known before the slot's arrives: live and pooled is the
    // usual case; an even word (the null handle against a never-used slot) is not live.
    if ((generation & (kHeapFlag | 1u)) == 1u) [[likely]] {
      return std::launder(reinterpret_cast<const T*>(slot + kObjectOffset));
    }
    if ((generation & 1u) == 0) return nullptr;
    return object_at(slot + kObjectOffset, generation);
  }

  /// The live object `h` names, for a caller that knows it is live: asserts (QUADPOOL_ASSERT)
  /// when it is not. Without asserts a stale handle is undefined behaviour.
  T& at(Handle<T> h) noexcept { return const_cast<T&>(std::as_const(*this).at(h)); }
  const T& at(Handle<T> h) const noexcept {
    const T* object = get(h);
    QUADPOOL_ASSERT(object != nullptr, "SlotPool::at: stale or null handle");
    return *object;
  }

  /// True when `h` names a live object of this pool.
  bool contains(Handle<T> h) const noexcept { return get(h) != nullptr; }

  /// Destroys the object `h` names with the allocator that made it and returns true; returns
  /// false, and changes nothing but stats().stale_destroys, when h is stale (a second destroy of
  /// one handle is caught here), null, or not from this pool. O(1).
  bool destroy(Handle<T> h) noexcept {
    assert_not_iterating();
    const std::uint32_t index = h.index();
    if (index >= capacity_) return refuse_stale();
    std::byte* slot = slot_address(index);
    std::byte* storage = slot + kObjectOffset;
    const std::uint32_t generation = generation_word(slot);
    if (generation != h.generation() || (generation & 1u) == 0) return refuse_stale();
    // The slot is dead before the destructor runs: a destructor that destroys or gets this
    // handle again sees it stale, and one that creates cannot be handed this slot.
    const std::uint32_t counter = generation & kCounterMask;
    const bool retire = counter == kCounterMask;
    generation_word(slot) = retire ? 0 : counter + 1;  // odd -> even; 0 is never live
    live_bits_[index >> 6] &= ~bit_of(index);
    if ((generation & kHeapFlag) != 0) {
      heap_bits_[index >> 6] &= ~bit_of(index);
      --heap_live_;
      delete *std::launder(reinterpret_cast<T**>(storage));
    } else {
      std::destroy_at(std::launder(reinterpret_cast<T*>(storage)));
    }
    if constexpr (debug::kFill) std::memset(storage, debug::kFreedFill, kPayload);
    debug::poison(storage, kPayload);
    if (retire) {
      ++retired_;
    } else {
      free_.push_back(index);  // never reallocates: its capacity is the slot capacity
    }
    ++total_destroys_;
    return true;
  }

  /// Calls f(T&), or f(Handle<T>, T&), for every live object in slot index order, which is a
  /// pure function of the creates and destroys so far. f must not create or destroy objects of
  /// this pool (checked builds assert): collect handles and destroy them after. O(slots used /
  /// 64 + live).
  template <class F>
  void for_each(F&& f) {
    for_each_impl(*this, f);
  }
  template <class F>
  void for_each(F&& f) const {
    for_each_impl(*this, f);
  }

  /// Destroys every live object, in index order, each with the allocator that made it.
  void clear() noexcept {
    for (std::size_t word = 0; word < live_bits_.size(); ++word) {
      for (std::uint64_t bits = live_bits_[word]; bits != 0; bits &= bits - 1) {
        const auto index = static_cast<std::uint32_t>(word * 64 + std::countr_zero(bits));
        destroy(Handle<T>(index, generation_word(slot_address(index))));
      }
    }
  }

  /// Makes room for `live_objects` live objects in all: afterwards, in Pool mode, creates up to
  /// that count allocate nothing (nor do destroys, ever). std::bad_alloc when it cannot.
  void reserve(std::size_t live_objects) {
    const std::size_t live = size();
    if (live_objects <= live) return;
    while (free_.size() + (capacity_ - slots_used_) < live_objects - live) add_chunk();
  }

  /// The allocator of every object created from now on.
  void set_allocator(AllocatorKind kind) noexcept { kind_ = kind; }
  AllocatorKind allocator() const noexcept { return kind_; }

  /// Live objects. O(1).
  std::size_t size() const noexcept { return slots_used_ - free_.size() - retired_; }
  bool empty() const noexcept { return size() == 0; }
  std::size_t slots_per_chunk() const noexcept { return std::size_t{1} << chunk_shift_; }

  SlotPoolStats stats() const noexcept {
    const std::size_t live = size();
    return {.live = live,
            .heap_live = heap_live_,
            .capacity = capacity_,
            .chunks = chunks_.size(),
            .slots_used = slots_used_,
            .free_slots = free_.size(),
            .retired_slots = retired_,
            .slot_size = kSlotSize,
            .total_creates = total_destroys_ + live,
            .total_destroys = total_destroys_,
            .stale_destroys = stale_destroys_};
  }

 private:
  static constexpr std::uint32_t kHeapFlag = std::uint32_t{1} << 31;
  static constexpr std::size_t kSlotAlign = std::max(alignof(T), alignof(T*));
  // A slot is the generation word and the object (or, from new, the pointer to it), the word
  // first so that get() finds both on one cache line; an over-aligned object comes first and
  // the word after it, to waste no alignment.
  static constexpr std::size_t kPayload = std::max(sizeof(T), sizeof(T*));
  static constexpr bool kWordFirst = kSlotAlign <= alignof(std::max_align_t);
  static constexpr std::size_t round_up(std::size_t n, std::size_t to) noexcept {
    return (n + to - 1) / to * to;
  }
  static constexpr std::size_t kObjectOffset =
      kWordFirst ? round_up(sizeof(std::uint32_t), kSlotAlign) : 0;
  static constexpr std::size_t kGenerationOffset = kWordFirst ? 0 : round_up(kPayload, 4);
  static constexpr std::size_t kSlotSize =
      round_up(std::max(kObjectOffset + kPayload, kGenerationOffset + 4), kSlotAlign);
  static constexpr std::size_t kChunkAlign = std::max<std::size_t>(kSlotAlign, 64);
  static constexpr std::size_t kMaxSlots = std::size_t{1} << 32;

  static constexpr std::uint64_t bit_of(std::uint32_t index) noexcept {
    return std::uint64_t{1} << (index & 63);
  }

  static std::uint32_t& generation_word(std::byte* slot) noexcept {
    return *std::launder(reinterpret_cast<std::uint32_t*>(slot + kGenerationOffset));
  }
  static std::uint32_t generation_word(const std::byte* slot) noexcept {
    return *std::launder(reinterpret_cast<const std::uint32_t*>(slot + kGenerationOffset));
  }

  std::byte* slot_address(std::uint32_t index) const noexcept {
    const std::size_t mask = slots_per_chunk() - 1;
    return chunks_[index >> chunk_shift_] + (index & mask) * kSlotSize;
  }

  static const T* object_at(const std::byte* slot, std::uint32_t generation) noexcept {
    if ((generation & kHeapFlag) != 0) return *std::launder(reinterpret_cast<T* const*>(slot));
    return std::launder(reinterpret_cast<const T*>(slot));
  }

  template <class... Args>
  void construct_in(std::byte* slot, Args&&... args) {
    if constexpr (std::is_nothrow_constructible_v<T, Args&&...>) {
      ::new (static_cast<void*>(slot)) T(std::forward<Args>(args)...);
    } else {
      try {
        ::new (static_cast<void*>(slot)) T(std::forward<Args>(args)...);
      } catch (...) {
        debug::poison(slot, kPayload);
        throw;
      }
    }
  }

  // One body for the const and non-const for_each. Words of 64 slots never cross a chunk (a
  // chunk holds a multiple of 64), so the chunk's base is looked up once a word.
  template <class Self, class F>
  static void for_each_impl(Self& self, F& f) {
    using Object = std::conditional_t<std::is_const_v<Self>, const T, T>;
    self.begin_iterating();
    const std::size_t words = (self.slots_used_ + 63) / 64;
    const std::uint64_t* live = self.live_bits_.data();
    const bool any_heap = self.heap_live_ != 0;
    for (std::size_t word = 0; word < words; ++word) {
      std::uint64_t bits = live[word];
      if (bits == 0) continue;
      const auto first = static_cast<std::uint32_t>(word * 64);
      std::byte* base = self.slot_address(first);
      const std::uint64_t heap = any_heap ? self.heap_bits_[word] : 0;
      auto visit = [&](unsigned bit, bool from_heap) {
        std::byte* slot = base + bit * kSlotSize;
        std::byte* storage = slot + kObjectOffset;
        Object* object = from_heap ? *std::launder(reinterpret_cast<T**>(storage))
                                   : std::launder(reinterpret_cast<T*>(storage));
        if constexpr (std::is_invocable_v<F&, Handle<T>, Object&>) {
          f(Handle<T>(first + bit, generation_word(slot)), *object);
        } else {
          f(*object);
        }
      };
      if (bits == ~std::uint64_t{0} && heap == 0) {
        // A full word of pooled objects, the usual case when creates refill what destroys
        // free: a plain loop over 64 slots, no bit scan.
        for (unsigned bit = 0; bit < 64; ++bit) visit(bit, false);
        continue;
      }
      do {
        const auto bit = static_cast<unsigned>(std::countr_zero(bits));
        bits &= bits - 1;
        visit(bit, ((heap >> bit) & 1u) != 0);
      } while (bits != 0);
    }
    self.end_iterating();
  }

  void add_chunk() {
    if (capacity_ + slots_per_chunk() > kMaxSlots) throw std::bad_alloc();
    const std::size_t bytes = slots_per_chunk() * kSlotSize;
    std::unique_ptr<std::byte, ChunkDeleter> chunk(
        static_cast<std::byte*>(::operator new(bytes, std::align_val_t{kChunkAlign})));
    const std::size_t capacity = capacity_ + slots_per_chunk();
    chunks_.reserve(chunks_.size() + 1);
    live_bits_.resize(capacity / 64, 0);
    heap_bits_.resize(capacity / 64, 0);
    free_.reserve(capacity);  // so that destroy() never allocates
    for (std::size_t i = 0; i < slots_per_chunk(); ++i) {
      std::byte* slot = chunk.get() + i * kSlotSize;
      ::new (static_cast<void*>(slot + kGenerationOffset)) std::uint32_t(0);  // never used: even
      debug::poison(slot + kObjectOffset, kPayload);
    }
    chunks_.push_back(chunk.release());
    capacity_ = capacity;
  }

  bool refuse_stale() noexcept {
    ++stale_destroys_;
    return false;
  }

  // Checked builds only: create() and destroy() inside for_each() would change the bitmap
  // under the walk.
  void assert_not_iterating() const noexcept {
    if constexpr (kAssertsEnabled) {
      QUADPOOL_ASSERT(iterating_ == 0, "SlotPool: create or destroy inside for_each");
    }
  }
  void begin_iterating() const noexcept {
    if constexpr (kAssertsEnabled) ++iterating_;
  }
  void end_iterating() const noexcept {
    if constexpr (kAssertsEnabled) --iterating_;
  }

  struct ChunkDeleter {
    void operator()(std::byte* p) const noexcept {
      ::operator delete(p, std::align_val_t{kChunkAlign});
    }
  };

  std::vector<std::byte*> chunks_;          // each slots_per_chunk() slots, never moved
  std::vector<std::uint64_t> live_bits_;    // one bit per slot: live
  std::vector<std::uint64_t> heap_bits_;    // one bit per slot: live and made by new
  std::vector<std::uint32_t> free_;         // free slot indices, the last freed on top
  std::size_t capacity_ = 0;                // slots in chunks_
  std::size_t slots_used_ = 0;              // slots below this were handed out at least once
  std::size_t retired_ = 0;
  std::size_t heap_live_ = 0;
  std::uint64_t total_destroys_ = 0;
  std::uint64_t stale_destroys_ = 0;
  unsigned chunk_shift_;
  AllocatorKind kind_;
  mutable unsigned iterating_ = 0;  // checked builds: for_each calls in progress
};

}  // namespace quadpool::memory
