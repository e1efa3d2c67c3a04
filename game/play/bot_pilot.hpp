#pragma once
/// BotPilot: a deterministic pilot that plays through InputCommands only, as a player would
/// with a mouse. It fires all the time, aimed at the threat coming soonest (else the nearest)
/// with a lead for its drift, or along its heading when there is none; it dodges a threat on course
/// to hit the ship, flies to the storm power-up, and otherwise cruises between waypoints near the
/// world's middle drawn from its own seeded generator. When the game is over it restarts. Same
/// seed, same world: same commands.

#include <cstdint>

#include "engine/core/random.hpp"
#include "game/play/input_command.hpp"
#include "game/play/play_world.hpp"
#include "game/play/vec2.hpp"

namespace quadpool::game::play {

class BotPilot {
 public:
  explicit BotPilot(std::uint64_t seed) noexcept : rng_(seed) {}

  /// The command for the world's next tick. O(threats).
  InputCommand decide(const PlayWorld& world);

 private:
  static constexpr int kWaypointTicks = 240;

  Random rng_;
  Vec2 waypoint_;
  int waypoint_ticks_ = 0;  // until a new waypoint is drawn
};

}  // namespace quadpool::game::play
