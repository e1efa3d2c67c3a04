#include "game/play/play_report.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "engine/memory/allocator_kind.hpp"

#include "game/sim/report_json.hpp"
#include "game/sim/simulation.hpp"

namespace quadpool::game::play {

void EntityLoad::add(const play::PlayTick& tick) noexcept {
  most_live_ = std::max(most_live_, tick.live);
  most_created_ = std::max(most_created_, tick.created);
  Share& share = by_allocator_[tick.field.allocator == memory::AllocatorKind::Pool ? 0 : 1];
  ++share.ticks;
  share.created += tick.created;
  share.tick_ms += tick.ms_total;
}

std::optional<double> EntityLoad::created_per_second(memory::AllocatorKind kind) const noexcept {
  const Share& s = share(kind);
  if (s.tick_ms <= 0) return std::nullopt;
  return static_cast<double>(s.created) / (s.tick_ms / 1000.0);
}

namespace {

void write_entities(util::JsonWriter& json, const GameReport& game) {
  json.begin("entities");
  for (const play::EntityReport& entity : game.entities) {
    json.begin(play::entity_type_name(entity.type));
    json.integer("created", entity.counts.created);
    json.integer("destroyed", entity.counts.destroyed);
    json.integer("live", entity.counts.live);
    json.integer("dropped", entity.counts.dropped);
    json.integer("budget", entity.counts.budget);
    sim::write_pool_stats(json, entity.pool);
    json.end();
  }
  json.end();
}

void write_load(util::JsonWriter& json, const EntityLoad& load) {
  json.integer("most_live", load.most_live());
  json.integer("most_created_in_a_tick", load.most_created());
  json.begin("created_per_second");
  for (const memory::AllocatorKind kind :
       {memory::AllocatorKind::Pool, memory::AllocatorKind::NewDelete}) {
    if (const auto rate = load.created_per_second(kind)) {
      json.number(memory::allocator_name(kind), *rate);
    } else {
      json.null(memory::allocator_name(kind));
    }
  }
  json.end();
}

}  // namespace

void write_game_json(util::JsonWriter& json, const GameReport& game) {
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
  write_load(json, game.load);
  if (game.replay) {
    json.begin("replay");
    json.string("file", game.replay->file);
    json.string("recorded_hash", sim::format_hash(game.replay->recorded_hash));
    if (game.replay->finished) {
      json.boolean("matches", game.replay->matches);
    } else {
      json.null("matches");
    }
    json.boolean("finished", game.replay->finished);
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
  s += fmt::format("  busiest ticks     {} live, {} created in one tick\n", game.load.most_live(),
                   game.load.most_created());
  if (game.replay) {
    const char* verdict = !game.replay->finished ? "stopped before its end, short of"
                          : game.replay->matches ? "ends on"
                                                 : "does NOT end on";
    s += fmt::format("  replay            {}: {} the recorded hash {}\n", game.replay->file, verdict,
                     sim::format_hash(game.replay->recorded_hash));
  }
  if (!game.recorded_to.empty()) s += fmt::format("  recorded to       {}\n", game.recorded_to);
  return s;
}

}  // namespace quadpool::game::play
