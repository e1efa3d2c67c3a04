#include "engine/memory/detail/address_space.hpp"

#if defined(_WIN32)
#include <windows.h>
#else
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace quadpool::memory::detail {

#if defined(_WIN32)

std::size_t address_space_page_size() noexcept {
  SYSTEM_INFO info;
  GetSystemInfo(&info);
  return info.dwPageSize;
}

std::byte* reserve_address_space(std::size_t bytes) noexcept {
  return static_cast<std::byte*>(VirtualAlloc(nullptr, bytes, MEM_RESERVE, PAGE_NOACCESS));
}

bool commit_address_space(std::byte* begin, std::size_t bytes) noexcept {
  return VirtualAlloc(begin, bytes, MEM_COMMIT, PAGE_READWRITE) != nullptr;
}

void release_address_space(std::byte* begin, std::size_t) noexcept {
  VirtualFree(begin, 0, MEM_RELEASE);
}

#else

std::size_t address_space_page_size() noexcept {
  static const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  return page;
}

std::byte* reserve_address_space(std::size_t bytes) noexcept {
  // PROT_NONE and MAP_NORESERVE: address space only, counted against no overcommit limit until
  // a part is made writable.
  void* range =
      ::mmap(nullptr, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return range == MAP_FAILED ? nullptr : static_cast<std::byte*>(range);
}

bool commit_address_space(std::byte* begin, std::size_t bytes) noexcept {
  return ::mprotect(begin, bytes, PROT_READ | PROT_WRITE) == 0;
}

void release_address_space(std::byte* begin, std::size_t bytes) noexcept {
  ::munmap(begin, bytes);
}

#endif

}  // namespace quadpool::memory::detail
