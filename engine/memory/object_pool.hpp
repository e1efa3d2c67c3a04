#pragma once
/// ObjectPool<T>: typed objects in a PoolAllocator. create() constructs with placement new in a
/// pool block; destroy() runs ~T() explicitly and returns the block. Nothing else happens: no
/// per-object header, no virtual call, no global heap traffic once the pool has its chunks.
///
/// The pool does not track which objects are live (that would cost memory per object), so it
/// cannot destroy them for you: destroy every object before the pool goes away. Checked builds
/// assert, with the count, when you don't.

#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

#include "engine/memory/pool_allocator.hpp"

namespace quadpool::memory {

template <class T>
class ObjectPool {
 public:
  /// A pool of blocks sized and aligned for T (alignments up to 4096 are honoured).
  explicit ObjectPool(std::size_t objects_per_chunk = 1024, Growth growth = Growth::Grow)
      : allocator_(PoolConfig{.block_size = sizeof(T),
                              .blocks_per_chunk = objects_per_chunk,
                              .alignment = alignof(T),
                              .growth = growth}) {}

  /// Constructs a T from `args` in a pool block. Throws std::bad_alloc when a Fixed pool is
  /// full. If T's constructor throws, the block goes back to the pool and the exception
  /// propagates.
  template <class... Args>
  T* create(Args&&... args) {
    return construct_in(allocator_.allocate(), std::forward<Args>(args)...);
  }

  /// As create(), but returns nullptr instead of throwing when a Fixed pool is full.
  /// T's constructor may still throw.
  template <class... Args>
  T* try_create(Args&&... args) {
    void* block = allocator_.try_allocate();
    if (block == nullptr) return nullptr;
    return construct_in(block, std::forward<Args>(args)...);
  }

  /// Runs ~T() once, then returns the block to the pool. nullptr is a no-op.
  void destroy(T* object) noexcept {
    if (object == nullptr) return;
    object->~T();
    allocator_.deallocate(object);
  }

  PoolStats stats() const noexcept { return allocator_.stats(); }
  bool owns(const T* object) const noexcept { return allocator_.owns(object); }
  /// The underlying allocator, for tools such as the demo's per-chunk strip.
  const PoolAllocator& allocator() const noexcept { return allocator_; }

 private:
  template <class... Args>
  T* construct_in(void* block, Args&&... args) {
    // A constructor that cannot throw needs no handler (and no exception edge in the caller).
    if constexpr (std::is_nothrow_constructible_v<T, Args&&...>) {
      return ::new (block) T(std::forward<Args>(args)...);
    } else {
      try {
        return ::new (block) T(std::forward<Args>(args)...);
      } catch (...) {
        allocator_.deallocate(block);
        throw;
      }
    }
  }

  PoolAllocator allocator_;
};

}  // namespace quadpool::memory
