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

GameLog::GameLog() {
  scores_.reserve(64);
  lengths_.reserve(64);
  waves_.reserve(64);
}

void GameLog::reach(const play::PlayWorld& world, int wave) {
  wave_ = wave;
  if (static_cast<std::size_t>(wave) > waves_.size()) {
    waves_.resize(static_cast<std::size_t>(wave));
    Wave& entry = waves_.back();
    entry.wave = wave;
    entry.rocks = static_cast<std::size_t>(play::threats_in_wave(world.tuning(), wave));
    entry.mean_speed = play::threat_speed(world.tuning(), wave);
  }
  ++waves_[static_cast<std::size_t>(wave) - 1].reached;
}

void GameLog::after_tick(const play::PlayWorld& world) {
  const play::GameStatus& status = world.status();
  if (over_ && !status.game_over) {  // a new game began this tick
    game_start_ = status.ticks_played;
    wave_ = 0;
  }
  if (!status.game_over) {
    if (status.wave != wave_ && status.wave > 0) reach(world, status.wave);
    if (wave_ > 0) ++waves_[static_cast<std::size_t>(wave_) - 1].ticks;
  } else if (!over_) {  // the game ended this tick
    scores_.push_back(status.score);
    lengths_.push_back(status.ticks_played - game_start_);
  }
  over_ = status.game_over;
}

namespace {

// "games_finished", "scores", "lengths_ticks" (one entry per finished game, in order) and
// "waves" (per wave number reached: the threats it sends and their speed, the ticks played in
// it and the games that reached it).
void write_log(util::JsonWriter& json, const GameLog& log) {
  json.integer("games_finished", log.scores().size());
  json.begin_array("scores");
  for (const std::uint64_t score : log.scores()) json.integer(nullptr, score);
  json.end_array();
  json.begin_array("lengths_ticks");
  for (const std::uint64_t ticks : log.lengths_ticks()) json.integer(nullptr, ticks);
  json.end_array();
  json.begin_array("waves");
  for (const GameLog::Wave& wave : log.waves()) {
    json.begin();
    json.integer("wave", static_cast<std::uint64_t>(wave.wave));
    json.integer("rocks", wave.rocks);
    json.number("mean_speed", wave.mean_speed);
    json.integer("ticks", wave.ticks);
    json.integer("reached", wave.reached);
    json.end();
  }
  json.end_array();
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
  write_log(json, game.log);
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
