#pragma once
/// Counts global heap allocations, so a test or the game can prove that a frame made none.
///
/// The counting lives in a replacement of the global operator new/delete, in the object library
/// `quadpool::heap_hook` (heap_counter_hook.cpp). Only executables that link it get the
/// replacement: the engine libraries never replace operator new behind a user's back. Each
/// operator new costs one relaxed atomic increment on top of malloc.
///
/// Usage:
///   const auto before = quadpool::heap_allocations();
///   tick();
///   const auto made = quadpool::heap_allocations() - before;

#include <cstdint>

namespace quadpool {

/// Calls of any global operator new (all forms) since the program started.
std::uint64_t heap_allocations() noexcept;
/// Calls of any global operator delete with a non-null pointer since the program started.
std::uint64_t heap_deallocations() noexcept;
/// False in a ThreadSanitizer build, whose runtime keeps operator new and delete to itself:
/// there both counts stay 0, and a test of them must skip.
bool heap_counting_enabled() noexcept;

}  // namespace quadpool
