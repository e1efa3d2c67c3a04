#!/usr/bin/env bash
# The tick's thread scaling, measured side by side in one run: for each sprite count, the Release
# runner at each thread count (and, with --baseline, another build's runner, which runs on one
# thread), the order rotating between rounds so that drifting machine load favours none.
#
#   scripts/thread_scaling.sh [--rounds R] [--sprites "100000 1000000"] [--threads "1 2"]
#                             [--scene KIND] [--baseline EXE]
#
# Prints a markdown table: the median over the rounds of each run's tick p50 and phase_ms, and
# each row's speed-up over the first thread count's row (and over the baseline). The load average
# before and after is printed too: on a shared machine a ratio means little without it.
# Build: preset release (build/release), asserts off.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
# shellcheck source=scripts/bench_lib.sh
source scripts/bench_lib.sh

ROUNDS=3
SPRITES="100000 1000000"
THREADS="1 2"
SCENE=uniform
BASELINE=""
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) ROUNDS=$(value_of thread_scaling.sh --rounds "${2-}"); shift 2 ;;
    --sprites) SPRITES=$(value_of thread_scaling.sh --sprites "${2-}"); shift 2 ;;
    --threads) THREADS=$(value_of thread_scaling.sh --threads "${2-}"); shift 2 ;;
    --scene) SCENE=$(value_of thread_scaling.sh --scene "${2-}"); shift 2 ;;
    --baseline) BASELINE=$(value_of thread_scaling.sh --baseline "${2-}"); shift 2 ;;
    -h|--help) exit_with_usage scripts/thread_scaling.sh ;;
    *) refuse_argument thread_scaling.sh "$1" "use --rounds R, --sprites LIST, --threads LIST, --scene KIND, --baseline EXE" ;;
  esac
done
check_count thread_scaling.sh --rounds "$ROUNDS"
if [ -n "$BASELINE" ] && [ ! -x "$BASELINE" ]; then
  echo "thread_scaling.sh: --baseline '$BASELINE' is not an executable" >&2; exit 2
fi

cmake --preset release >&2
cmake --build --preset release -j 2 --target quadpool >&2
EXE="$ROOT/build/release/game/quadpool"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# Enough ticks that the median is the steady state: a run's first ticks grow its buffers and
# warm its caches (at 1M, 30 ticks put the median 0.5-1 ms above 120 ticks').
ticks_for() { if [ "$1" -ge 1000000 ]; then echo 120; elif [ "$1" -ge 100000 ]; then echo 200; else echo 1000; fi; }

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for n in $SPRITES; do
  runs=()
  for t in $THREADS; do runs+=("t$t"); done
  [ -n "$BASELINE" ] && runs+=("baseline")
  for ((r = 0; r < ROUNDS; ++r)); do
    count=${#runs[@]}
    for ((k = 0; k < count; ++k)); do
      run=${runs[$(((k + r) % count))]}
      args=(--headless --scene "$SCENE" --sprites "$n" --ticks "$(ticks_for "$n")" --seed 3 --json)
      if [ "$run" = baseline ]; then
        "$BASELINE" "${args[@]}" > "$TMP/$n-$run-$r.json"
      else
        "$EXE" "${args[@]}" --threads "${run#t}" > "$TMP/$n-$run-$r.json"
      fi
    done
  done
done
echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$TMP" "$ROUNDS" "$SPRITES" "$THREADS" "${BASELINE:+baseline}" <<'PY'
import json, statistics, sys
tmp, rounds, sprites, threads, baseline = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(), sys.argv[4].split(), sys.argv[5]
runs = ["t" + t for t in threads] + ([baseline] if baseline else [])
print("| sprites | run | tick p50 ms | integrate | rebuild | pairs | resolve | speed-up vs " + runs[0] + (" | vs baseline" if baseline else "") + " | state_hash |")
print("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |" + (" ---: |" if baseline else "") + " --- |")
for n in sprites:
    rows = {}
    for run in runs:
        data = [json.load(open(f"{tmp}/{n}-{run}-{r}.json")) for r in range(rounds)]
        med = lambda f: statistics.median(f(d) for d in data)
        rows[run] = (med(lambda d: d["tick_ms"]["median"]),
                     [med(lambda d, p=p: d["phase_ms"][p]) for p in ("integrate", "rebuild", "pairs", "resolve")],
                     data[0]["state_hash"])
    for run in runs:
        tick, phases, hash_ = rows[run]
        line = f"| {n} | {run} | {tick:.2f} | " + " | ".join(f"{p:.2f}" for p in phases)
        line += f" | {rows[runs[0]][0] / tick:.2f}x"
        if baseline:
            line += f" | {rows[baseline][0] / tick:.2f}x"
        print(line + f" | {hash_} |")
PY
