#include "game/play/play_session.hpp"

#include <utility>

#include <fmt/format.h>

#include "game/sim/simulation.hpp"
#include "game/util/shown_value.hpp"

namespace quadpool::game::play {

namespace {

// The config the first game starts from: the replay's start when there is one (the allocator,
// heap counter and workers stay the caller's: they change nothing in the state).
SessionStart resolved(SessionStart start) {
  if (!start.replay) return start;
  const play::PlayConfig given = start.config;
  start.config = play::play_config_of(start.replay->start);
  start.config.field.allocator = given.field.allocator;
  start.config.field.heap_counter = given.field.heap_counter;
  start.config.field.tasks = given.field.tasks;
  start.pilot = Pilot::Replay;
  return start;
}

}  // namespace

const char* pilot_name(Pilot pilot) noexcept {
  switch (pilot) {
    case Pilot::Player:
      return "player";
    case Pilot::Bot:
      return "bot";
    case Pilot::Random:
      return "random";
    case Pilot::Idle:
      return "idle";
    case Pilot::Replay:
      return "replay";
  }
  return "?";
}

PlaySession::PlaySession(SessionStart start)
    : start_(resolved(std::move(start))),
      world_(std::make_unique<play::PlayWorld>(start_.config)),
      pilot_(start_.pilot),
      bot_(start_.bot_seed),
      masher_(start_.bot_seed) {
  // The recording holds one command a tick, sized up front so that a warm tick does not
  // allocate for it.
  if (start_.record) recorded_.reserve(start_.expected_ticks);
}

PlaySession::~PlaySession() = default;

bool PlaySession::replay_finished() const noexcept {
  return pilot_ == Pilot::Replay && replay_next_ >= start_.replay->commands.size();
}

std::size_t PlaySession::replay_ticks() const noexcept {
  return start_.replay ? start_.replay->commands.size() : 0;
}

play::InputCommand PlaySession::next_command(const play::InputCommand& player) {
  switch (pilot_) {
    case Pilot::Player:
      return player;
    case Pilot::Bot:
      return bot_.decide(*world_);
    case Pilot::Random:
      return masher_.decide(*world_);
    case Pilot::Idle:
      return play::idle_command(*world_);
    case Pilot::Replay:
      return start_.replay->commands[replay_next_++];
  }
  return player;
}

bool PlaySession::step(const play::InputCommand& player) {
  if (replay_finished()) return false;
  const play::InputCommand command = next_command(player);
  if (start_.record) recorded_.push_back(command);
  last_command_ = command;
  const PlayMoment before = PlayMoment::of(*world_);
  const bool warm = warmup_.next_tick(world_->field());
  const play::PlayTick& tick = world_->step(command);
  sample_ = sim::TickSample::of(tick.field, warm);
  sample_.ms.total = tick.ms_total;
  sample_.heap_allocations = tick.heap_allocations;
  events_ = PlayEvents::of(before, *world_);
  log_.after_tick(*world_);
  return true;
}

void PlaySession::restart() {
  play::PlayConfig config = start_.config;
  config.field.allocator = world_->allocator();
  world_.reset();  // the old world's pools go before the new one's are reserved
  world_ = std::make_unique<play::PlayWorld>(config);
  bot_ = play::BotPilot(start_.bot_seed);
  masher_ = play::RandomPilot(start_.bot_seed);
  replay_next_ = 0;
  recorded_.clear();
  log_ = GameLog{};
  warmup_.restart();
  events_ = {};
  last_command_ = {};
}

void PlaySession::start_ab_leg(memory::AllocatorKind kind) {
  pilot_ = Pilot::Bot;
  world_->set_allocator(kind);
  restart();
}

void PlaySession::end_ab(memory::AllocatorKind kind) {
  pilot_ = start_.pilot;
  world_->set_allocator(kind);
  restart();
}

std::optional<play::Replay> PlaySession::recording() const {
  if (!start_.record) return std::nullopt;
  return play::Replay{play::replay_start_of(start_.config), recorded_, world_->state_hash()};
}

std::string PlaySession::write_recording(const std::string& path) const {
  const std::optional<play::Replay> recorded = recording();
  if (!recorded) return {};
  try {
    play::write_replay(path, *recorded);
  } catch (const play::ReplayWriteError& e) {
    return fmt::format("quadpool: {}", e.what());
  }
  return {};
}

std::string PlaySession::replay_mismatch() const {
  if (!start_.replay || !replay_finished()) return {};
  const std::uint64_t hash = world_->state_hash();
  if (hash == start_.replay->final_hash) return {};
  return fmt::format(
      "quadpool: {}: the replay ended on state hash {}, not on the {} the file "
      "recorded",
      util::shown_path(start_.replay_file), sim::format_hash(hash),
      sim::format_hash(start_.replay->final_hash));
}

GameReport PlaySession::report() const {
  GameReport report;
  report.status = world_->status();
  report.storm = start_.config.storm;
  report.entities = world_->entity_reports();
  report.log = log_;
  if (start_.replay) {
    const std::uint64_t hash = world_->state_hash();
    report.replay = ReplayCheck{start_.replay_file, start_.replay->final_hash,
                                replay_finished() && hash == start_.replay->final_hash,
                                replay_finished()};
  }
  return report;
}

}  // namespace quadpool::game::play
