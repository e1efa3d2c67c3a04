#!/usr/bin/env bash
# The headless performance matrix: median and p99 tick time for every scene at 10k and 100k
# sprites (1M on request), pool against new-delete, at one or more thread counts, measured side
# by side on the Release runner. Prints a markdown table; with --update-docs it also replaces
# the table between the tick-matrix markers in docs/performance.md.
#
#   scripts/tick_matrix.sh [--rounds R] [--scenes "uniform clustered mixed streams"]
#                          [--sprites "10000 100000 1000000"] [--threads "1 2"] [--update-docs]
#
# --threads is passed to the runner (default: the machine's hardware threads, the runner's own
# default); 1M runs 30 ticks per run, so --sprites 1000000 adds about a minute per run.
#
# Each round runs pool and new-delete one after the other (the order alternates between rounds
# so that drifting machine load favours neither), and then one process that alternates the two
# allocators every 50 ticks (--switch-allocator-every 50), which puts both under exactly the
# same conditions. The table gives the median over the rounds of each run's median and p99.
# Build: preset release (build/release).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
# shellcheck source=scripts/bench_lib.sh
source scripts/bench_lib.sh

ROUNDS=3
ALL_SCENES="uniform clustered mixed streams"
SCENES=$ALL_SCENES
ALL_SIZES="10000 100000 1000000"
SIZES="10000 100000"
THREADS=$(nproc)
UPDATE_DOCS=0
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) ROUNDS=$(value_of tick_matrix.sh --rounds "${2-}"); shift 2 ;;
    --scenes) SCENES=$(value_of tick_matrix.sh --scenes "${2-}"); shift 2 ;;
    --sprites) SIZES=$(value_of tick_matrix.sh --sprites "${2-}"); shift 2 ;;
    --threads) THREADS=$(value_of tick_matrix.sh --threads "${2-}"); shift 2 ;;
    --update-docs) UPDATE_DOCS=1; shift ;;
    -h|--help) exit_with_usage scripts/tick_matrix.sh ;;
    *) refuse_argument tick_matrix.sh "$1" "use --rounds R, --scenes LIST, --sprites LIST, --threads LIST, --update-docs" ;;
  esac
done
check_count tick_matrix.sh --rounds "$ROUNDS"
check_list tick_matrix.sh --scenes scene "$SCENES" "$ALL_SCENES"
check_list tick_matrix.sh --sprites "sprite count" "$SIZES" "$ALL_SIZES"
[ -n "${THREADS// /}" ] || { echo "tick_matrix.sh: --threads must name at least one thread count" >&2; exit 2; }
for t in $THREADS; do
  case "$t" in ''|*[!0-9]*|0) echo "tick_matrix.sh: --threads: '$t' is not a thread count in 1..256" >&2; exit 2 ;; esac
  [ "$t" -le 256 ] || { echo "tick_matrix.sh: --threads: '$t' is not a thread count in 1..256" >&2; exit 2; }
done

EXE=$(build_runner release)
if ! "$EXE" --help 2>&1 | grep -q -- '--scene'; then
  echo "tick_matrix.sh: $EXE has no --scene option; build a runner that has it" >&2
  exit 1
fi

# Ticks per run: about 2-4 s of simulation per run on this machine (1M: 30 ticks, 2-3 s).
ticks_for() {
  if [ "$1" -ge 1000000 ]; then echo 30; elif [ "$1" -ge 100000 ]; then echo 300; else echo 2000; fi
}

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# Rounds are the outer loop, so that a stretch of heavy machine load spreads over every scene
# rather than spoiling one.
for round in $(seq 1 "$ROUNDS"); do
  for scene in $SCENES; do
    for n in $SIZES; do
      for t in $THREADS; do
      ticks=$(ticks_for "$n")
      key="$scene-$n-t$t"
      if [ $((round % 2)) -eq 1 ]; then order="pool new-delete"; else order="new-delete pool"; fi
      for alloc in $order; do
        echo "tick_matrix: $scene, $n sprites, $t thread(s), $ticks ticks, $alloc, round $round/$ROUNDS" >&2
        json=$("$EXE" --headless --scene "$scene" --sprites "$n" --ticks "$ticks" --threads "$t" --allocator "$alloc" --json)
        json_fields "$json" tick_ms.median tick_ms.p99 phase_ms.integrate phase_ms.rebuild \
          phase_ms.pairs phase_ms.resolve heap_allocs_per_tick.median >> "$TMP/$key-$alloc"
      done
      echo "tick_matrix: $scene, $n sprites, $t thread(s), $ticks ticks, alternating every 50, round $round/$ROUNDS" >&2
      json=$("$EXE" --headless --scene "$scene" --sprites "$n" --ticks "$ticks" --threads "$t" --switch-allocator-every 50 --json)
      for alloc in pool new-delete; do
        json_fields "$json" "tick_ms_by_allocator.$alloc.median" "tick_ms_by_allocator.$alloc.p99" \
          >> "$TMP/$key-$alloc-alternating"
      done
      done
    done
  done
done

{
  echo "Median over $ROUNDS round(s) of each run's statistic; times in ms per tick. $(machine_line)."
  echo
  echo "| scene | sprites | threads | allocator | ticks/run | median tick | p99 tick | median tick, best round | integrate | rebuild | pairs | resolve | heap allocs/tick | target (median) |"
  echo "|-------|--------:|--------:|-----------|----------:|------------:|---------:|------------------------:|----------:|--------:|------:|--------:|-----------------:|-----------------|"
  for scene in $SCENES; do
    for n in $SIZES; do
      for t in $THREADS; do
      if [ "$n" -ge 1000000 ]; then target=16.7; elif [ "$n" -ge 100000 ]; then target=12; else target=1; fi
      for alloc in pool new-delete; do
        f="$TMP/$scene-$n-t$t-$alloc"
        med=$(column_median "$f" 1)
        # The targets were set on the uniform scene; the others are there to be compared.
        if [ "$scene" = uniform ]; then
          verdict=$(awk -v m="$med" -v t="$target" 'BEGIN { if (m + 0 <= t + 0) printf "<= %s ms: met", t; else printf "<= %s ms: MISSED", t }')
        else
          verdict="-"
        fi
        echo "| $scene | $n | $t | $alloc | $(ticks_for "$n") | $med | $(column_median "$f" 2) | $(column_best "$f" 1) | $(column_median "$f" 3) | $(column_median "$f" 4) | $(column_median "$f" 5) | $(column_median "$f" 6) | $(column_median "$f" 7) | $verdict |"
      done
      done
    done
  done
  echo
  echo "| scene | sprites | threads | pool / new-delete, median | pool / new-delete, p99 | same process alternating every 50 ticks: median | p99 |"
  echo "|-------|--------:|--------:|--------------------------:|-----------------------:|-----------------------------------------------:|----:|"
  for scene in $SCENES; do
    for n in $SIZES; do
      for t in $THREADS; do
      f="$TMP/$scene-$n-t$t"
      echo "| $scene | $n | $t | $(ratio "$(column_median "$f-pool" 1)" "$(column_median "$f-new-delete" 1)") | $(ratio "$(column_median "$f-pool" 2)" "$(column_median "$f-new-delete" 2)") | $(ratio "$(column_median "$f-pool-alternating" 1)" "$(column_median "$f-new-delete-alternating" 1)") | $(ratio "$(column_median "$f-pool-alternating" 2)" "$(column_median "$f-new-delete-alternating" 2)") |"
      done
    done
  done
  echo
  echo "A ratio below 1 means the pool is faster. The best round shows what the code does when the"
  echo "machine's other jobs interfere least; the p99 column is dominated by such interference on a"
  flags=""
  [ "$SCENES" = "$ALL_SCENES" ] || flags=" --scenes \"$SCENES\""
  [ "$SIZES" = "10000 100000" ] || flags="$flags --sprites \"$SIZES\""
  flags="$flags --threads \"$THREADS\""
  echo "shared machine. Produced by \`scripts/tick_matrix.sh --rounds $ROUNDS$flags --update-docs\`."
} > "$TMP/table.md"

cat "$TMP/table.md"

if [ "$UPDATE_DOCS" -eq 1 ]; then
  doc="$ROOT/docs/performance.md"
  begin='<!-- tick-matrix:begin -->'
  end='<!-- tick-matrix:end -->'
  grep -q "$begin" "$doc" || { echo "tick_matrix.sh: $doc has no $begin marker" >&2; exit 1; }
  awk -v begin="$begin" -v end="$end" -v table="$TMP/table.md" '
    $0 == begin { print; while ((getline line < table) > 0) print line; skipping = 1; next }
    $0 == end { skipping = 0 }
    !skipping { print }' "$doc" > "$TMP/doc" && cp "$TMP/doc" "$doc"
  echo "tick_matrix: updated $doc" >&2
fi
