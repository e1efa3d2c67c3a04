#!/usr/bin/env bash
# Runs the pool benchmarks (memory_bench at -O3, memory_bench_o2 at -O2, memory_bench_mimalloc)
# in a Release build with asserts off, and rewrites the pool table in docs/memory.md
# from their JSON.
#   scripts/pool_bench.sh            # about 5 minutes on 2 cores; takes no arguments
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/bench_lib.sh
source scripts/bench_lib.sh
takes_at_most scripts/pool_bench.sh 0 "it takes none" "$@"
./setup.sh deps
cmake --preset bench >/dev/null
cmake --build --preset bench --target memory_bench memory_bench_o2 memory_bench_mimalloc
args=(--benchmark_filter='^(Frame|Tight)/' --benchmark_min_time=0.1 --benchmark_repetitions=5
      --benchmark_enable_random_interleaving=true --benchmark_report_aggregates_only=true
      --benchmark_format=json)
echo "==> memory_bench (about 2 minutes)"
build/bench/bench/memory_bench "${args[@]}" > build/bench/pool_bench.json
echo "==> memory_bench_o2 (about 2 minutes)"
build/bench/bench/memory_bench_o2 "${args[@]}" > build/bench/pool_bench_o2.json
echo "==> memory_bench_mimalloc"
build/bench/bench/memory_bench_mimalloc "${args[@]}" > build/bench/pool_bench_mimalloc.json
python3 scripts/pool_bench_table.py build/bench/pool_bench.json build/bench/pool_bench_o2.json \
  build/bench/pool_bench_mimalloc.json \
  --doc docs/memory.md
