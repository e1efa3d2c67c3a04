#include "game/play/play_events.hpp"

#include "game/play/entity_stores.hpp"

namespace quadpool::game::play {

PlayMoment PlayMoment::of(const play::PlayWorld& world) noexcept {
  const play::GameStatus& status = world.status();
  return {world.ship().shield, status.lives, status.games, status.game_over};
}

PlayEvents PlayEvents::of(const PlayMoment& before, const play::PlayWorld& world) noexcept {
  const PlayMoment after = PlayMoment::of(world);
  const play::EntityStores& stores = world.entities();
  PlayEvents events;
  events.shot = stores.shots.counts().created_tick > 0;
  // The dust's small bursts are many a tick: only a threat's break is an explosion to hear.
  events.explosion = world.last_tick().threats_broken > 0;
  // A restart refills the lives and the shield: that is no hit and no life lost.
  const bool same_game = after.games == before.games;
  events.hit = same_game && after.shield < before.shield;
  events.life_lost = same_game && after.lives < before.lives;
  events.game_over = after.game_over && !before.game_over;
  return events;
}

}  // namespace quadpool::game::play
