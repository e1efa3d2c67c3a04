#!/usr/bin/env bash
# Measures the demo's frame rate under xvfb-run with SDL's software renderer, overlay on, vsync
# off, from the demo's own frame statistics (the JSON summary it prints with --frames). Runs
# each sprite count ROUNDS times, alternating, and prints one table row per run plus the median.
# With BASELINE_BUILD_DIR (a build of another commit), every run of BUILD_DIR is followed by the
# same run of the baseline, so that both see the same machine load, and the medians are compared.
#
#   [MODE=lab|play] [SPRITES="5000 20000 50000"] scripts/demo_fps.sh [BUILD_DIR] [FRAMES]
#       [ROUNDS] [BASELINE_BUILD_DIR]
#   (defaults: lab, those sprite counts, build/release of this checkout 600 3, no baseline).
#   A relative BUILD_DIR is taken from the folder you run it in. MODE=play measures the game
#   with the bot flying (--bot), the sprites being its rocks; lab the lab (--lab).
#
# The machine's load average is printed with the table: on a shared machine it moves the
# numbers more than anything in the demo does.
set -euo pipefail
# No cd to the checkout: the build folders are the caller's paths.
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/bench_lib.sh
source "$ROOT/scripts/bench_lib.sh"
for arg in "$@"; do
  case "$arg" in
    -h|--help) exit_with_usage "$ROOT/scripts/demo_fps.sh" ;;
    -*) refuse_argument demo_fps.sh "$arg" "use [BUILD_DIR] [FRAMES] [ROUNDS] [BASELINE_BUILD_DIR]" ;;
  esac
done
[ $# -le 4 ] || refuse_argument demo_fps.sh "$5" "it takes at most four: BUILD_DIR FRAMES ROUNDS BASELINE_BUILD_DIR"
BUILD=${1:-$ROOT/build/release}
FRAMES=${2:-600}
ROUNDS=${3:-3}
BASELINE=${4:-}
MODE=${MODE:-lab}
SPRITES=${SPRITES:-5000 20000 50000}
for n in $SPRITES; do check_count demo_fps.sh SPRITES "$n"; done
case "$MODE" in
  lab) mode_flags=(--lab) ;;
  play) mode_flags=(--bot) ;;
  *) echo "demo_fps.sh: MODE must be 'lab' or 'play', got '$MODE'" >&2; exit 2 ;;
esac
check_count demo_fps.sh FRAMES "$FRAMES"
check_count demo_fps.sh ROUNDS "$ROUNDS"
builds=("$BUILD")
[ -z "$BASELINE" ] || builds+=("$BASELINE")
for build in "${builds[@]}"; do
  [ -d "$build" ] || { echo "demo_fps.sh: '$build' is not a folder (BUILD_DIR and BASELINE_BUILD_DIR are build folders, such as build/release)" >&2; exit 2; }
  [ -x "$build/game/quadpool" ] || { echo "demo_fps.sh: no $build/game/quadpool; build it first (./setup.sh demo, or cmake --preset release)" >&2; exit 2; }
done
command -v xvfb-run >/dev/null || { echo "demo_fps.sh: needs xvfb-run (Debian package xvfb)" >&2; exit 2; }

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-8s %-6s %-5s %8s %10s %10s %10s %10s %10s\n' sprites round build fps median_ms p99_ms tick_ms render_ms cpu_ms
declare -A results
for round in $(seq 1 "$ROUNDS"); do
  for sprites in $SPRITES; do
    for b in "${!builds[@]}"; do
      json=$(xvfb-run -a -s "-screen 0 1280x800x24" "${builds[$b]}/game/quadpool" "${mode_flags[@]}" --sprites "$sprites" \
             --frames "$FRAMES" --window 1280x800 --vsync off 2>/dev/null)
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
      name=$([ "$b" -eq 0 ] && echo this || echo base)
      printf '%-8s %-6s %-5s %8s %10s %10s %10s %10s %10s\n' "$sprites" "$round" "$name" "$fps" \
        "$median" "$p99" "$tick" "$render" "$cpu"
      results[$b,$sprites]="${results[$b,$sprites]:-} $fps"
    done
  done
done
echo "median FPS over $ROUNDS rounds ($MODE, frames: $FRAMES, window 1280x800, overlay on):"
for sprites in $SPRITES; do
  # shellcheck disable=SC2086  # the runs' FPS values are words
  this=$(printf '%s\n' ${results[0,$sprites]} | median)
  if [ -n "$BASELINE" ]; then
    # shellcheck disable=SC2086
    base=$(printf '%s\n' ${results[1,$sprites]} | median)
    echo "  $sprites sprites: $this FPS ($BUILD), $base FPS ($BASELINE), ratio $(awk -v a="$this" -v b="$base" 'BEGIN { printf "%.2f", a / b }')"
  else
    echo "  $sprites sprites: $this FPS"
  fi
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
