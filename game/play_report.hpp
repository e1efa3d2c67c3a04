#pragma once
/// What a headless play run reports beyond the field's figures: the game's status, each entity
/// type's counts and pool, and, for a replay, whether it ended on the recorded hash. Written as
/// the JSON's "game" object and as the summary's game lines.

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "game/json_writer.hpp"
#include "game/play/entity_stores.hpp"
#include "game/play/play_world.hpp"

namespace quadpool::game {

/// A replay's verdict: the hash the file recorded and whether the run ended on it.
struct ReplayCheck {
  std::string file;
  std::uint64_t recorded_hash = 0;
  bool matches = false;
};

struct GameReport {
  play::GameStatus status;
  bool storm = false;
  std::array<play::EntityReport, play::kEntityTypes> entities{};
  std::optional<ReplayCheck> replay;  // --replay
  std::string recorded_to;            // --record's file (empty: none)
};

/// "game": {"score", "wave", "lives", "ticks_played", "games", "kills", "game_over", "storm",
/// "entities": {"<type>": {"created", "destroyed", "live", "dropped", "budget", "pool"}},
/// "replay": {"file", "recorded_hash", "matches"} or null, "recorded_to": FILE or null}.
void write_game_json(JsonWriter& json, const GameReport& game);

/// The summary's game lines, each ending in a newline.
std::string format_game_summary(const GameReport& game);

}  // namespace quadpool::game
