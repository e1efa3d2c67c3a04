// libFuzzer target for engine/memory/offset_allocator.*: the fuzzer's bytes choose the same
// operations as the differential test (allocate with sizes and alignments, free, deferred free,
// frame release, extend), applied to a DeferredOffsetAllocator and to the reference model and
// compared after every step. A disagreement, a failed validate() (QUADPOOL_ASSERT aborts), or an
// ASan/UBSan report is a crash.
//
// Run by hand:  build/fuzz/tests/fuzz/offset_allocator_fuzz -max_total_time=60 NEW_DIR \
//                   tests/fuzz/corpus/offset_allocator
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tests/common/offset_allocator_model.hpp"

namespace {

// Reads each choice from the next bytes (as many as the bound needs); zeros once they run out.
class ByteChoices {
 public:
  ByteChoices(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  bool exhausted() const { return position_ >= size_; }

  std::uint64_t below(std::uint64_t bound) {
    if (bound <= 1) return 0;
    std::uint64_t value = 0;
    for (std::uint64_t range = bound - 1; range != 0; range >>= 8) {
      value = (value << 8) | (position_ < size_ ? data_[position_++] : 0u);
    }
    return value % bound;
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t position_ = 0;
};

[[noreturn]] void fail(const char* when, int step, const std::string& error) {
  std::fprintf(stderr, "offset_allocator_fuzz: %s %d: %s\n", when, step, error.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ByteChoices choices(data, size);
  // Small capacities keep the linear model fast and make failures and fragmentation common.
  quadpool::test::OffsetAllocatorDifferential run(1 + choices.below(4096), 8192);
  int step = 0;
  for (; !choices.exhausted(); ++step) {
    if (const std::string error = run.step(choices); !error.empty()) fail("step", step, error);
  }
  if (const std::string error = run.finish(); !error.empty()) fail("closing check after step", step, error);
  return 0;
}
