#!/usr/bin/env bash
# The ray-cast and nearest-box table of docs/spatial.md ("Ray casts and nearest boxes"): builds
# bench/spatial_queries at -O3 and -O2 (preset bench: Release, asserts off), runs each once over
# every size (10k, 100k, 1M boxes), and prints the table from their JSON. The ratios in a row are
# measured side by side (bench/spatial_queries.cpp interleaves the methods round by round).
#
#   scripts/spatial_queries.sh [--max_boxes N] [--rounds R]   # defaults: 1000000, 7
#   scripts/spatial_queries.sh --from DIR      # print the table of an earlier run's JSON in DIR
#
# About 2 minutes on 2 cores (most of it Box2D inserting a million proxies, twice per binary).
# The JSON stays in build/bench/spatial_queries{,_o2}.json.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/bench_lib.sh
source scripts/bench_lib.sh

MAX_BOXES=1000000
ROUNDS=7
FROM=""
while [ $# -gt 0 ]; do
  case "$1" in
    --max_boxes) MAX_BOXES=$(value_of spatial_queries.sh --max_boxes "${2-}"); shift 2 ;;
    --rounds) ROUNDS=$(value_of spatial_queries.sh --rounds "${2-}"); shift 2 ;;
    --from) FROM=$(value_of spatial_queries.sh --from "${2-}"); shift 2 ;;
    -h|--help) exit_with_usage scripts/spatial_queries.sh ;;
    *) refuse_argument spatial_queries.sh "$1" "use --max_boxes N, --rounds R or --from DIR" ;;
  esac
done
check_count spatial_queries.sh --max_boxes "$MAX_BOXES"
check_count spatial_queries.sh --rounds "$ROUNDS"

if [ -z "$FROM" ]; then
  FROM=build/bench
  cmake --preset bench >/dev/null
  cmake --build --preset bench -j 2 --target spatial_queries spatial_queries_o2 >&2
  for binary in spatial_queries spatial_queries_o2; do
    echo "==> $binary" >&2
    "build/bench/bench/$binary" --max_boxes="$MAX_BOXES" --rounds="$ROUNDS" \
      --benchmark_out="$FROM/$binary.json" --benchmark_out_format=json >&2
  done
fi

python3 - "$FROM/spatial_queries.json" "$FROM/spatial_queries_o2.json" <<'EOF'
import json
import sys


def rows(path):
    with open(path) as f:
        run = json.load(f)
    out = {}
    for b in run["benchmarks"]:
        if b.get("error_occurred"):
            sys.exit(f"spatial_queries.sh: {b['name']} failed in {path}: {b.get('error_message')}")
        out[b["name"].split("/iterations")[0]] = b
    return run["context"], out


context, o3 = rows(sys.argv[1])
_, o2 = rows(sys.argv[2])


def us(b, key):
    return f"{b[key] / 1000:.2f}" if key in b else "-"


def ratio(b, key):
    return f"{b[key]:.1f}" if key in b else "-"


print(f"host: {context.get('host_name', '?')}, {context.get('num_cpus', '?')} cpus, "
      f"{context.get('date', '?')}")
print()
print("| query | scene | N | tree µs | Box2D µs | brute force µs | Box2D / tree | "
      "brute force / tree | -O2: tree µs | -O2: Box2D / tree | -O2: brute force / tree |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for name, b in o3.items():
    kind, scene, n, what = name.split("/")
    query = f"ray, {what}" if kind == "ray" else f"nearest, k = {what[1:]}"
    c = o2.get(name, {})
    print(f"| {query} | {scene} | {int(n):,} | {us(b, 'quadtree_ns')} | {us(b, 'box2d_ns')} | "
          f"{us(b, 'brute_force_ns')} | {ratio(b, 'box2d_x')} | {ratio(b, 'brute_force_x')} | "
          f"{us(c, 'quadtree_ns')} | {ratio(c, 'box2d_x')} | {ratio(c, 'brute_force_x')} |")
EOF
