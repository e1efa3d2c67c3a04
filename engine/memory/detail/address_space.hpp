#pragma once
/// Reserved address space, committed from its start as a pool grows: SlotPool's one range of
/// slots. A reservation is address space only; a committed prefix of it is ordinary memory that
/// stays where it is until the reservation is released, so nothing in it ever moves.
/// POSIX (mmap, mprotect, munmap) and Windows (VirtualAlloc, VirtualFree).

#include <cstddef>

namespace quadpool::memory::detail {

/// The granule of commit and of a reservation's start: the page size.
std::size_t address_space_page_size() noexcept;

/// Reserves `bytes` (a multiple of the page size) of address space, unreadable and unwritable
/// until committed, and charged to no memory. nullptr when the system refuses.
std::byte* reserve_address_space(std::size_t bytes) noexcept;

/// Makes [begin, begin + bytes) of a reservation readable and writable (begin and bytes whole
/// pages). The pages are zero when first touched. False when the system refuses.
bool commit_address_space(std::byte* begin, std::size_t bytes) noexcept;

/// Returns a whole reservation, committed pages and all, to the system.
void release_address_space(std::byte* begin, std::size_t bytes) noexcept;

}  // namespace quadpool::memory::detail
