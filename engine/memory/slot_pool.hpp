#pragma once
/// SlotPool<T>: objects in pool chunks that never move, reached through generational handles.
///
/// Sections: stats; the class (create, get/at, destroy, for_each, capacity, the allocator
/// switch); the private layout (slots, state words, live and heap bitmaps, free stack); the
/// slow paths (heap, stale, never-used slots); chunks and the reservation.
///
/// Each object lives in a slot. The slots are one array in address space the pool reserves at
/// its first chunk (2^32 slots or 16 GiB, whichever is less) and commits a chunk at a time, a
/// chunk being `slots_per_chunk` slots (a power of two, at least 64). Committed memory is never
/// moved or freed while the pool lives, so an object's address is stable, and slot i is at
/// base + i * slot size: no chunk table between a handle and its slot. A slot starts with a
/// 64-bit state word, the object after it on its cache line, so get() checks the handle and
/// reaches the object in one miss; beside the slots the pool keeps one bit per slot in a live
/// bitmap, the skip field of for_each:
///
///   base_ -> |3 T|1 T|2 .|5 T| ... committed ... | reserved, untouched ...
///   live_bits_ 1   1   0   1                     state word of a slot, low half (generation):
///   free_ (a stack of free slot indices): 2        bit 31: made by new (the slot holds a T*)
///                                                  bits 0..30: a counter, odd while live
///                                                high half: 0 exactly while live and pooled
///
/// - create(): the slot on top of the free stack (the one freed last, still warm), else the next
///   never-used slot, else a new chunk committed. The counter steps to the next odd value, the
///   object is constructed in place, and the handle carries {index, generation word}. O(1).
/// - get(h): nullptr unless the slot's generation word equals h's; the word shares the object's
///   cache line, so the check costs no extra miss, and a stale handle never reaches the slot's
///   new occupant. A live pooled object is one 64-bit compare of the state word with h's
///   generation (the high half is what makes "live and pooled" part of that compare). O(1).
/// - destroy(h): false for a stale handle (a double destroy is one); otherwise the counter steps
///   to the next even value, the destructor runs, and the slot goes on the free stack. O(1).
/// - for_each(f): the live bitmap, 64 slots a word, in index order: a pure function of the
///   creates and destroys, so it is deterministic and a hash over it is reproducible. O(slots
///   used / 64 + live).
///
/// Generation wrap: a slot whose counter has reached its last odd value (2^GenerationBits - 1)
/// is retired when that object is destroyed: it never goes back on the free stack, so no
/// handle can ever see a reused generation. GenerationBits (31, the most the word leaves) gives
/// each slot 2^30 lifetimes; a test instantiates the pool with 2 or 4 bits to reach the wrap.
///
/// The allocator switch (set_allocator): in AllocatorKind::NewDelete mode an object is made
/// with `new T` and its slot holds the pointer; the generation word's top bit says so (and the
/// state word's high half is not zero). Objects
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
#include "engine/memory/detail/address_space.hpp"
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

  /// Destroys every live object, each with the allocator that made it, then returns the
  /// reserved address space, committed chunks and all.
  ~SlotPool() {
    clear();
    if (reservation_ != nullptr) {
      debug::unpoison(reservation_, committed_bytes_);
      detail::release_address_space(reservation_, reserved_bytes_);
    }
  }
  SlotPool(const SlotPool&) = delete;
  SlotPool& operator=(const SlotPool&) = delete;

  /// Constructs T(args...) with the current allocator and returns its handle. O(1); a new chunk
  /// when every slot is taken (std::bad_alloc when none can be had, or past the reservation:
  /// 2^32 slots or 16 GiB of them, whichever is less). If T's constructor throws, the pool is as
  /// it was and the exception propagates. In Pool mode after reserve(n), the first n live
  /// objects cost no heap allocation.
  template <class... Args>
  Handle<T> create(Args&&... args) {
    assert_not_iterating();
    // The heap's path is a call of its own, so that the pool's stays small enough to inline.
    if (kind_ != AllocatorKind::Pool) [[unlikely]] {
      return create_on_heap(std::forward<Args>(args)...);
    }
    const std::uint32_t index = next_slot();
    std::byte* slot = slot_address(index);
    // The next create's slot, freed before this one: its lines are likely out of L1 by now, and
    // the object's stores would wait for them (10k live, 10 % churn: 21.3 to 20.5 us a frame).
    if (free_count_ > 1) {
      const std::byte* next = slot_address(free_[free_count_ - 2]);
      __builtin_prefetch(next, 1);
      __builtin_prefetch(next + kSlotSize - 1, 1);
    }
    std::byte* storage = slot + kObjectOffset;
    debug::unpoison(storage, kPayload);
    const std::uint32_t generation = (generation_word(slot) & kCounterMask) + 1;  // even -> odd
    construct_in(storage, std::forward<Args>(args)...);
    take_slot(index);
    state_word(slot) = generation;
    return Handle<T>(index, generation);
  }

  /// The live object `h` names, or nullptr when h is stale (destroyed, even if its slot holds
  /// another object now), null, or not from this pool's slots. O(1).
  T* get(Handle<T> h) noexcept { return const_cast<T*>(std::as_const(*this).get(h)); }
  const T* get(Handle<T> h) const noexcept {
    const std::uint32_t index = h.index();
    if (index >= capacity_) return nullptr;
    const std::byte* slot = slot_address(index);
    const std::uint64_t state = state_word(slot);
    // Live, pooled and of h's generation, the usual case, in one compare: only then is the
    // state's high half zero.
    if (state == h.generation()) [[likely]] {
      return std::launder(reinterpret_cast<const T*>(slot + kObjectOffset));
    }
    // Otherwise live only if made by new: the slot holds the pointer.
    const auto generation = static_cast<std::uint32_t>(state);
    if (generation != h.generation() || (generation & 1u) == 0) return nullptr;
    return *std::launder(reinterpret_cast<T* const*>(slot + kObjectOffset));
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
    // Live, pooled and of h's generation in one compare, as in get(); anything else is a call.
    if (state_word(slot) != h.generation()) [[unlikely]] {
      return destroy_other(index, h);
    }
    // The slot is dead before the destructor runs: a destructor that destroys or gets this
    // handle again sees it stale, and one that creates cannot be handed this slot.
    const bool retire = kill_slot(slot, index, h.generation());
    std::destroy_at(std::launder(reinterpret_cast<T*>(slot + kObjectOffset)));
    free_slot(slot, index, retire);
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
    while (free_count_ + (capacity_ - slots_used_) < live_objects - live) add_chunk();
  }

  /// The allocator of every object created from now on.
  void set_allocator(AllocatorKind kind) noexcept { kind_ = kind; }
  AllocatorKind allocator() const noexcept { return kind_; }

  /// Live objects. O(1).
  std::size_t size() const noexcept { return slots_used_ - free_count_ - retired_; }
  bool empty() const noexcept { return size() == 0; }
  std::size_t slots_per_chunk() const noexcept { return std::size_t{1} << chunk_shift_; }

  SlotPoolStats stats() const noexcept {
    const std::size_t live = size();
    return {.live = live,
            .heap_live = heap_live_,
            .capacity = capacity_,
            .chunks = capacity_ >> chunk_shift_,
            .slots_used = slots_used_,
            .free_slots = free_count_,
            .retired_slots = retired_,
            .slot_size = kSlotSize,
            .total_creates = total_destroys_ + live,
            .total_destroys = total_destroys_,
            .stale_destroys = stale_destroys_};
  }

 private:
  static constexpr std::uint32_t kHeapFlag = std::uint32_t{1} << 31;
  static constexpr std::size_t kSlotAlign = std::max(alignof(T), alignof(T*));
  // A slot is the state word (8 bytes: the 32-bit generation word and the pooled-live half)
  // and the object (or, from new, the pointer to it), the word first so that get() finds both
  // on one cache line; an over-aligned object comes first and the word after it, to waste no
  // alignment. The object is 8-aligned at least, so the state word takes no byte that the
  // 32-bit word's padding did not.
  static constexpr std::size_t kPayload = std::max(sizeof(T), sizeof(T*));
  static constexpr bool kWordFirst = kSlotAlign <= alignof(std::max_align_t);
  static constexpr std::size_t round_up(std::size_t n, std::size_t to) noexcept {
    return (n + to - 1) / to * to;
  }
  static constexpr std::size_t kObjectOffset =
      kWordFirst ? round_up(sizeof(std::uint64_t), kSlotAlign) : 0;
  static constexpr std::size_t kStateOffset = kWordFirst ? 0 : round_up(kPayload, 8);
  static constexpr std::size_t kSlotSize =
      round_up(std::max(kObjectOffset + kPayload, kStateOffset + 8), kSlotAlign);
  static constexpr std::size_t kMaxSlots = std::size_t{1} << 32;
  // 16 GiB of address space a pool at most: 300 million 56-byte slots, and 8000 pools fit in
  // the 128 TiB of a 48-bit address space (a reservation costs no memory, but the space is
  // shared with everything else the process maps).
  static constexpr std::size_t kMaxReservationBytes = std::size_t{1} << 34;
  static constexpr std::size_t kCommitStep = std::size_t{64} << 10;

  static constexpr std::uint64_t bit_of(std::uint32_t index) noexcept {
    return std::uint64_t{1} << (index & 63);
  }

  // A slot's state word: the generation word in its low half; its high half is zero exactly
  // while the slot holds a live object made in the pool (kNotPooledLive otherwise), so that
  // get() tests "this generation, live, pooled" with one compare against the handle's word.
  static constexpr std::uint64_t kNotPooledLive = std::uint64_t{1} << 32;
  static std::uint64_t& state_word(std::byte* slot) noexcept {
    return *std::launder(reinterpret_cast<std::uint64_t*>(slot + kStateOffset));
  }
  static std::uint64_t state_word(const std::byte* slot) noexcept {
    return *std::launder(reinterpret_cast<const std::uint64_t*>(slot + kStateOffset));
  }
  static std::uint32_t generation_word(const std::byte* slot) noexcept {
    return static_cast<std::uint32_t>(state_word(slot));
  }

  std::byte* slot_address(std::uint32_t index) const noexcept {
    return base_ + std::size_t{index} * kSlotSize;
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

  // The slot create() fills: the top of the free stack, else the next never-used slot (a new
  // chunk when there is none). Taken only by take_slot(), once the object is made.
  std::uint32_t next_slot() {
    if (free_count_ != 0) return free_[free_count_ - 1];
    if (slots_used_ == capacity_) add_chunk();
    return static_cast<std::uint32_t>(slots_used_);
  }
  void take_slot(std::uint32_t index) noexcept {
    if (free_count_ != 0) {
      --free_count_;
    } else {
      ++slots_used_;
    }
    live_bits_[index >> 6] |= bit_of(index);
  }

  // create() in NewDelete mode.
  template <class... Args>
  [[gnu::noinline]] Handle<T> create_on_heap(Args&&... args) {
    const std::uint32_t index = next_slot();
    std::byte* slot = slot_address(index);
    std::byte* storage = slot + kObjectOffset;
    T* object = new T(std::forward<Args>(args)...);
    debug::unpoison(storage, kPayload);
    ::new (static_cast<void*>(storage)) T*(object);
    const std::uint32_t generation = ((generation_word(slot) & kCounterMask) + 1) | kHeapFlag;
    heap_bits_[index >> 6] |= bit_of(index);
    ++heap_live_;
    take_slot(index);
    state_word(slot) = kNotPooledLive | generation;
    return Handle<T>(index, generation);
  }

  // destroy() of anything but a live pooled object: one made by new, or a stale handle.
  [[gnu::noinline]] bool destroy_other(std::uint32_t index, Handle<T> h) noexcept {
    std::byte* slot = slot_address(index);
    const std::uint32_t generation = generation_word(slot);
    if (generation != h.generation() || (generation & 1u) == 0) return refuse_stale();
    // Live and not pooled, so made by new: the slot holds the pointer.
    const bool retire = kill_slot(slot, index, generation & kCounterMask);
    heap_bits_[index >> 6] &= ~bit_of(index);
    --heap_live_;
    delete *std::launder(reinterpret_cast<T**>(slot + kObjectOffset));
    free_slot(slot, index, retire);
    return true;
  }

  // A live slot dies: its counter steps to the next even value (odd -> even), or to 0 when it
  // has reached its last one and the slot retires (0 never lives); its live bit clears.
  // Returns true when the slot retires.
  bool kill_slot(std::byte* slot, std::uint32_t index, std::uint32_t counter) noexcept {
    const bool retire = counter == kCounterMask;
    state_word(slot) = kNotPooledLive | (retire ? 0 : counter + 1);
    live_bits_[index >> 6] &= ~bit_of(index);
    return retire;
  }

  // After the object is gone: the slot goes on the free stack unless it retired.
  void free_slot(std::byte* slot, std::uint32_t index, bool retire) noexcept {
    std::byte* storage = slot + kObjectOffset;
    if constexpr (debug::kFill) std::memset(storage, debug::kFreedFill, kPayload);
    debug::poison(storage, kPayload);
    if (retire) [[unlikely]] {
      ++retired_;
    } else {
      free_[free_count_++] = index;  // free_ holds a place for every slot
    }
    ++total_destroys_;
  }

  // One body for the const and non-const for_each.
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

  // The first chunk reserves the address space of every chunk the pool may ever have; each
  // chunk commits the pages after the last. std::bad_alloc when the reservation is full or the
  // system refuses either step.
  void add_chunk() {
    if (reservation_ == nullptr) reserve_slots();
    const std::size_t capacity = capacity_ + slots_per_chunk();
    if (capacity > max_slots_) throw std::bad_alloc();
    const std::size_t page = detail::address_space_page_size();
    const std::size_t end = static_cast<std::size_t>(base_ - reservation_) + capacity * kSlotSize;
    // At least kCommitStep at a time, so that small chunks are not a system call each.
    const std::size_t committed =
        std::min(reserved_bytes_, std::max(round_up(end, page), committed_bytes_ + kCommitStep));
    // The bitmaps and the free stack first: if they throw, the pool is as it was.
    live_bits_.resize(capacity / 64, 0);
    heap_bits_.resize(capacity / 64, 0);
    free_.resize(capacity);  // a place for every slot, so destroy() never allocates
    if (committed > committed_bytes_) {
      if (!detail::commit_address_space(reservation_ + committed_bytes_,
                                        committed - committed_bytes_)) {
        throw std::bad_alloc();
      }
      committed_bytes_ = committed;
    }
    std::byte* chunk = slot_address(static_cast<std::uint32_t>(capacity_));
    for (std::size_t i = 0; i < slots_per_chunk(); ++i) {
      std::byte* slot = chunk + i * kSlotSize;
      // Never used: generation word 0, even, so not live.
      ::new (static_cast<void*>(slot + kStateOffset)) std::uint64_t(kNotPooledLive);
      debug::poison(slot + kObjectOffset, kPayload);
    }
    capacity_ = capacity;
  }

  // Address space for max_slots_ slots: 2^32 (what a handle's index can name) or
  // kMaxReservationBytes of them, whichever is fewer. Where the system refuses that much (a
  // limit on address space), a quarter of the most it gives, found by halving: the rest stays
  // for everything else the process maps.
  void reserve_slots() {
    const std::size_t page = detail::address_space_page_size();
    const std::size_t lead = kSlotAlign > page ? kSlotAlign : 0;  // to align the first slot
    const auto whole_chunks = [&](std::size_t slots) {
      return std::max(slots >> chunk_shift_ << chunk_shift_, slots_per_chunk());
    };
    const auto bytes_for = [&](std::size_t slots) {
      return round_up(lead + slots * kSlotSize, page);
    };
    std::size_t slots = whole_chunks(std::min(kMaxSlots, kMaxReservationBytes / kSlotSize));
    std::byte* range = detail::reserve_address_space(bytes_for(slots));
    if (range == nullptr) {
      while (range == nullptr && slots > slots_per_chunk()) {
        slots = whole_chunks(slots / 2);
        range = detail::reserve_address_space(bytes_for(slots));
      }
      if (range != nullptr && slots > slots_per_chunk()) {
        detail::release_address_space(range, bytes_for(slots));
        slots = whole_chunks(slots / 4);
        range = detail::reserve_address_space(bytes_for(slots));
      }
      if (range == nullptr) throw std::bad_alloc();
    }
    reservation_ = range;
    reserved_bytes_ = bytes_for(slots);
    const std::size_t misalignment = reinterpret_cast<std::uintptr_t>(range) % kSlotAlign;
    base_ = range + (misalignment == 0 ? 0 : kSlotAlign - misalignment);
    max_slots_ = slots;
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

  std::byte* base_ = nullptr;         // slot 0; slot i at base_ + i * kSlotSize
  std::byte* reservation_ = nullptr;  // the reserved range: base_, after alignment
  std::size_t reserved_bytes_ = 0;
  std::size_t committed_bytes_ = 0;         // from reservation_: whole pages
  std::size_t max_slots_ = 0;               // slots the reservation holds
  std::vector<std::uint64_t> live_bits_;    // one bit per slot: live
  std::vector<std::uint64_t> heap_bits_;    // one bit per slot: live and made by new
  std::vector<std::uint32_t> free_;  // free slot indices below free_count_, last freed on top
  std::size_t free_count_ = 0;
  std::size_t capacity_ = 0;                // slots in the committed chunks
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
