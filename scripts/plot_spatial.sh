#!/usr/bin/env bash
# Runs spatial_bench (Release, asserts off) and turns its JSON into
#   docs/spatial_bench.json   the raw Google Benchmark output
#   docs/spatial_bench.png    p50 per tick against N, every method, log-log, a panel per scene
#                             (gnuplot)
# and prints the Markdown tables, one per scene, that docs/spatial.md shows.
#
#   scripts/plot_spatial.sh                     build preset bench, run, plot
#   scripts/plot_spatial.sh --from FILE.json    plot an earlier run without running again
#   TICKS=500 scripts/plot_spatial.sh           timed ticks per benchmark (default 500)
#
# Needs cmake, ninja, gnuplot (Debian: gnuplot-nox) and awk. About 6 minutes on 2 cores, most of
# it the 100k runs.
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=scripts/bench_lib.sh
source scripts/bench_lib.sh
die() { printf 'plot_spatial.sh: %s\n' "$*" >&2; exit 2; }

JSON=docs/spatial_bench.json
PNG=docs/spatial_bench.png
TICKS=${TICKS:-500}
FROM=""
while [ $# -gt 0 ]; do
  case "$1" in
    --from) [ $# -ge 2 ] || die "--from needs a JSON file"; FROM=$2; shift 2 ;;
    -h|--help) exit_with_usage scripts/plot_spatial.sh ;;
    *) refuse_argument plot_spatial.sh "$1" "use --from FILE.json" ;;
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
  # The plot and tables cover 1k to 100k; 1M (minutes a tick's worth of peers) is measured on
  # its own (docs/spatial.md, "At 100k and 1M sprites").
  build/bench/bench/spatial_bench --ticks="$TICKS" --max_sprites=100000 \
    --benchmark_out="$JSON" --benchmark_out_format=json
fi

# Google Benchmark writes one "key": value per line. One pass collects the counters of each
# benchmark, writes the plot data to $DAT (one block per scene) and prints the docs/spatial.md tables
# (p50 (p99) in microseconds per tick, per scene, and the ratios the goals are about).
DAT=$(mktemp)
trap 'rm -f "$DAT"' EXIT
SCENES="uniform clustered mixed streams"
awk -v dat="$DAT" -v scenes="$SCENES" '
  /"name":/ { split($0, q, "\""); name = q[4]; next }
  /"[a-z0-9_]+": [-0-9.e+]+,?$/ {
    split($0, q, "\""); key = q[2]; value = $2; sub(",", "", value)
    split(name, part, "/")
    if (part[1] == "interleaved") { v[part[2], part[3], key] = value; seen[part[2], part[3]] = 1 }
    if (part[1] == "broad_phase" && part[3] == "brute_force" && key == "p50_us") v[part[2], part[4], "brute_p50_us"] = value
  }
  function raw(s, n, key) { return ((s, n, key) in v) ? v[s, n, key] : "?" }
  function us(s, n, key) { return ((s, n, key) in v) ? sprintf("%.0f", v[s, n, key]) : "-" }
  function r(s, n, key) { return ((s, n, key) in v) ? sprintf("%.2f", v[s, n, key]) : "-" }
  function both(s, n, m) { return us(s, n, m "_p50_us") " (" us(s, n, m "_p99_us") ")" }
  END {
    count = split(scenes, scene, " ")
    for (i = 1; i <= count; ++i) {
      s = scene[i]
      print "# " s > dat
      print ""
      print "**" s "**"
      print ""
      print "| N | QuadTree, pool | QuadTree, new/delete | sorted grid | sweep and prune | Box2D | brute force | pool / best peer | pool: build + pairs |"
      print "|---|---|---|---|---|---|---|---|---|"
      for (n = 1000; n <= 100000; n *= 10) {
        if (!((s, n) in seen)) continue
        print n, raw(s, n, "quadtree_pool_p50_us"), raw(s, n, "quadtree_new_delete_p50_us"),
              raw(s, n, "uniform_grid_p50_us"), raw(s, n, "sweep_and_prune_p50_us"),
              raw(s, n, "box2d_p50_us"), raw(s, n, "brute_p50_us") > dat
        printf "| %d | %s | %s | %s | %s | %s | %s | %s | %s + %s |\n", n,
          both(s, n, "quadtree_pool"), both(s, n, "quadtree_new_delete"), both(s, n, "uniform_grid"),
          both(s, n, "sweep_and_prune"), both(s, n, "box2d"), us(s, n, "brute_p50_us"),
          r(s, n, "pool_over_best_peer_p50"),
          us(s, n, "quadtree_pool_build_p50_us"), us(s, n, "quadtree_pool_pairs_p50_us")
      }
      print "" > dat
      print "" > dat
    }
  }' "$JSON"

gnuplot <<EOF
set terminal pngcairo size 1200,900 font ",10"
set output "$PNG"
set multiplot layout 2,2 title "Broad phase per tick (rebuild + every pair), p50, methods interleaved tick by tick"
set xlabel "sprites (N)"
set ylabel "microseconds per tick"
set logscale xy
set xrange [700:140000]
set grid
set key top left
set datafile missing "?"
do for [i=0:3] {
  set title word("$SCENES", i + 1)
  plot "$DAT" index i using 1:2 with linespoints lw 2 title "QuadTree, pool", \
       "" index i using 1:3 with linespoints lw 2 dt 2 title "QuadTree, new/delete", \
       "" index i using 1:4 with linespoints lw 2 title "sorted grid", \
       "" index i using 1:5 with linespoints lw 2 title "sweep and prune", \
       "" index i using 1:6 with linespoints lw 2 title "Box2D b2BroadPhase", \
       "" index i using 1:7 with linespoints lw 2 lc rgb "#888888" title "brute force"
}
unset multiplot
EOF

echo "wrote $PNG and $JSON" >&2
