#pragma once
/// The memory module's debug checks. Each has its own CMake cache variable (AUTO, ON or OFF;
/// AUTO follows QUADPOOL_ASSERTS: on in Debug, RelWithDebInfo and test builds), and the
/// generated engine/core/config.hpp fixes them once per build, so every file agrees. (In a copy
/// built without CMake, the checked-in engine/core/config.hpp: on unless NDEBUG is defined.)
///
/// | CMake variable                 | constant       | what it does                             |
/// |--------------------------------|----------------|------------------------------------------|
/// | QUADPOOL_MEMORY_FILL           | kFill          | fresh blocks 0xCD, freed blocks 0xDD     |
/// | QUADPOOL_MEMORY_SLOT_STATE     | kSlotState     | O(1) double-free and stray-free checks   |
/// | QUADPOOL_MEMORY_POINTER_CHECKS | kPointerChecks | foreign and misaligned pointers          |
/// | QUADPOOL_MEMORY_LEAK_CHECK     | kLeakCheck     | asserts when a pool dies with live blocks|
///
/// ASan poisoning of free blocks needs no switch: it is on whenever the build uses
/// -fsanitize=address, and compiles to nothing otherwise.

#include <cstddef>

#include "engine/core/assert.hpp"
#include "engine/core/config.hpp"

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

inline constexpr bool kFill = QUADPOOL_CONFIG_MEMORY_FILL != 0;
inline constexpr bool kSlotState = QUADPOOL_CONFIG_MEMORY_SLOT_STATE != 0;
inline constexpr bool kPointerChecks = QUADPOOL_CONFIG_MEMORY_POINTER_CHECKS != 0;
inline constexpr bool kLeakCheck = QUADPOOL_CONFIG_MEMORY_LEAK_CHECK != 0;
#if defined(QUADPOOL_HAS_ASAN)
inline constexpr bool kAsan = true;
#else
inline constexpr bool kAsan = false;
#endif

/// The switches of one build, as plain values: what a translation unit saw.
struct Switches {
  bool asserts;
  bool fill;
  bool slot_state;
  bool pointer_checks;
  bool leak_check;
  friend bool operator==(const Switches&, const Switches&) = default;
};

/// The switches as the including translation unit sees them.
inline constexpr Switches kSwitches{kAssertsEnabled, kFill, kSlotState, kPointerChecks, kLeakCheck};

/// The switches engine_memory itself was compiled with. Equal to kSwitches in every file of one
/// build; a benchmark reports them, a test checks the equality.
Switches compiled_switches() noexcept;

/// True when any check that costs time at run time is compiled in (asserts or a debug check).
constexpr bool any_checks(const Switches& s) noexcept {
  return s.asserts || s.fill || s.slot_state || s.pointer_checks || s.leak_check;
}

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
