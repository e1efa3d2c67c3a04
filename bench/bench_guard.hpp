#pragma once
/// The guard every benchmark's main() runs first: numbers from a build with QUADPOOL_ASSERT or
/// the memory debug checks compiled in measure the checks, not the code a game ships (a checked
/// ObjectPool create+destroy pair costs several times an unchecked one). Like Google Benchmark's
/// own warning about debug builds, but a refusal: such a build reports nothing unless it is run
/// with --quadpool_allow_checked_build (the token runs in the test suite do), and then every
/// report's context says so.

#include <benchmark/benchmark.h>

namespace quadpool::bench {

/// The flag that lets a checked build run anyway.
inline constexpr const char* kAllowCheckedBuildFlag = "--quadpool_allow_checked_build";

/// Takes kAllowCheckedBuildFlag out of argv and adds the compiled switches to Google
/// Benchmark's context (quadpool_asserts, quadpool_memory_checks). Returns false, after one
/// line on stderr naming the switches and the flag, when the build is checked and the flag was
/// not given; main() then returns 2. Call before benchmark::Initialize.
bool guard_checked_build(int& argc, char** argv);

/// For a benchmark with flags of its own: reads `arg` as NAME=V (name with its dashes) into
/// `out` and returns true; false when `arg` is another flag. A value that is not an integer in
/// [lo, hi] gets one line on stderr, "PROGRAM: NAME is 'V'; it must be an integer in lo..hi",
/// and exit code 2.
bool read_int_flag(const char* program, const char* arg, const char* name, int lo, int hi,
                   int& out);

}  // namespace quadpool::bench

/// BENCHMARK_MAIN() with the guard in front.
#define QUADPOOL_BENCHMARK_MAIN()                                                \
  int main(int argc, char** argv) {                                              \
    if (!::quadpool::bench::guard_checked_build(argc, argv)) return 2;          \
    ::benchmark::Initialize(&argc, argv);                                        \
    if (::benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;          \
    ::benchmark::RunSpecifiedBenchmarks();                                       \
    ::benchmark::Shutdown();                                                     \
    return 0;                                                                    \
  }                                                                              \
  int main(int, char**)
