#!/usr/bin/env bash
# The play tick, pool against new-delete: the headless bot game (20,000 rocks) and the storm
# (the stress setting) on the Release runner (asserts off), measured in separate runs and
# alternating in one process. Prints a markdown table, the command and the load average: the
# table of docs/performance.md, "What the pools buy in play".
#
#   scripts/play_matrix.sh [--rounds R] [--games "normal storm"] [--every K]
#
# Each round plays each game with --allocator pool and --allocator new-delete one after the
# other (the order alternates between rounds so that drifting machine load favours neither),
# then once switching every K ticks (--switch-allocator-every K, default 100), which puts both
# allocators under the same conditions; the JSON splits that run's figures by allocator. An
# entity is freed by the allocator it came from, so the first ticks after a switch also free the
# other allocator's entities (for at most 90 ticks, the longest life): the alternating figures
# understate the difference a little, more so for a small K. Per
# allocator: the median and p99 tick, heap allocations per tick (mean over warm ticks), and
# entities created per second of play tick; per game, the most live entities after a tick and
# the most created in one. Every run of a game must end on the same state hash.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/bench_lib.sh
source scripts/bench_lib.sh

ROUNDS=3
ALL_GAMES="normal storm"
GAMES=$ALL_GAMES
EVERY=100
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) ROUNDS=$(value_of play_matrix.sh --rounds "${2-}"); shift 2 ;;
    --games) GAMES=$(value_of play_matrix.sh --games "${2-}"); shift 2 ;;
    --every) EVERY=$(value_of play_matrix.sh --every "${2-}"); shift 2 ;;
    -h|--help) exit_with_usage scripts/play_matrix.sh ;;
    *) refuse_argument play_matrix.sh "$1" "use --rounds R, --games LIST, --every K" ;;
  esac
done
check_count play_matrix.sh --rounds "$ROUNDS"
check_count play_matrix.sh --every "$EVERY"
check_list play_matrix.sh --games game "$GAMES" "$ALL_GAMES"

# The games: the full-size game of game/play/README.md's tests (3,000 ticks, a few seconds a
# run) and the storm at the same field, long enough to reach its plateau of live entities.
game_args() {
  case "$1" in
    normal) echo "--play --bot --sprites 20000 --ticks 3000 --seed 5" ;;
    storm) echo "--play --bot --storm --sprites 20000 --ticks 600 --seed 5" ;;
  esac
}

LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
EXE=$(build_runner release)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# play GAME ARGS...: one run's JSON; its state hash must be the game's first run's.
play() {
  local game=$1 json hash
  shift
  # shellcheck disable=SC2046  # game_args is a list of flags
  json=$("$EXE" --headless $(game_args "$game") "$@" --json)
  hash=$(json_fields "$json" state_hash)
  [ -f "$TMP/$game-hash" ] || echo "$hash" > "$TMP/$game-hash"
  if [ "$hash" != "$(cat "$TMP/$game-hash")" ]; then
    echo "play_matrix.sh: $game $* ended on state hash $hash, not $(cat "$TMP/$game-hash")" >&2
    exit 1
  fi
  printf '%s\n' "$json"
}

# Columns of every results file: median tick, p99 tick, heap allocations per tick (mean),
# entities created per second; then, for separate runs, most live and most created in a tick.
for round in $(seq 1 "$ROUNDS"); do
  for game in $GAMES; do
    if [ $((round % 2)) -eq 1 ]; then order="pool new-delete"; else order="new-delete pool"; fi
    for alloc in $order; do
      echo "play_matrix: $game, $alloc, round $round/$ROUNDS" >&2
      json=$(play "$game" --allocator "$alloc")
      json_fields "$json" tick_ms.median tick_ms.p99 "heap_allocs_per_tick_by_allocator.$alloc.mean" \
        "game.created_per_second.$alloc" game.most_live game.most_created_in_a_tick \
        >> "$TMP/$game-$alloc"
    done
    echo "play_matrix: $game, alternating every $EVERY ticks, round $round/$ROUNDS" >&2
    json=$(play "$game" --switch-allocator-every "$EVERY")
    for alloc in pool new-delete; do
      json_fields "$json" "tick_ms_by_allocator.$alloc.median" "tick_ms_by_allocator.$alloc.p99" \
        "heap_allocs_per_tick_by_allocator.$alloc.mean" "game.created_per_second.$alloc" \
        >> "$TMP/$game-$alloc-alternating"
    done
  done
done

# whole N: N rounded to an integer (counts, rates); ms N: a time to the microsecond.
whole() { awk -v x="$1" 'BEGIN { printf "%.0f", x }'; }
ms() { awk -v x="$1" 'BEGIN { printf "%.3f", x }'; }

{
  echo "Median over $ROUNDS round(s) of each run's statistic; times in ms per play tick. $(machine_line); load average $LOAD_BEFORE before."
  echo
  echo "| game | allocator | runs | median tick | median tick, best round | p99 tick | heap allocs/tick | entities created/s | most live | most created in a tick |"
  echo "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
  for game in $GAMES; do
    for alloc in pool new-delete; do
      f="$TMP/$game-$alloc"
      echo "| $game | $alloc | separate | $(ms "$(column_median "$f" 1)") | $(ms "$(column_best "$f" 1)") | $(ms "$(column_median "$f" 2)") | $(whole "$(column_median "$f" 3)") | $(whole "$(column_median "$f" 4)") | $(whole "$(column_median "$f" 5)") | $(whole "$(column_median "$f" 6)") |"
      f="$TMP/$game-$alloc-alternating"
      echo "| $game | $alloc | alternating every $EVERY | $(ms "$(column_median "$f" 1)") | $(ms "$(column_best "$f" 1)") | $(ms "$(column_median "$f" 2)") | $(whole "$(column_median "$f" 3)") | $(whole "$(column_median "$f" 4)") | | |"
    done
  done
  echo
  echo "| game | pool / new-delete, median tick, separate runs | p99 | alternating in one process: median tick | p99 |"
  echo "| --- | ---: | ---: | ---: | ---: |"
  for game in $GAMES; do
    f="$TMP/$game"
    echo "| $game | $(ratio "$(column_median "$f-pool" 1)" "$(column_median "$f-new-delete" 1)") | $(ratio "$(column_median "$f-pool" 2)" "$(column_median "$f-new-delete" 2)") | $(ratio "$(column_median "$f-pool-alternating" 1)" "$(column_median "$f-new-delete-alternating" 1)") | $(ratio "$(column_median "$f-pool-alternating" 2)" "$(column_median "$f-new-delete-alternating" 2)") |"
  done
  echo
  for game in $GAMES; do
    echo "- $game: \`quadpool --headless $(game_args "$game") --json\` with \`--allocator pool\`, \`--allocator new-delete\` and \`--switch-allocator-every $EVERY\`; state hash $(cat "$TMP/$game-hash") in every run."
  done
  echo
  games_flag=""
  [ "$GAMES" = "$ALL_GAMES" ] || games_flag=" --games \"$GAMES\""
  every_flag=""
  [ "$EVERY" = 100 ] || every_flag=" --every $EVERY"
  echo "A ratio below 1 means the pool is faster. The best round shows the code with the least"
  echo "interference from the machine's other jobs, which dominate the p99 on a shared machine."
  echo "Produced by \`scripts/play_matrix.sh --rounds $ROUNDS$games_flag$every_flag\`."
}
