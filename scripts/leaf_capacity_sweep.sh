#!/usr/bin/env bash
# How the broad phase's time depends on the tree's leaf_capacity, on every scene: runs
# spatial_bench's interleaved benchmarks once per capacity and prints a markdown table of the
# tree's p50 (pool) and its ratio to the best peer measured in the same run.
#
#   scripts/leaf_capacity_sweep.sh [--ticks T] [--sprites N] [CAPACITY...]
#
# Defaults: 200 ticks, 10000 sprites, capacities 8 16 32 64 128. Build: preset bench (Release,
# asserts off), as scripts/plot_spatial.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/bench_lib.sh
source scripts/bench_lib.sh

die() { printf 'leaf_capacity_sweep.sh: %s\n' "$*" >&2; exit 2; }
TICKS=200
SPRITES=10000
CAPACITIES=()
while [ $# -gt 0 ]; do
  case "$1" in
    --ticks) TICKS=$(value_of leaf_capacity_sweep.sh --ticks "${2-}"); shift 2 ;;
    --sprites) SPRITES=$(value_of leaf_capacity_sweep.sh --sprites "${2-}"); shift 2 ;;
    -h|--help) exit_with_usage scripts/leaf_capacity_sweep.sh ;;
    -*) refuse_argument leaf_capacity_sweep.sh "$1" "use --ticks T, --sprites N, then capacities" ;;
    *) CAPACITIES+=("$1"); shift ;;
  esac
done
[ ${#CAPACITIES[@]} -gt 0 ] || CAPACITIES=(8 16 32 64 128)
case "$TICKS" in '' | *[!0-9]* | 0) die "--ticks must be a whole number >= 1, got '$TICKS'" ;; esac
case "$SPRITES" in 1000 | 10000 | 100000) ;; *) die "--sprites must be 1000, 10000 or 100000 (the benchmark's sizes), got '$SPRITES'" ;; esac
for c in "${CAPACITIES[@]}"; do
  case "$c" in '' | *[!0-9]* | 0) die "a capacity must be a whole number >= 1, got '$c'" ;; esac
done

cmake --preset bench >/dev/null
cmake --build --preset bench -j 2 --target spatial_bench >&2
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
for c in "${CAPACITIES[@]}"; do
  echo "==> leaf_capacity $c: $SPRITES sprites, $TICKS ticks per scene" >&2
  build/bench/bench/spatial_bench --quadtree_leaf_capacity="$c" --ticks="$TICKS" \
    --benchmark_filter="interleaved/.*/$SPRITES/" \
    --benchmark_out="$OUT/$c.json" --benchmark_out_format=json >/dev/null
done

python3 - "$OUT" "$SPRITES" "${CAPACITIES[@]}" <<'EOF'
import json, sys
from pathlib import Path
out, sprites, capacities = Path(sys.argv[1]), sys.argv[2], sys.argv[3:]
scenes = ["uniform", "clustered", "mixed", "streams"]
rows = {}
for c in capacities:
    for b in json.loads((out / f"{c}.json").read_text())["benchmarks"]:
        scene = b["name"].split("/")[1]
        rows[(c, scene)] = (b["quadtree_pool_p50_us"], b["pool_over_best_peer_p50"])
print(f"QuadTree (pool) p50 in µs at {int(sprites):,} sprites, and over the best peer's p50 in the same run:\n")
print("| leaf_capacity | " + " | ".join(scenes) + " |")
print("|---" * (len(scenes) + 1) + "|")
for c in capacities:
    cells = [f"{rows[(c, s)][0]:.0f} ({rows[(c, s)][1]:.2f})" for s in scenes]
    print(f"| {c} | " + " | ".join(cells) + " |")
EOF
