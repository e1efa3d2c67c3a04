#include "game/play_report.hpp"

#include <fmt/format.h>

#include "game/report_json.hpp"
#include "game/simulation.hpp"

namespace quadpool::game {

namespace {

void write_entities(JsonWriter& json, const GameReport& game) {
  json.begin("entities");
  for (const play::EntityReport& entity : game.entities) {
    json.begin(play::entity_type_name(entity.type));
    json.integer("created", entity.counts.created);
    json.integer("destroyed", entity.counts.destroyed);
    json.integer("live", entity.counts.live);
    json.integer("dropped", entity.counts.dropped);
    json.integer("budget", entity.counts.budget);
    write_pool_stats(json, entity.pool);
    json.end();
  }
  json.end();
}

}  // namespace

void write_game_json(JsonWriter& json, const GameReport& game) {
  const play::GameStatus& status = game.status;
  json.begin("game");
  json.integer("score", status.score);
  json.integer("wave", static_cast<std::uint64_t>(status.wave));
  json.integer("lives", static_cast<std::uint64_t>(status.lives));
  json.integer("ticks_played", status.ticks_played);
  json.integer("games", status.games);
  json.integer("kills", status.kills);
  json.boolean("game_over", status.game_over);
  json.boolean("storm", game.storm);
  write_entities(json, game);
  if (game.replay) {
    json.begin("replay");
    json.string("file", game.replay->file);
    json.string("recorded_hash", format_hash(game.replay->recorded_hash));
    json.boolean("matches", game.replay->matches);
    json.end();
  } else {
    json.null("replay");
  }
  json.string_or_null("recorded_to", game.recorded_to);
  json.end();
}

std::string format_game_summary(const GameReport& game) {
  const play::GameStatus& status = game.status;
  std::string s = fmt::format(
      "  game              score {}, wave {}, lives {}, {} kills, {} ticks played, {} game(s){}\n",
      status.score, status.wave, status.lives, status.kills, status.ticks_played, status.games,
      game.storm ? ", storm" : "");
  s += "  entities          ";
  for (const play::EntityReport& entity : game.entities) {
    s += fmt::format("{} {}/{}/{}  ", play::entity_type_name(entity.type), entity.counts.created,
                     entity.counts.destroyed, entity.counts.live);
  }
  s += "(created/destroyed/live)\n";
  if (game.replay) {
    s += fmt::format("  replay            {}: {} the recorded hash {}\n", game.replay->file,
                     game.replay->matches ? "ends on" : "does NOT end on",
                     format_hash(game.replay->recorded_hash));
  }
  if (!game.recorded_to.empty()) s += fmt::format("  recorded to       {}\n", game.recorded_to);
  return s;
}

}  // namespace quadpool::game
