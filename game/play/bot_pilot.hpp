#pragma once
/// BotPilot: a deterministic pilot that plays through InputCommands only, as a player would. It
/// asks the last tick's tree for the rocks around the ship, shoots the nearest (the most urgent
/// threat first) with a lead for its drift, dodges a rock on course to hit the ship, and
/// otherwise cruises between waypoints drawn from its own seeded generator. When the game is
/// over it restarts. Same seed, same world: same commands.

#include <cstdint>

#include "engine/core/random.hpp"
#include "game/play/input_command.hpp"
#include "game/play/play_world.hpp"
#include "game/play/vec2.hpp"

namespace quadpool::game::play {

class BotPilot {
 public:
  explicit BotPilot(std::uint64_t seed) noexcept : rng_(seed) {}

  /// The command for the world's next tick. O(rocks within sight), through the tree.
  InputCommand decide(const PlayWorld& world);

  /// How far the bot looks for rocks, world units.
  static constexpr float kSight = 200.0f;

 private:
  Random rng_;
  Vec2 waypoint_;
  int waypoint_ticks_ = 0;  // until a new waypoint is drawn
};

}  // namespace quadpool::game::play
