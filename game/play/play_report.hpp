#pragma once
/// What a headless play run reports beyond the field's figures: the game's status, each entity
/// type's counts and pool, and, for a replay, whether it ended on the recorded hash. Written as
/// the JSON's "game" object and as the summary's game lines.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/memory/allocator_kind.hpp"
#include "game/util/json_writer.hpp"
#include "game/play/entity_stores.hpp"
#include "game/play/play_world.hpp"

namespace quadpool::game::play {

/// A replay's verdict: the hash the file recorded, whether the run played it to its end, and
/// whether it ended on that hash (meaningful only once finished: a window replay that --frames
/// stops early is "not finished", never a mismatch).
struct ReplayCheck {
  std::string file;
  std::uint64_t recorded_hash = 0;
  bool matches = false;
  bool finished = true;
};

/// The entities' load over a run: its busiest ticks, and per allocator the entities created in
/// the ticks it ran and the time those ticks took, which makes entities created per second of
/// play tick a same-process comparison in a --switch-allocator-every run.
class EntityLoad {
 public:
  struct Share {
    std::uint64_t ticks = 0;
    std::uint64_t created = 0;  ///< entities created in these ticks, all types
    double tick_ms = 0;         ///< the ticks' summed time
  };

  /// Counts one play tick, on the allocator it ran on (tick.field.allocator).
  void add(const play::PlayTick& tick) noexcept;
  /// The most live entities after any tick, all types (the tree's nodes not counted).
  std::size_t most_live() const noexcept { return most_live_; }
  /// The most entities created in any one tick, all types.
  std::uint64_t most_created() const noexcept { return most_created_; }
  const Share& share(memory::AllocatorKind kind) const noexcept {
    return by_allocator_[kind == memory::AllocatorKind::Pool ? 0 : 1];
  }
  /// share(kind).created per second of share(kind).tick_ms; empty when kind ran no tick time.
  std::optional<double> created_per_second(memory::AllocatorKind kind) const noexcept;

 private:
  std::size_t most_live_ = 0;
  std::uint64_t most_created_ = 0;
  std::array<Share, 2> by_allocator_{};  // [0] pool, [1] new-delete
};

/// The games and waves of a run, for measuring the rules with the pilots (--pilot): each
/// finished game's score and length, and per wave number reached its threat (the threatening
/// rocks it sends and their speed) and the ticks spent in it over all games.
/// Sized for 64 games and 64 waves up front, so that a warm tick does not allocate for it.
class GameLog {
 public:
  struct Wave {
    int wave = 0;
    std::size_t rocks = 0;      ///< the threats the wave sends at the ship
    double mean_speed = 0;      ///< their speed, world units per tick
    std::uint64_t ticks = 0;    ///< ticks played in this wave, all games
    std::uint64_t reached = 0;  ///< games that reached it
  };

  GameLog();
  /// After each tick of `world`: notes a game that ended and a wave that began.
  void after_tick(const play::PlayWorld& world);

  std::span<const std::uint64_t> scores() const noexcept { return scores_; }
  std::span<const std::uint64_t> lengths_ticks() const noexcept { return lengths_; }
  std::span<const Wave> waves() const noexcept { return waves_; }

 private:
  void reach(const play::PlayWorld& world, int wave);

  std::vector<std::uint64_t> scores_, lengths_;
  std::vector<Wave> waves_;       // [n - 1]: wave n
  std::uint64_t game_start_ = 0;  // status.ticks_played when the game began
  int wave_ = 0;                  // the wave of the last tick; 0 before the first
  bool over_ = false;             // the last tick's game was over
};

struct GameReport {
  play::GameStatus status;
  bool storm = false;
  std::array<play::EntityReport, play::kEntityTypes> entities{};
  EntityLoad load;
  GameLog log;
  std::optional<ReplayCheck> replay;  // --replay
  std::string recorded_to;            // --record's file (empty: none)
};

/// "game": {"score", "wave", "lives", "ticks_played", "games", "kills", "game_over", "storm",
/// "entities": {"<type>": {"created", "destroyed", "live", "dropped", "budget", "pool"}},
/// "most_live", "most_created_in_a_tick", "created_per_second": {"pool", "new-delete"} (each
/// null when that allocator ran no tick),
/// "replay": {"file", "recorded_hash", "matches" (null when not finished), "finished"} or null, "recorded_to": FILE or null}.
void write_game_json(util::JsonWriter& json, const GameReport& game);

/// The summary's game lines, each ending in a newline.
std::string format_game_summary(const GameReport& game);

}  // namespace quadpool::game::play
