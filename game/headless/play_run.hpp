#pragma once
/// The headless play run behind `quadpool --headless --play --bot` and `--replay FILE`: the
/// same PlaySession the window plays (game/play/play_session.hpp), flown by the bot or a replay
/// file, in the field runner's tick loop (allocator switching, --verify, tick recorder,
/// progress line) and reported with the game's own figures (GameReport).

#include <cstdio>

#include "game/headless/headless_options.hpp"
#include "game/headless/report.hpp"
#include "game/sim/simulation.hpp"

namespace quadpool::game::headless {

/// Plays options.ticks ticks with the bot (seeded with the scene's seed), or every command of
/// options.game.replay, whose start then replaces the options' seed, sprites, scene, storm and
/// ticks. With options.game.record, writes the game's replay at the end. The outcome's failure
/// and exit code: 2 for a replay file that cannot be used, 1 for a --verify mismatch, a replay that
/// does not end on its recorded hash (the report is still there) or a record that could not be
/// written (the old file is kept).
HeadlessOutcome run_play(const HeadlessOptions& options, sim::HeapCounter heap_counter,
                         std::FILE* progress);

}  // namespace quadpool::game::headless
