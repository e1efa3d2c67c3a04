#!/usr/bin/env bash
# Runs bench/entity_churn at -O3 (entity_churn) and -O2 (entity_churn_o2) in the bench preset
# (Release, asserts and memory checks off): 5 rounds each, benchmarks interleaved at random,
# medians; prints the Markdown table of docs/memory.md#slotpool-measured.
#   scripts/entity_churn.sh          # about 2 minutes on 2 cores; takes no arguments
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/bench_lib.sh
source scripts/bench_lib.sh
takes_at_most scripts/entity_churn.sh 0 "it takes none" "$@"
cmake --preset bench >/dev/null
cmake --build --preset bench --target entity_churn entity_churn_o2
args=(--benchmark_min_time=0.1 --benchmark_repetitions=5 --benchmark_enable_random_interleaving=true
      --benchmark_report_aggregates_only=true --benchmark_format=json)
for level in o3 o2; do
  exe=build/bench/bench/entity_churn
  [ "$level" = o3 ] || exe=build/bench/bench/entity_churn_o2
  echo "==> $exe" >&2
  "$exe" "${args[@]}" > "build/bench/entity_churn_$level.json"
done
python3 scripts/entity_churn_table.py build/bench/entity_churn_o3.json build/bench/entity_churn_o2.json
