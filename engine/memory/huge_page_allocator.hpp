#pragma once
/// HugePageAllocator<T>: std::allocator's drop-in for the big arrays a frame streams through
/// (at a million sprites the boxes, the sort keys and the ids are megabytes each, walked or
/// gathered every frame). A block of at least kHugePageBytes is aligned to 2 MiB and, on Linux,
/// advised MADV_HUGEPAGE before anything touches it, so that where transparent huge pages are
/// set to "madvise" (Debian's default) the kernel backs it with 2 MiB pages: one TLB entry
/// covers what 512 would, and a pass over ten such arrays at once stops missing the TLB at
/// every 4 KiB page. Anywhere else the advice is ignored and the block is an ordinary one.
/// Smaller blocks are plain ::operator new. Every block comes from ::operator new (the aligned
/// form for the large ones), so a replaced operator new sees it and a heap counter counts it.
///
///     std::vector<float, quadpool::memory::HugePageAllocator<float>> xs(1'000'000);
///     quadpool::memory::HugePageVector<float> ys(1'000'000);  // the same

#include <cstddef>
#include <limits>
#include <new>
#include <vector>

namespace quadpool::memory {

/// The page size the advice asks for, and the smallest block that gets it.
inline constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;

namespace detail {
/// `bytes` aligned to `alignment`; from kHugePageBytes on, 2 MiB-aligned and advised.
void* allocate_maybe_huge(std::size_t bytes, std::size_t alignment);
/// Frees what allocate_maybe_huge(bytes, alignment) returned.
void deallocate_maybe_huge(void* block, std::size_t bytes, std::size_t alignment) noexcept;
}  // namespace detail

template <class T>
class HugePageAllocator {
 public:
  using value_type = T;

  HugePageAllocator() noexcept = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) noexcept {}  // NOLINT: rebinding converts

  T* allocate(std::size_t n) {
    if (n > std::numeric_limits<std::size_t>::max() / sizeof(T)) throw std::bad_array_new_length();
    return static_cast<T*>(detail::allocate_maybe_huge(n * sizeof(T), alignof(T)));
  }
  void deallocate(T* block, std::size_t n) noexcept {
    detail::deallocate_maybe_huge(block, n * sizeof(T), alignof(T));
  }

  // Stateless: any instance frees what any other allocated.
  template <class U>
  bool operator==(const HugePageAllocator<U>&) const noexcept {
    return true;
  }
};

template <class T>
using HugePageVector = std::vector<T, HugePageAllocator<T>>;

}  // namespace quadpool::memory
