#!/usr/bin/env bash
# The game's tick in this checkout against the same tick built from another commit, side by side
# on one machine: the way to show that a change to the engine made the game faster or slower.
#
#   scripts/tick_compare.sh REV [--rounds R] [--scene KIND] [--sprites "10000 100000"]
#
# REV (a commit, tag or branch) is checked out into build/compare/<sha> (a detached git worktree)
# and both trees are built with the `bench` preset (Release, asserts and memory checks off). Each
# round runs `quadpool --headless --scene KIND --sprites N --json` once from each build, the
# order alternating between rounds so that drifting machine load favours neither. Prints a
# markdown table: the median over the rounds of each run's median and p99 tick, and this
# checkout's median over REV's (below 1 is faster).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
# shellcheck source=scripts/bench_lib.sh
source scripts/bench_lib.sh

usage() { echo "usage: scripts/tick_compare.sh REV [--rounds R] [--scene KIND] [--sprites LIST]" >&2; exit 2; }
[ $# -ge 1 ] || usage
case "$1" in
  -h|--help) exit_with_usage scripts/tick_compare.sh ;;
  -*) refuse_argument tick_compare.sh "$1" "the first argument is REV, a commit" ;;
esac
REV=$1; shift
ROUNDS=5
SCENE=uniform
SPRITES="10000 100000"
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) ROUNDS=$(value_of tick_compare.sh --rounds "${2-}"); shift 2 ;;
    --scene) SCENE=$(value_of tick_compare.sh --scene "${2-}"); shift 2 ;;
    --sprites) SPRITES=$(value_of tick_compare.sh --sprites "${2-}"); shift 2 ;;
    -h|--help) exit_with_usage scripts/tick_compare.sh ;;
    *) refuse_argument tick_compare.sh "$1" "use --rounds R, --scene KIND, --sprites LIST after REV" ;;
  esac
done
check_count tick_compare.sh --rounds "$ROUNDS"
for n in $SPRITES; do
  case "$n" in ''|*[!0-9]*) echo "tick_compare.sh: --sprites must list integers in [1, 1000000], got '$n'" >&2; exit 2 ;; esac
done
SHA=$(git rev-parse --verify --quiet "$REV^{commit}") ||
  { echo "tick_compare.sh: '$REV' is not a commit of this repository" >&2; exit 2; }

BASE="$ROOT/build/compare/$SHA"
if [ ! -d "$BASE" ]; then
  echo "==> checking out $REV ($SHA) into $BASE" >&2
  git worktree add --detach "$BASE" "$SHA" >&2
fi
for tree in "$BASE" "$ROOT"; do
  echo "==> building quadpool in $tree (preset bench)" >&2
  (cd "$tree" && cmake --preset bench >/dev/null && cmake --build --preset bench -j 2 --target quadpool >&2)
done
OLD="$BASE/build/bench/game/quadpool"
NEW="$ROOT/build/bench/game/quadpool"

OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
for n in $SPRITES; do
  # About two seconds a run: 1,000 ticks at 10k sprites, 200 at 100k.
  ticks=$(( n >= 50000 ? 200 : 1000 ))
  for round in $(seq 1 "$ROUNDS"); do
    order="old new"
    [ $((round % 2)) -eq 0 ] && order="new old"
    for which in $order; do
      exe=$OLD; [ "$which" = new ] && exe=$NEW
      echo "==> $SCENE, $n sprites, round $round/$ROUNDS: ${which}" >&2
      "$exe" --headless --scene "$SCENE" --sprites "$n" --ticks "$ticks" --json >"$OUT/$n-$which-$round.json"
    done
  done
done

python3 - "$OUT" "$REV" "$SCENE" "$SPRITES" <<'EOF'
import json, statistics, sys
from pathlib import Path
out, rev, scene, sprites = Path(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4].split()

def stat(n, which, key):
    runs = [json.loads(p.read_text()) for p in sorted(out.glob(f"{n}-{which}-*.json"))]
    hashes = {r["state_hash"] for r in runs}
    if len(hashes) != 1:
        sys.exit(f"tick_compare.sh: runs of one build disagree on the state hash: {hashes}")
    return statistics.median(r["tick_ms"][key] for r in runs)

print(f"Scene `{scene}`, tick in ms, median over the rounds (p99 in brackets):\n")
print(f"| sprites | {rev} | this checkout | this / {rev} |")
print("|---|---|---|---|")
for n in sprites:
    old, new = stat(n, "old", "median"), stat(n, "new", "median")
    print(f"| {int(n):,} | {old:.3f} ({stat(n, 'old', 'p99'):.3f}) | "
          f"{new:.3f} ({stat(n, 'new', 'p99'):.3f}) | {new / old:.2f} |")
EOF
