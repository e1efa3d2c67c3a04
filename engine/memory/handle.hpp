#pragma once
/// Handle<T>: a reference to an object in a SlotPool<T> that knows when it has gone stale.
///
/// A handle is two 32-bit words, the slot's index and the generation the slot had when the
/// object was made, so it is 8 bytes, trivially copyable, fits in a register and hashes as one
/// 64-bit value. 32 bits of index address 4 billion slots, more than any pool of entities holds;
/// of the 32 bits of generation the top one says which allocator made the object and the other
/// 31 are a counter whose lowest bit says the slot is live: 2^30 (a billion) lifetimes of one
/// slot before the pool retires it (slot_pool.hpp). The pool compares the whole word, so a handle
/// from an earlier lifetime of the slot never reaches the new occupant.
///
/// A default-constructed handle is null: generation 0, which no live object ever has.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <type_traits>

namespace quadpool::memory {

template <class T>
class Handle {
 public:
  /// The null handle: never live in any pool.
  constexpr Handle() noexcept = default;
  /// A handle from its two words, as index() and generation() returned them (a save file, a
  /// replay). A made-up handle is safe: the pool checks it like any other.
  constexpr Handle(std::uint32_t index, std::uint32_t generation) noexcept
      : index_(index), generation_(generation) {}

  /// The slot in the pool.
  constexpr std::uint32_t index() const noexcept { return index_; }
  /// The slot's generation word when the object was made; opaque to the caller.
  constexpr std::uint32_t generation() const noexcept { return generation_; }
  /// True for the null handle (and only for a handle no pool ever returns).
  constexpr bool is_null() const noexcept { return generation_ == 0; }

  friend constexpr bool operator==(Handle, Handle) noexcept = default;

 private:
  std::uint32_t index_ = 0;
  std::uint32_t generation_ = 0;
};

}  // namespace quadpool::memory

template <class T>
struct std::hash<quadpool::memory::Handle<T>> {
  /// Both words through SplitMix64's finaliser: std::hash<std::uint64_t> is the identity in
  /// libstdc++, which would leave the generation in the high bits that a bucket index drops.
  std::size_t operator()(quadpool::memory::Handle<T> h) const noexcept {
    std::uint64_t z = (static_cast<std::uint64_t>(h.generation()) << 32) | h.index();
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return static_cast<std::size_t>(z ^ (z >> 31));
  }
};

static_assert(std::is_trivially_copyable_v<quadpool::memory::Handle<int>>);
static_assert(sizeof(quadpool::memory::Handle<int>) == 8);
