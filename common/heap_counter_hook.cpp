// The replacement global operator new/delete behind heap_counter.hpp. Link it only into
// executables (it is an object library for that reason).
#include <atomic>
#include <cstdlib>
#include <new>

#include "common/heap_counter.hpp"

// ThreadSanitizer's runtime defines every operator new and delete itself (linked whole, so a
// second definition does not link): under TSan the hook replaces nothing and counts nothing,
// and heap_counting_enabled() says so.
#if defined(__SANITIZE_THREAD__)
#define QUADPOOL_HOOK_REPLACES_NEW 0
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define QUADPOOL_HOOK_REPLACES_NEW 0
#endif
#endif
#ifndef QUADPOOL_HOOK_REPLACES_NEW
#define QUADPOOL_HOOK_REPLACES_NEW 1
#endif

namespace {
std::atomic<std::uint64_t> g_allocations{0};
std::atomic<std::uint64_t> g_deallocations{0};

#if QUADPOOL_HOOK_REPLACES_NEW
void* allocate_or_null(std::size_t size) noexcept {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(size == 0 ? 1 : size);
}

void* allocate_aligned_or_null(std::size_t size, std::align_val_t alignment) noexcept {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  auto align = static_cast<std::size_t>(alignment);
  if (align < sizeof(void*)) align = sizeof(void*);
  void* p = nullptr;
  if (posix_memalign(&p, align, size == 0 ? 1 : size) != 0) return nullptr;
  return p;
}

void* allocate_or_throw(std::size_t size) {
  void* p = allocate_or_null(size);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

void* allocate_aligned_or_throw(std::size_t size, std::align_val_t alignment) {
  void* p = allocate_aligned_or_null(size, alignment);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

void release(void* p) noexcept {
  if (p == nullptr) return;
  g_deallocations.fetch_add(1, std::memory_order_relaxed);
  std::free(p);
}
#endif  // QUADPOOL_HOOK_REPLACES_NEW
}  // namespace

namespace quadpool {
std::uint64_t heap_allocations() noexcept { return g_allocations.load(std::memory_order_relaxed); }
std::uint64_t heap_deallocations() noexcept {
  return g_deallocations.load(std::memory_order_relaxed);
}
bool heap_counting_enabled() noexcept { return QUADPOOL_HOOK_REPLACES_NEW != 0; }
}  // namespace quadpool

#if QUADPOOL_HOOK_REPLACES_NEW

void* operator new(std::size_t size) { return allocate_or_throw(size); }
void* operator new[](std::size_t size) { return allocate_or_throw(size); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  return allocate_or_null(size);
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  return allocate_or_null(size);
}
void* operator new(std::size_t size, std::align_val_t alignment) {
  return allocate_aligned_or_throw(size, alignment);
}
void* operator new[](std::size_t size, std::align_val_t alignment) {
  return allocate_aligned_or_throw(size, alignment);
}
void* operator new(std::size_t size, std::align_val_t alignment, const std::nothrow_t&) noexcept {
  return allocate_aligned_or_null(size, alignment);
}
void* operator new[](std::size_t size, std::align_val_t alignment,
                     const std::nothrow_t&) noexcept {
  return allocate_aligned_or_null(size, alignment);
}

void operator delete(void* p) noexcept { release(p); }
void operator delete[](void* p) noexcept { release(p); }
void operator delete(void* p, std::size_t) noexcept { release(p); }
void operator delete[](void* p, std::size_t) noexcept { release(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { release(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { release(p); }
void operator delete(void* p, std::align_val_t) noexcept { release(p); }
void operator delete[](void* p, std::align_val_t) noexcept { release(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { release(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { release(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { release(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { release(p); }
#endif  // QUADPOOL_HOOK_REPLACES_NEW
