#pragma once
/// The memory module's debug switches. Each one can be set on its own with -D; each defaults to
/// on exactly when QUADPOOL_ASSERT is compiled in (Debug, RelWithDebInfo and test builds).
///
/// | macro                          | what it does                                            |
/// |--------------------------------|---------------------------------------------------------|
/// | QUADPOOL_MEMORY_FILL           | fills fresh blocks with 0xCD and freed ones with 0xDD   |
/// | QUADPOOL_MEMORY_SLOT_STATE     | per-slot state: O(1) double-free and stray-free checks  |
/// | QUADPOOL_MEMORY_POINTER_CHECKS | foreign and misaligned pointers given to deallocate()   |
/// | QUADPOOL_MEMORY_LEAK_CHECK     | asserts when a pool is destroyed with live blocks       |
///
/// ASan poisoning of free blocks needs no switch: it is on whenever the build uses
/// -fsanitize=address, and compiles to nothing otherwise.

#include <cstddef>

#include "engine/core/assert.hpp"

#if defined(QUADPOOL_ENABLE_ASSERTS)
#define QUADPOOL_MEMORY_DEBUG_DEFAULT 1
#else
#define QUADPOOL_MEMORY_DEBUG_DEFAULT 0
#endif
#ifndef QUADPOOL_MEMORY_FILL
#define QUADPOOL_MEMORY_FILL QUADPOOL_MEMORY_DEBUG_DEFAULT
#endif
#ifndef QUADPOOL_MEMORY_SLOT_STATE
#define QUADPOOL_MEMORY_SLOT_STATE QUADPOOL_MEMORY_DEBUG_DEFAULT
#endif
#ifndef QUADPOOL_MEMORY_POINTER_CHECKS
#define QUADPOOL_MEMORY_POINTER_CHECKS QUADPOOL_MEMORY_DEBUG_DEFAULT
#endif
#ifndef QUADPOOL_MEMORY_LEAK_CHECK
#define QUADPOOL_MEMORY_LEAK_CHECK QUADPOOL_MEMORY_DEBUG_DEFAULT
#endif

#if defined(__SANITIZE_ADDRESS__)
#define QUADPOOL_HAS_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define QUADPOOL_HAS_ASAN 1
#endif
#endif

#if defined(QUADPOOL_HAS_ASAN)
#include <sanitizer/asan_interface.h>
#endif

namespace quadpool::memory::debug {

inline constexpr bool kFill = QUADPOOL_MEMORY_FILL != 0;
inline constexpr bool kSlotState = QUADPOOL_MEMORY_SLOT_STATE != 0;
inline constexpr bool kPointerChecks = QUADPOOL_MEMORY_POINTER_CHECKS != 0;
inline constexpr bool kLeakCheck = QUADPOOL_MEMORY_LEAK_CHECK != 0;
#if defined(QUADPOOL_HAS_ASAN)
inline constexpr bool kAsan = true;
#else
inline constexpr bool kAsan = false;
#endif

/// Byte written over a block when it is handed out (the constructor then overwrites it).
inline constexpr unsigned char kFreshFill = 0xCD;
/// Byte written over a block when it is returned, after the free-list link.
inline constexpr unsigned char kFreedFill = 0xDD;

/// Marks [p, p + size) as off limits to the program (a no-op without ASan).
inline void poison(const void* p, std::size_t size) noexcept {
#if defined(QUADPOOL_HAS_ASAN)
  ASAN_POISON_MEMORY_REGION(p, size);
#else
  (void)p;
  (void)size;
#endif
}

/// Gives [p, p + size) back to the program (a no-op without ASan).
inline void unpoison(const void* p, std::size_t size) noexcept {
#if defined(QUADPOOL_HAS_ASAN)
  ASAN_UNPOISON_MEMORY_REGION(p, size);
#else
  (void)p;
  (void)size;
#endif
}

}  // namespace quadpool::memory::debug
