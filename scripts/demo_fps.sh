#!/usr/bin/env bash
# Measures the demo's frame rate under xvfb-run with SDL's software renderer, overlay on, vsync
# off, from the demo's own frame statistics (the JSON summary it prints with --frames). Runs
# each sprite count ROUNDS times, alternating, and prints one table row per run plus the median.
#
#   scripts/demo_fps.sh [BUILD_DIR] [FRAMES] [ROUNDS]    (defaults: build/release 600 3)
#
# The machine's load average is printed with the table: on a shared machine it moves the
# numbers more than anything in the demo does.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build/release}
FRAMES=${2:-600}
ROUNDS=${3:-3}
EXE="$BUILD/game/quadpool"
[ -x "$EXE" ] || { echo "demo_fps.sh: no $EXE; build it first (./setup.sh demo, or cmake --preset release)" >&2; exit 2; }
command -v xvfb-run >/dev/null || { echo "demo_fps.sh: needs xvfb-run (Debian package xvfb)" >&2; exit 2; }

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-8s %-6s %8s %10s %10s %10s %10s %10s\n' sprites round fps median_ms p99_ms tick_ms render_ms cpu_ms
declare -A results
for round in $(seq 1 "$ROUNDS"); do
  for sprites in 5000 20000 50000; do
    json=$(xvfb-run -a -s "-screen 0 1280x800x24" "$EXE" --sprites "$sprites" --frames "$FRAMES" \
           --window 1280x800 --vsync off 2>/dev/null)
    row=$(python3 -c '
import json, sys
d = json.loads(sys.argv[1])
p = d["phase_ms"]
tick = p["integrate"] + p["rebuild"] + p["pairs"] + p["resolve"]
f = d["frame_ms"]
print("%.1f %.2f %.2f %.2f %.2f %.2f" % (d["fps_median"], f["median"], f["p99"], tick, p["render"],
                                        d["cpu_ms_per_frame"]))
' "$json")
    read -r fps median p99 tick render cpu <<<"$row"
    printf '%-8s %-6s %8s %10s %10s %10s %10s %10s\n' "$sprites" "$round" "$fps" "$median" "$p99" \
      "$tick" "$render" "$cpu"
    results[$sprites]="${results[$sprites]:-} $fps"
  done
done
echo "median FPS over $ROUNDS rounds (frames: $FRAMES, window 1280x800, overlay on):"
for sprites in 5000 20000 50000; do
  median=$(printf '%s\n' ${results[$sprites]} | sort -n | awk '{a[NR]=$1} END{print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}')
  echo "  $sprites sprites: $median FPS"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
