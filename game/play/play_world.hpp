#pragma once
/// PlayWorld: the game's rules on top of the simulation. The field's sprites are the dust:
/// thousands of harmless rocks drifting and colliding as in the lab, which shots break. The
/// danger is the threats, a few large rocks each wave sends at the ship. The world adds the
/// ship, its shots, the threats, the debris, sparks and explosions of broken rocks (each type
/// in its own EntityStore) and the storm power-up. It advances by exactly one InputCommand per
/// tick and draws nothing: the window, the headless runner, the bot and a replay all drive it
/// through step().
///
/// One tick:
///   1. apply last tick's dust changes: remove the dust that broke (one ordered pass), add it
///      back far from the ship (the field keeps its size)
///   2. restart, when the game is over and the command asks
///   3. step the field: dust moves and collides; the tree is rebuilt
///   4. the ship flies (steer, thrust), picks up the storm, fires and launches a missile
///   5. the threats' and the hunters' trees are rebuilt; shots move, each a ray cast through
///      the three trees, swept by its radius: the dust on the path breaks, and a shot stops at
///      the first threat or hunter (or, in storm, the first dust)
///   6. threats move (turning toward the ship, then charging) and hunters chase it; either
///      may hit the ship: shield, then a life
///   7. missiles look up their hunter by handle (a stale one: the nearest hunter instead),
///      turn toward it and take it down on contact
///   8. broken threats split in two or burst, hunters shot down burst, and a burst's blast (a
///      tree query) breaks the dust around it; broken dust bursts into debris and sparks
///   9. debris, sparks and explosions move and expire; 10. the wave: a breather, then its
///      threats and hunters; cleared when none is left, which scores a bonus and may drop the
///      storm
/// Dust breaks in step 5 and 8 but leaves the field in step 1 of the next tick, so that between
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

#include "common/scene/scene.hpp"
#include "engine/core/random.hpp"
#include "engine/memory/allocator_kind.hpp"
#include "engine/spatial/aabb.hpp"
#include "engine/spatial/quad_tree.hpp"
#include "game/play/entity_stores.hpp"
#include "game/play/entity_tree.hpp"
#include "game/play/input_command.hpp"
#include "game/play/play_config.hpp"
#include "game/play/ship.hpp"
#include "game/play/vec2.hpp"
#include "game/sim/simulation.hpp"

namespace quadpool::game::play {

/// How far past a query's area the tree is asked: the field's contact step moves a rock a
/// little after the tree was built from its box.
inline constexpr float kTreeMargin = 2.0f;

/// The sprite kind whose colour a hunter's sparks and debris take.
inline constexpr std::uint8_t kHunterHue = 2;

/// The storm power-up, waiting where a cleared wave dropped it.
struct Pickup {
  Vec2 position;
  int ticks_left = 0;
};

/// Score, lives, wave: what the overlay shows and the JSON's "game" object reports.
struct GameStatus {
  std::uint64_t score = 0;
  int wave = 1;
  int lives = 0;
  int breather_ticks = 0;   ///< ticks until the wave's threats come; 0 once they have
  int wave_ticks = 0;       ///< ticks since the wave's threats came
  int wave_hits = 0;        ///< threats that hit the ship since the wave's threats came
  int wave_bonus = 0;       ///< what clearing the last wave scored (0: the ship was hit)
  int storm_ticks = 0;      ///< ticks of the storm power-up left
  std::uint64_t kills = 0;  ///< rocks (dust and threats) broken by shots and blasts, all games
  std::uint64_t ticks_played = 0;  ///< ticks with a game on (not over), all games
  /// Missiles that found their hunter's handle stale (it died first) and locked onto another;
  /// all games.
  std::uint64_t stale_handles_seen = 0;
  std::uint64_t games = 1;      ///< 1 + restarts
  bool game_over = false;
};

/// Points scored at a place: a threat shot, a wave cleared (at the ship). For pop-ups.
struct ScorePop {
  Vec2 at;
  int points = 0;
};

/// What one play tick did. Plain data.
struct PlayTick {
  /// The most score pop-ups a tick reports; more in one tick are left out.
  static constexpr std::size_t kMostPops = 16;

  std::uint64_t tick = 0;
  game::sim::TickStats field;       ///< the field's own tick
  std::size_t kills = 0;            ///< rocks broken this tick, by any cause
  int wave_cleared = 0;             ///< the wave cleared this tick (0: none), for the banner
  int threats_broken = 0;           ///< threats that split or burst this tick, by any cause
  int hunters_broken = 0;           ///< hunters shot down or rammed into the ship this tick
  std::array<ScorePop, kMostPops> pops{};  ///< the threats' and the wave's points this tick
  std::size_t pop_count = 0;
  std::uint64_t created = 0;        ///< entities created this tick, all types
  std::uint64_t destroyed = 0;      ///< entities destroyed this tick, all types
  std::size_t live = 0;             ///< live entities after the tick, all types
  double ms_total = 0;              ///< the whole play tick, field included
  std::optional<std::uint64_t> heap_allocations;  ///< the whole tick; empty without a counter
};

class PlayWorld {
 public:
  /// Builds the field (game::Simulation; its exceptions pass through) with the ship at the
  /// world's centre. Broken dust comes back, so the field never holds more sprites than now and
  /// the tree's buffers and the rock vectors, all sized by the first tick, never grow. Throws
  /// std::invalid_argument when lives is outside kMinLives..kMaxLives.
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

  /// The storm power-up waiting to be picked up, if any.
  const std::optional<Pickup>& pickup() const noexcept { return pickup_; }

  /// Calls f(std::uint32_t index, const scene::Sprite& rock) for every live dust rock whose circle
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
  /// The threats and the hunters as the tick's shots saw them (the tree rebuilt before the
  /// shots moved), for nearest() and ray_cast() by handle.
  const EntityTree<Threat>& threat_tree() const noexcept { return threat_tree_; }
  const EntityTree<Hunter>& hunter_tree() const noexcept { return hunter_tree_; }
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
  /// Broken dust still to come back: no free place was found for it yet.
  const std::vector<scene::Sprite>& owed_rocks() const noexcept { return owed_; }

  /// See play_state_hash().
  std::uint64_t state_hash() const noexcept;

 private:
  // Shot: a shot broke it; Blast: a blast of something shot; Crash: the blast of a threat
  // that hit the ship.
  enum class Cause : std::uint8_t { Shot, Blast, Crash };
  struct Kill {
    std::uint32_t rock;
    Cause cause;
  };
  struct Spawn {
    Vec2 position, velocity;
    float radius;
    std::uint8_t kind;
  };

  void apply_rock_changes();
  void restart();
  void pick_up_storm();
  void fire(const InputCommand& command);
  void advance_shots();
  bool shoot_along(Vec2 from, Vec2 to, Vec2 direction);
  template <class T>
  T* first_on_path(const EntityTree<T>& tree, EntityStore<T>& store, Vec2 from, Vec2 path,
                   float path_sq, float& stop);
  void advance_threats();
  bool hits_ship(Vec2 at, float radius);
  // play_world_hunters.cpp: the hunters and the missiles.
  void send_hunters();
  void advance_hunters();
  void launch_missile(const InputCommand& command);
  void advance_missiles();
  Hunter* nearest_hunter(Vec2 at, memory::Handle<Hunter>& handle);
  void break_hunters();
  void kill(std::uint32_t rock, Cause cause);
  void add_score(int points) noexcept;
  void pop(Vec2 at, int points) noexcept;
  void break_threats();
  void break_dust();
  void burst(Vec2 centre, Vec2 drift, float radius, std::uint8_t hue, int debris, int sparks,
             float blast, Cause blast_cause);
  void spray_sparks(Vec2 centre, Vec2 drift, float radius, std::uint8_t hue, int count);
  void respawn_dust(const scene::Sprite& rock);
  bool dust_near(Vec2 at, float radius) const;
  void respawn_owed_dust();
  void advance_effects();
  void advance_wave();
  void send_wave();
  Vec2 point_near_ship(float distance) noexcept;
  Vec2 random_unit() noexcept;

  PlayConfig config_;
  Tuning tuning_;
  std::unique_ptr<game::sim::Simulation> field_;
  Random rng_;  // the rules' own stream: bursts, spawns
  Ship ship_;
  GameStatus status_;
  EntityStores stores_;
  EntityTree<Threat> threat_tree_;
  EntityTree<Hunter> hunter_tree_;
  // This tick's broken rocks and next tick's changes to the field; reserved to the rock budget.
  std::vector<std::uint8_t> dead_;  // per sprite of this tick: broken?
  std::vector<Kill> kills_;
  std::vector<std::uint32_t> removals_;
  std::vector<scene::Sprite> births_;
  std::vector<scene::Sprite> owed_;  // broken dust that found no free place yet
  std::vector<Spawn> children_;      // a tick's split threats, spawned after the threats' pass
  std::optional<Pickup> pickup_;
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
