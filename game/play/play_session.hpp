#pragma once
/// PlaySession: one game in the window, without the window. It owns the PlayWorld and decides
/// who flies it each tick: the player (the command the window turns keys, mouse and controller
/// into), the bot (attract mode, and both legs of an A/B run) or a replay file's commands. It
/// records the commands for --record, reports what each tick did that the player should hear
/// (PlayEvents), where the chase camera should look, and restarts the game from its config and
/// seed (a new game, or an A/B leg on a given allocator).
///
/// Display-free and deterministic: the same config, pilot and player commands give the same
/// state hash as the headless runner.

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/memory/allocator_kind.hpp"
#include "game/play/bot_pilot.hpp"
#include "game/play/input_command.hpp"
#include "game/play/play_config.hpp"
#include "game/play/play_events.hpp"
#include "game/play/play_report.hpp"
#include "game/play/play_world.hpp"
#include "game/play/random_pilot.hpp"
#include "game/play/replay.hpp"
#include "game/play/vec2.hpp"
#include "game/sim/tick_recorder.hpp"

namespace quadpool::game::play {

/// Who flies the ship: the player, one of the three pilots that measure the rules (the bot, a
/// key-masher, an idle ship: random_pilot.hpp), or a replay file's commands.
enum class Pilot { Player, Bot, Random, Idle, Replay };

/// "player", "bot", "random", "idle", "replay".
const char* pilot_name(Pilot pilot) noexcept;

/// How a session starts. With a replay, the replay's start decides the game (config.field's
/// allocator and heap counter are kept) and the pilot is Pilot::Replay.
struct SessionStart {
  play::PlayConfig config;
  Pilot pilot = Pilot::Player;
  std::uint64_t bot_seed = 1;  ///< the bot's and the key-masher's
  std::optional<play::Replay> replay;
  std::string replay_file;  ///< the replay's path, for the report
  bool record = false;      ///< keep every tick's command for recording()
  /// The ticks the recording is sized for up front (a warm tick then allocates nothing for it):
  /// ten minutes at 60 ticks a second unless the caller knows better.
  std::size_t expected_ticks = 36'000;
};

class PlaySession {
 public:
  /// Builds the first game (PlayWorld's exceptions pass through).
  explicit PlaySession(SessionStart start);
  ~PlaySession();
  PlaySession(const PlaySession&) = delete;
  PlaySession& operator=(const PlaySession&) = delete;

  /// Runs one tick, flown by the pilot; `player` is used when the player flies. A replay that
  /// has played its last command runs no more ticks (returns false then). The tick's figures
  /// are last_sample() and events().
  bool step(const play::InputCommand& player);

  /// A new game from the config and seed: a fresh world on the current allocator, the bot
  /// reseeded, the replay rewound, the recording restarted.
  void restart();
  /// An A/B leg: restart() on `kind` with the bot flying, so that every leg plays the same game.
  void start_ab_leg(memory::AllocatorKind kind);
  /// The A/B run is over or cancelled: `kind` again, the pilot the session started with, and a
  /// new game.
  void end_ab(memory::AllocatorKind kind);

  void set_allocator(memory::AllocatorKind kind) noexcept { world_->set_allocator(kind); }

  const play::PlayWorld& world() const noexcept { return *world_; }
  /// The config the games start from: the replay's start when there is one.
  const play::PlayConfig& config() const noexcept { return start_.config; }
  Pilot pilot() const noexcept { return pilot_; }
  /// Every command is played and the replay is over.
  bool replay_finished() const noexcept;
  /// The replay's length in ticks (0 without a replay).
  std::size_t replay_ticks() const noexcept;
  /// The last step's events and figures (a tick sample as the headless runner records it).
  const PlayEvents& events() const noexcept { return events_; }
  const sim::TickSample& last_sample() const noexcept { return sample_; }
  /// The command the last step ran (for drawing the ship's flame).
  const play::InputCommand& last_command() const noexcept { return last_command_; }
  /// Where the chase camera looks: the ship.
  play::Vec2 camera_target() const noexcept { return world_->ship().position; }

  /// The game since the last restart as a replay file's content (start, commands, hash);
  /// empty when the session does not record.
  std::optional<play::Replay> recording() const;
  /// Writes recording() to `path` (atomically: a failure keeps the old file). Empty on success
  /// or when the session does not record, else the one line that says what failed.
  std::string write_recording(const std::string& path) const;
  /// The JSON "game" object's content: status, entities, the replay's verdict once it is over.
  GameReport report() const;
  /// Empty unless a replay was played to its end and did not end on its recorded hash; then
  /// the one line that says so, naming the file and both hashes.
  std::string replay_mismatch() const;

 private:
  play::InputCommand next_command(const play::InputCommand& player);

  SessionStart start_;
  std::unique_ptr<play::PlayWorld> world_;
  Pilot pilot_;
  play::BotPilot bot_;
  play::RandomPilot masher_;
  std::size_t replay_next_ = 0;
  std::vector<play::InputCommand> recorded_;
  play::InputCommand last_command_;
  GameLog log_;
  sim::HeapWarmup warmup_;
  sim::TickSample sample_;
  PlayEvents events_;
};

}  // namespace quadpool::game::play
