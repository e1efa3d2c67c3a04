#!/usr/bin/env bash
# Runs spatial_bench (Release, asserts off) and turns its JSON into
#   docs/spatial_bench.json   the raw Google Benchmark output
#   docs/spatial_bench.png    p50 per tick against N, every method, log-log (gnuplot)
# and prints the Markdown table that engine/spatial/README.md shows.
#
#   scripts/plot_spatial.sh                     build preset bench, run, plot
#   scripts/plot_spatial.sh --from FILE.json    plot an earlier run without running again
#   TICKS=500 scripts/plot_spatial.sh           timed ticks per benchmark (default 500)
#
# Needs cmake, ninja, gnuplot (Debian: gnuplot-nox) and awk. About 4 minutes on 2 cores, most of
# it Box2D at N = 100k.
set -euo pipefail

cd "$(dirname "$0")/.."
die() { printf 'plot_spatial.sh: %s\n' "$*" >&2; exit 2; }

JSON=docs/spatial_bench.json
PNG=docs/spatial_bench.png
TICKS=${TICKS:-500}
FROM=""
while [ $# -gt 0 ]; do
  case "$1" in
    --from) [ $# -ge 2 ] || die "--from needs a JSON file"; FROM=$2; shift 2 ;;
    *) die "unknown argument '$1' (expected: --from FILE.json)" ;;
  esac
done
case "$TICKS" in '' | *[!0-9]*) die "TICKS is '$TICKS'; it must be a whole number >= 1" ;; esac
[ "$TICKS" -ge 1 ] || die "TICKS is '$TICKS'; it must be a whole number >= 1"
command -v gnuplot >/dev/null || die "gnuplot not found: apt-get install gnuplot-nox"

mkdir -p docs
if [ -n "$FROM" ]; then
  [ -f "$FROM" ] || die "no such file: $FROM"
  [ "$FROM" -ef "$JSON" ] || cp "$FROM" "$JSON"
else
  cmake --preset bench
  cmake --build --preset bench -j 2 --target spatial_bench
  build/bench/bench/spatial_bench --ticks="$TICKS" --benchmark_out="$JSON" --benchmark_out_format=json
fi

# Google Benchmark writes one "key": value per line. One pass collects the counters of each
# benchmark, writes the plot data to $DAT and prints the README table (p50 (p99) in
# microseconds per tick, and the ratios the targets are about).
DAT=$(mktemp)
trap 'rm -f "$DAT"' EXIT
awk -v dat="$DAT" '
  /"name":/ { split($0, q, "\""); name = q[4]; next }
  /"[a-z0-9_]+": [-0-9.e+]+,?$/ {
    split($0, q, "\""); key = q[2]; value = $2; sub(",", "", value)
    split(name, part, "/")
    if (part[1] == "interleaved") { v[part[2], key] = value; seen[part[2]] = 1 }
    if (part[1] == "broad_phase" && part[2] == "brute_force" && key == "p50_us") v[part[3], "brute_p50_us"] = value
  }
  function raw(n, key) { return ((n, key) in v) ? v[n, key] : "?" }
  function us(n, key) { return ((n, key) in v) ? sprintf("%.0f", v[n, key]) : "-" }
  function r(n, key) { return ((n, key) in v) ? sprintf("%.2f", v[n, key]) : "-" }
  END {
    print "# N quadtree_pool quadtree_new_delete uniform_grid box2d brute_force (p50 us per tick)" > dat
    print "| N | QuadTree Pool p50 (p99) | new/delete p50 (p99) | grid p50 | Box2D p50 (p99), mean | brute force p50 | Pool/grid | Pool/Box2D | Pool/new-delete p50, p99 | same, CPU time p50, p99 |"
    print "|---|---|---|---|---|---|---|---|---|---|"
    for (n = 1000; n <= 100000; n *= 10) {
      if (!(n in seen)) continue
      print n, raw(n, "quadtree_pool_p50_us"), raw(n, "quadtree_new_delete_p50_us"), raw(n, "uniform_grid_p50_us"),
            raw(n, "box2d_p50_us"), raw(n, "brute_p50_us") > dat
      printf "| %d | %s (%s) | %s (%s) | %s | %s (%s), %s | %s | %s | %s | %s, %s | %s, %s |\n", n,
        us(n, "quadtree_pool_p50_us"), us(n, "quadtree_pool_p99_us"),
        us(n, "quadtree_new_delete_p50_us"), us(n, "quadtree_new_delete_p99_us"),
        us(n, "uniform_grid_p50_us"), us(n, "box2d_p50_us"), us(n, "box2d_p99_us"), us(n, "box2d_mean_us"), us(n, "brute_p50_us"),
        r(n, "pool_over_grid_p50"), r(n, "pool_over_box2d_p50"),
        r(n, "pool_over_new_delete_p50"), r(n, "pool_over_new_delete_p99"),
        r(n, "pool_over_new_delete_cpu_p50"), r(n, "pool_over_new_delete_cpu_p99")
    }
  }' "$JSON"

gnuplot <<EOF
set terminal pngcairo size 900,600 font ",11"
set output "$PNG"
set title "Broad phase per tick (rebuild + every pair), p50, methods interleaved tick by tick"
set xlabel "sprites (N)"
set ylabel "microseconds per tick"
set logscale xy
set xrange [700:140000]
set grid
set key top left
set datafile missing "?"
plot "$DAT" using 1:2 with linespoints lw 2 title "QuadTree, Pool", \
     "" using 1:3 with linespoints lw 2 dt 2 title "QuadTree, new/delete", \
     "" using 1:4 with linespoints lw 2 title "uniform grid", \
     "" using 1:5 with linespoints lw 2 title "Box2D b2BroadPhase", \
     "" using 1:6 with linespoints lw 2 lc rgb "#888888" title "brute force"
EOF

echo "wrote $PNG and $JSON" >&2
