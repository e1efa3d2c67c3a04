// libFuzzer target for engine/spatial/quad_tree.*: each input is run by
// tests/spatial/quad_tree_input.hpp (a configuration, a node source and awkward boxes, checked
// against brute force and across node sources). A disagreement, a failed validate()
// (QUADPOOL_ASSERT aborts) or an ASan/UBSan report is a crash.
//
// Run by hand:  build/fuzz/tests/fuzz/quad_tree_fuzz -max_total_time=60 NEW_DIR \
//                   tests/fuzz/corpus/quad_tree
// spatial_tests replays the committed corpus without libFuzzer
// (QuadTree.ReplaysEveryCommittedFuzzInputWithoutADisagreement).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tests/spatial/quad_tree_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (const std::string error = quadpool::test::run_quad_tree_input(data, size); !error.empty()) {
    std::fprintf(stderr, "quad_tree_fuzz: %s\n", error.c_str());
    std::abort();
  }
  return 0;
}
