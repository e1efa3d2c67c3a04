// The pool against its peers: written with the foundation issue.
#include <benchmark/benchmark.h>

BENCHMARK_MAIN();
