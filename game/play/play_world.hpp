#pragma once
/// PlayWorld: the game's rules on top of the simulation. The field's sprites are the rocks,
/// drifting and colliding as in the lab; the world adds a ship, its shots, and the debris,
/// sparks and explosions of broken rocks, each type in its own EntityStore. It advances by
/// exactly one InputCommand per tick and draws nothing: the window, the headless runner, the
/// bot and a replay all drive it through step().
///
/// One tick:
///   1. apply last tick's rock changes: remove the rocks that died (one ordered pass), add the
///      split children and the new wave's rocks (up to the rock budget: the rocks in the field
///      when play starts, the scene's less the ship's safe disc)
///   2. restart, when the game is over and the command asks
///   3. step the field: rocks move and collide; the tree is rebuilt
///   4. the ship flies (steer, thrust) and fires
///   5. shots move; shot against rock is a tree query along the shot's path
///   6. ship against rock, a tree query around the ship: shield, then a life
///   7. dead rocks break: a big one splits in two, a small one bursts into debris, sparks and an
///      explosion whose blast (a tree query) bursts the small rocks around it
///   8. debris, sparks and explosions move and expire; 9. the wave advances when its quota of
///      kills is reached
/// Rocks die in step 5 to 7 but leave the field in step 1 of the next tick, so that between
/// ticks the tree's ids are the indices of sprites() (for the bot and the window):
/// rock_is_dead() tells which of them are already broken.
///
/// Determinism: the state after each tick is a function of the config and the commands, not of
/// the allocator (switch it every tick if you like), the compiler or the C library: no libm
/// call feeds the state, randomness comes from quadpool::Random, and every loop runs in an order
/// that depends on the state alone.

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "engine/core/random.hpp"
#include "engine/memory/allocator_kind.hpp"
#include "engine/spatial/aabb.hpp"
#include "engine/spatial/quad_tree.hpp"
#include "game/play/entity_stores.hpp"
#include "game/play/input_command.hpp"
#include "game/play/play_config.hpp"
#include "game/play/ship.hpp"
#include "game/play/vec2.hpp"
#include "game/sim/simulation.hpp"
#include "common/scene/scene.hpp"

namespace quadpool::game::play {

/// How far past a query's area the tree is asked: the field's contact step moves a rock a
/// little after the tree was built from its box.
inline constexpr float kTreeMargin = 2.0f;

/// Score, lives, wave: what the overlay shows and the JSON's "game" object reports.
struct GameStatus {
  std::uint64_t score = 0;
  int wave = 1;
  int lives = 0;
  int kills_this_wave = 0;      ///< kills toward the wave's quota
  std::uint64_t kills = 0;      ///< rocks broken by shots and blasts, all games
  std::uint64_t ticks_played = 0;  ///< ticks with a game on (not over), all games
  std::uint64_t games = 1;      ///< 1 + restarts
  bool game_over = false;
};

/// What one play tick did. Plain data.
struct PlayTick {
  std::uint64_t tick = 0;
  game::sim::TickStats field;       ///< the field's own tick
  std::size_t kills = 0;            ///< rocks broken this tick, by any cause
  std::uint64_t created = 0;        ///< entities created this tick, all types
  std::uint64_t destroyed = 0;      ///< entities destroyed this tick, all types
  std::size_t live = 0;             ///< live entities after the tick, all types
  double ms_total = 0;              ///< the whole play tick, field included
  std::optional<std::uint64_t> heap_allocations;  ///< the whole tick; empty without a counter
};

class PlayWorld {
 public:
  /// Builds the field (game::Simulation; its exceptions pass through) and clears a safe disc of
  /// Tuning::safe_radius around the ship at the world's centre. The rocks left are the rock
  /// budget: waves refill the field up to it, never past, so that the tree's buffers and the
  /// rock vectors, all sized for it by the first tick, never grow. Throws std::invalid_argument
  /// when lives is outside kMinLives..kMaxLives.
  explicit PlayWorld(const PlayConfig& config);
  ~PlayWorld();
  PlayWorld(const PlayWorld&) = delete;
  PlayWorld& operator=(const PlayWorld&) = delete;

  /// Runs one tick under `command` (see the file comment). Once warm, a Pool-mode tick makes no
  /// heap allocation. Returns the tick's stats, valid until the next step().
  const PlayTick& step(const InputCommand& command);

  /// The tree's nodes and every entity store use `kind` from the next tick on.
  void set_allocator(memory::AllocatorKind kind) noexcept;
  memory::AllocatorKind allocator() const noexcept { return field_->allocator(); }

  /// Calls f(std::uint32_t index, const scene::Sprite& rock) for every live rock whose circle
  /// overlaps the disc (centre, radius), asking the last tick's tree (no scan of the field).
  template <class F>
  void for_each_rock_near(Vec2 centre, float radius, F&& f) const;
  /// True when sprites()[index] broke in the last tick (it leaves the field next tick).
  bool rock_is_dead(std::size_t index) const noexcept {
    return index < dead_.size() && dead_[index] != 0;
  }

  const game::sim::Simulation& field() const noexcept { return *field_; }
  const Ship& ship() const noexcept { return ship_; }
  const GameStatus& status() const noexcept { return status_; }
  const PlayConfig& config() const noexcept { return config_; }
  const Tuning& tuning() const noexcept { return tuning_; }
  const EntityStores& entities() const noexcept { return stores_; }
  std::array<EntityReport, kEntityTypes> entity_reports() const noexcept {
    return stores_.reports();
  }
  const PlayTick& last_tick() const noexcept { return last_; }
  /// Ticks run so far.
  std::uint64_t ticks() const noexcept { return ticks_; }
  /// The rocks that leave the field next tick (increasing indices) and the rocks that join it
  /// (in order): part of the state, so the hash covers them.
  const std::vector<std::uint32_t>& pending_removals() const noexcept { return removals_; }
  const std::vector<scene::Sprite>& pending_rocks() const noexcept { return births_; }

  /// See play_state_hash().
  std::uint64_t state_hash() const noexcept;

 private:
  enum class Cause : std::uint8_t { Shot, Blast, Ship };
  struct Kill {
    std::uint32_t rock;
    Cause cause;
    Vec2 direction;  // of the shot, for a split's children
  };

  void apply_rock_changes();
  void restart();
  void fire(const InputCommand& command);
  void advance_shots();
  std::optional<std::uint32_t> first_rock_on_path(Vec2 from, Vec2 to, float radius) const;
  void collide_ship();
  void kill(std::uint32_t rock, Cause cause, Vec2 direction);
  void add_score(int points) noexcept;
  void break_rocks();
  void split(const scene::Sprite& rock, Vec2 direction);
  void burst(const scene::Sprite& rock, bool blasts);
  void spray_sparks(const scene::Sprite& rock, int count);
  void queue_rock(const scene::Sprite& rock);
  void advance_effects();
  void advance_wave();
  Vec2 random_unit() noexcept;

  PlayConfig config_;
  Tuning tuning_;
  std::unique_ptr<game::sim::Simulation> field_;
  Random rng_;  // the rules' own stream: bursts, spawns
  Ship ship_;
  GameStatus status_;
  EntityStores stores_;
  // This tick's broken rocks and next tick's changes to the field; reserved to the rock budget.
  std::vector<std::uint8_t> dead_;  // per sprite of this tick: broken?
  std::vector<Kill> kills_;
  std::vector<std::uint32_t> removals_;
  std::vector<scene::Sprite> births_;
  std::size_t rock_budget_ = 0;  // the most rocks the field holds: its count at the start
  std::uint64_t ticks_ = 0;
  PlayTick last_;
};

template <class F>
void PlayWorld::for_each_rock_near(Vec2 centre, float radius, F&& f) const {
  // The tree holds the boxes from before the field's contacts were resolved, which may have
  // nudged a rock since; the margin covers that, the circle test below is exact.
  const float reach = radius + kTreeMargin;
  const spatial::Aabb area{centre.x - reach, centre.y - reach, centre.x + reach, centre.y + reach};
  const auto rocks = field_->sprites();
  field_->tree().query(area, [&](std::uint32_t id) {
    if (id >= rocks.size() || rock_is_dead(id)) return;
    const scene::Sprite& rock = rocks[id];
    if (game::sim::circles_overlap(centre.x, centre.y, radius, rock.x, rock.y, rock.radius)) {
      f(id, rock);
    }
  });
}

}  // namespace quadpool::game::play
