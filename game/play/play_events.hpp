#pragma once
/// PlayEvents: what a play tick did that the player should hear or be told about: a shot fired,
/// the ship hit, an explosion, a life lost, the game over. Read from the world's state before
/// and after the tick, so the rules need no notion of sound or screens.

#include "game/play/play_world.hpp"

namespace quadpool::game::play {

/// The parts of the world's state that the events compare across a tick.
struct PlayMoment {
  int shield = 0;
  int lives = 0;
  std::uint64_t games = 0;
  bool game_over = false;

  static PlayMoment of(const play::PlayWorld& world) noexcept;
};

struct PlayEvents {
  bool shot = false;       ///< shots were created this tick
  bool hit = false;        ///< the ship's shield dropped
  bool explosion = false;  ///< a threat split or burst this tick (the dust's bursts are not)
  bool life_lost = false;  ///< the lives dropped
  bool game_over = false;  ///< the game ended this tick

  /// The events of the tick `world` just ran, `before` being the state the tick started from.
  /// A restart in that tick (lives and shield refilled) counts as none of hit and life lost.
  static PlayEvents of(const PlayMoment& before, const play::PlayWorld& world) noexcept;
};

}  // namespace quadpool::game::play
