#include "engine/memory/huge_page_allocator.hpp"

#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace quadpool::memory::detail {

namespace {

constexpr bool is_huge(std::size_t bytes) noexcept {
  return bytes >= kHugePageBytes;
}

// A large block is a whole number of huge pages, so that the advice covers all of it and no
// neighbour's memory.
constexpr std::size_t huge_size(std::size_t bytes) noexcept {
  return (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
}

constexpr bool over_aligned(std::size_t alignment) noexcept {
  return alignment > __STDCPP_DEFAULT_NEW_ALIGNMENT__;
}

}  // namespace

void* allocate_maybe_huge(std::size_t bytes, std::size_t alignment) {
  if (!is_huge(bytes)) {
    return over_aligned(alignment) ? ::operator new (bytes, std::align_val_t{alignment})
                                   : ::operator new(bytes);
  }
  if (bytes > huge_size(bytes)) throw std::bad_array_new_length();  // the round-up wrapped
  void* block = ::operator new (huge_size(bytes), std::align_val_t{kHugePageBytes});
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  // Advice only: where transparent huge pages are "never", or the kernel has none, it fails
  // (EINVAL) and the block works as it is.
  static_cast<void>(::madvise(block, huge_size(bytes), MADV_HUGEPAGE));
#endif
  return block;
}

void deallocate_maybe_huge(void* block, std::size_t bytes, std::size_t alignment) noexcept {
  if (is_huge(bytes)) {
    ::operator delete (block, std::align_val_t{kHugePageBytes});
  } else if (over_aligned(alignment)) {
    ::operator delete (block, std::align_val_t{alignment});
  } else {
    ::operator delete(block);
  }
}

}  // namespace quadpool::memory::detail
