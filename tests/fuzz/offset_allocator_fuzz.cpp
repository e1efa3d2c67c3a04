// libFuzzer target for engine/memory/offset_allocator.*: the fuzzer's bytes choose the same
// operations as the differential test (allocate with sizes and alignments, free, deferred free,
// frame release, extend), applied to a DeferredOffsetAllocator and to the reference model and
// compared after every step (tests/helpers/offset_allocator_model.hpp). A disagreement, a failed
// validate() (QUADPOOL_ASSERT aborts), or an ASan/UBSan report is a crash.
//
// Run by hand:  build/fuzz/tests/fuzz/offset_allocator_fuzz -max_total_time=60 NEW_DIR \
//                   tests/fuzz/corpus/offset_allocator
// memory_tests replays the committed corpus without libFuzzer (OffsetAllocator.
// ReplaysEveryCommittedFuzzInputWithoutADisagreement).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tests/helpers/offset_allocator_model.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (const std::string error = quadpool::test::run_offset_allocator_input(data, size);
      !error.empty()) {
    std::fprintf(stderr, "offset_allocator_fuzz: %s\n", error.c_str());
    std::abort();
  }
  return 0;
}
