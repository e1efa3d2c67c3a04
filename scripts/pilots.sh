#!/usr/bin/env bash
# How the game plays, measured with its three pilots over seeds 1..N at the default settings
# (10,000 sprites, 3 lives) on the Release runner: the bot (aims, dodges), the key-masher
# (--pilot random: seeded random keys) and an idle ship (--pilot idle). Prints the medians of
# the first game of each seed (its length in ticks and seconds at 60 ticks a second, and its
# score) and the waves the bot reached (threats sent and their speed), as markdown: the tables
# of game/play/README.md, "How the game plays".
#
#   scripts/pilots.sh [--seeds N] [--bot-ticks T]   # defaults: 10 seeds, 40000 ticks
#
# Each run plays T ticks (the bot), T/2 (the key-masher) or T/4 (idle) and logs every game it
# finishes; a first game still on at the end counts as lasting at least the run ("> T").
# 7 to 20 minutes on 2 cores, with the machine's load.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/bench_lib.sh
source scripts/bench_lib.sh

SEEDS=10
BOT_TICKS=40000
while [ $# -gt 0 ]; do
  case "$1" in
    --seeds) SEEDS=$(value_of pilots.sh --seeds "${2-}"); shift 2 ;;
    --bot-ticks) BOT_TICKS=$(value_of pilots.sh --bot-ticks "${2-}"); shift 2 ;;
    -h|--help) exit_with_usage scripts/pilots.sh ;;
    *) refuse_argument pilots.sh "$1" "use --seeds N or --bot-ticks T" ;;
  esac
done
check_count pilots.sh --seeds "$SEEDS"
check_count pilots.sh --bot-ticks "$BOT_TICKS"

EXE=$(build_runner release)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

for pilot in bot random idle; do
  case "$pilot" in
    bot) ticks=$BOT_TICKS ;;
    random) ticks=$((BOT_TICKS / 2)) ;;
    idle) ticks=$((BOT_TICKS / 4)) ;;
  esac
  for seed in $(seq 1 "$SEEDS"); do
    echo "pilots.sh: $pilot, seed $seed of $SEEDS, $ticks ticks" >&2
    "$EXE" --headless --play --pilot "$pilot" --seed "$seed" --ticks "$ticks" --json \
      > "$TMP/$pilot-$seed.json"
  done
done

python3 - "$TMP" "$SEEDS" "$BOT_TICKS" <<'PY'
import json, statistics, sys
folder, seeds, bot_ticks = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
runs = {p: [json.load(open(f"{folder}/{p}-{s}.json"))["game"] for s in range(1, seeds + 1)]
        for p in ("bot", "random", "idle")}
ticks = {"bot": bot_ticks, "random": bot_ticks // 2, "idle": bot_ticks // 4}

def first_games(pilot):
    # (length, score, finished) of each seed's first game.
    out = []
    for game in runs[pilot]:
        if game["lengths_ticks"]:
            out.append((game["lengths_ticks"][0], game["scores"][0], True))
        else:
            out.append((game["ticks_played"], game["score"], False))
    return out

print("| pilot | first games finished | median length, ticks | median length, s | median score | scores (seeds 1..%d) |" % seeds)
print("| --- | --- | --- | --- | --- | --- |")
medians = {}
for pilot in ("bot", "random", "idle"):
    games = first_games(pilot)
    lengths = [g[0] for g in games]
    scores = [g[1] for g in games]
    finished = sum(1 for g in games if g[2])
    length = statistics.median(lengths)
    medians[pilot] = statistics.median(scores)
    shown = f"{length:,.0f}" if finished == len(games) else f"{length:,.0f} (unfinished counted as their length so far)"
    print(f"| {pilot} | {finished} of {len(games)} | {shown} | {length / 60:.0f} | {medians[pilot]:,.0f} | "
          + ", ".join(f"{s:,}" + ("" if g[2] else "+") for s, g in zip(scores, games)) + " |")
print()
if medians["bot"] > 0:
    print(f"The key-masher's median score is {medians['random'] / medians['bot']:.3f} of the bot's.")
print()
print("| wave | threats | speed, units/tick | seeds whose bot reached it (of %d) | bot ticks in it, median per game |" % seeds)
print("| --- | --- | --- | --- | --- |")
waves = {}
for game in runs["bot"]:
    for w in game["waves"]:
        entry = waves.setdefault(w["wave"], {"rocks": w["rocks"], "speed": w["mean_speed"], "reached": 0, "ticks": []})
        entry["reached"] += 1
        entry["ticks"].append(w["ticks"] / max(w["reached"], 1))
for number in sorted(waves):
    if number > 30:
        break
    w = waves[number]
    print(f"| {number} | {w['rocks']} | {w['speed']:.2f} | {w['reached']} | {statistics.median(w['ticks']):,.0f} |")
PY
echo
echo "Command: \`scripts/pilots.sh --seeds $SEEDS --bot-ticks $BOT_TICKS\` ($(machine_line))"
