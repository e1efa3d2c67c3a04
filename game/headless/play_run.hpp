#pragma once
/// The headless play run behind `quadpool --headless --play --bot` and `--replay FILE`: the
/// game (game/play/) advanced one command a tick, from the bot or from a replay file, with the
/// field runner's allocator switching, tick recorder, progress line and report, plus the
/// game's own figures (GameReport).

#include <cstdio>

#include "game/headless/headless.hpp"
#include "game/headless/headless_options.hpp"
#include "game/sim/simulation.hpp"

namespace quadpool::game {

/// Plays options.ticks ticks with the bot (seeded with options.seed), or every command of
/// options.replay, whose start then replaces the options' seed, sprites, scene, storm and
/// ticks. With options.record, writes the game's replay at the end. The outcome's failure and
/// exit code: 2 for a replay file that cannot be used, 1 for a --verify mismatch, a replay that
/// does not end on its recorded hash (the report is still there) or a record that could not be
/// written (the old file is kept).
HeadlessOutcome run_play(const HeadlessOptions& options, HeapCounter heap_counter,
                         std::FILE* progress);

}  // namespace quadpool::game
