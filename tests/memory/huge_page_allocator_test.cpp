// Tests of HugePageAllocator: large blocks are 2 MiB-aligned and advised for huge pages, small
// ones are plain, every block goes through operator new, and a vector grows across the size
// where one kind becomes the other without losing its contents.
#include "engine/memory/huge_page_allocator.hpp"

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <numeric>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "common/heap_counter.hpp"
#include "tests/helpers/skip.hpp"

namespace quadpool::memory {
namespace {

bool aligned_to(const void* p, std::size_t alignment) {
  return reinterpret_cast<std::uintptr_t>(p) % alignment == 0;
}

// The VmFlags line of the mapping in /proc/self/smaps that holds `p`, or "" if none is found.
std::string vm_flags_of(const void* p) {
  std::ifstream smaps("/proc/self/smaps");
  const auto address = reinterpret_cast<std::uintptr_t>(p);
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    std::uintptr_t begin = 0, end = 0;
    char dash = 0;
    std::istringstream range(line);
    if (range >> std::hex >> begin >> dash >> end && dash == '-') {
      inside = begin <= address && address < end;
    } else if (inside && line.rfind("VmFlags:", 0) == 0) {
      return line;
    }
  }
  return "";
}

TEST(HugePageAllocator, ALargeBlockIsAlignedToAHugePageAndKeepsItsValues) {
  HugePageVector<std::uint32_t> values(kHugePageBytes);  // 8 MiB
  EXPECT_TRUE(aligned_to(values.data(), kHugePageBytes));
  std::iota(values.begin(), values.end(), 0u);
  for (std::size_t i = 0; i < values.size(); i += 4099) ASSERT_EQ(values[i], i);
}

TEST(HugePageAllocator, ALargeBlockIsAdvisedForHugePagesOnLinux) {
#if defined(__linux__)
  QUADPOOL_SKIP_UNLESS(std::ifstream("/sys/kernel/mm/transparent_hugepage/enabled").good(),
                       "transparent huge pages (this kernel has none)");
  const HugePageVector<std::byte> block(3 * kHugePageBytes);
  const std::string flags = vm_flags_of(block.data());
  ASSERT_FALSE(flags.empty()) << "no mapping in /proc/self/smaps holds the block";
  // "hg": the kernel's VM_HUGEPAGE, set by madvise(MADV_HUGEPAGE).
  EXPECT_NE(flags.find(" hg"), std::string::npos) << flags;
#else
  GTEST_SKIP() << "the advice is Linux's (madvise)";
#endif
}

TEST(HugePageAllocator, ASmallBlockIsAnOrdinaryOneWithItsTypesAlignment) {
  struct alignas(64) Line {
    std::byte bytes[64];
  };
  HugePageVector<Line> lines(3);
  EXPECT_TRUE(aligned_to(lines.data(), 64));
  HugePageVector<char> text(100, 'x');
  EXPECT_EQ(text[99], 'x');
}

TEST(HugePageAllocator, EveryBlockGoesThroughOperatorNew) {
  QUADPOOL_SKIP_UNLESS(heap_counting_enabled(), "the heap counter (ThreadSanitizer build)");
  const std::uint64_t before = heap_allocations();
  {
    HugePageVector<std::uint64_t> small(10);
    HugePageVector<std::uint64_t> large(kHugePageBytes / 4);
  }
  EXPECT_EQ(heap_allocations() - before, 2u);
}

TEST(HugePageAllocator, AVectorGrowsFromSmallToLargeWithItsContents) {
  HugePageVector<std::uint32_t> values;
  const std::uint32_t count = 3 * kHugePageBytes / sizeof(std::uint32_t);
  for (std::uint32_t i = 0; i < count; ++i) values.push_back(i * 7u);
  for (std::uint32_t i = 0; i < count; i += 997) ASSERT_EQ(values[i], i * 7u);
  values.resize(10);
  values.shrink_to_fit();  // large back to small
  EXPECT_EQ(values[9], 63u);
}

}  // namespace
}  // namespace quadpool::memory
