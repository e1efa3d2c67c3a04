// Tests of the hunters and the homing missiles (game/play/play_world_hunters.cpp): hunters come
// with their waves and chase the ship; a missile locks onto the nearest hunter by handle, takes
// it down, and when its hunter died first finds the handle stale (counted) and locks onto
// another; with hunters and missiles busy, a warm pooled tick allocates nothing and the game has
// one state hash whichever allocator carries the entities.
#include <cmath>
#include <cstdint>
#include <cstdio>

#include <gtest/gtest.h>

#include "game/play/bot_pilot.hpp"
#include "game/play/play_world.hpp"
#include "tests/play/play_configs.hpp"

namespace quadpool::game::play {
namespace {

using memory::AllocatorKind;
using test::play_config;

// The rules with hunters from the first wave, which comes after a short breather.
PlayConfig hunters_first(std::size_t sprites, std::uint64_t seed,
                         AllocatorKind kind = AllocatorKind::Pool) {
  PlayConfig config = play_config(sprites, seed, kind);
  Tuning tuning = tuning_for(false);
  tuning.hunters.first_wave = 1;
  tuning.hunters.every = 1;
  tuning.waves.first_breather_ticks = 30;
  config.tuning = tuning;
  return config;
}

float distance_to_ship(const PlayWorld& world, const Hunter& hunter) {
  return std::sqrt(length_sq(hunter.motion.position - world.ship().position));
}

void run_until_hunters_come(PlayWorld& world) {
  for (int t = 0; t < 100 && world.entities().hunters.size() == 0; ++t) world.step({});
  ASSERT_GT(world.entities().hunters.size(), 0u) << "no hunter came with the first wave";
}

TEST(Hunters, ComeWithTheirWaveAndCloseOnTheShip) {
  PlayWorld world(hunters_first(1000, 3));
  run_until_hunters_come(world);
  EXPECT_EQ(world.entities().hunters.size(),
            static_cast<std::size_t>(hunters_in_wave(world.tuning(), 1)));
  float before = 0.0f;
  world.entities().hunters.for_each([&](const Hunter& h) { before += distance_to_ship(world, h); });
  for (int t = 0; t < 60; ++t) world.step({});
  float after = 0.0f;
  world.entities().hunters.for_each([&](const Hunter& h) { after += distance_to_ship(world, h); });
  EXPECT_LT(after, before - 50.0f) << "the hunters did not close on the ship";
}

TEST(Hunters, NoHunterComesBeforeItsFirstWave) {
  const Tuning tuning = tuning_for(false);
  EXPECT_EQ(hunters_in_wave(tuning, tuning.hunters.first_wave - 1), 0);
  EXPECT_EQ(hunters_in_wave(tuning, tuning.hunters.first_wave), 1);
  for (int wave = tuning.hunters.first_wave + 1; wave <= 40; ++wave) {
    EXPECT_GE(hunters_in_wave(tuning, wave), hunters_in_wave(tuning, wave - 1)) << "wave " << wave;
  }
}

// Two hunters that stay where they are; two missiles launched a tick apart both lock onto the
// nearer. The first takes it down; the second finds its handle stale the tick after, locks onto
// the other hunter and takes that one down too.
TEST(Missiles, AMissileWhoseHunterDiedFirstFindsItsHandleStaleAndLocksOntoAnother) {
  PlayConfig config = hunters_first(1000, 4);
  config.tuning->hunters.thrust = 0.0f;  // sitting targets
  config.tuning->missiles.period = 1;
  // As if hunters began a wave earlier: wave 1 sends (1 - 0) / 1 + 1 = 2.
  config.tuning->hunters.first_wave = 0;
  PlayWorld world(config);
  run_until_hunters_come(world);
  ASSERT_EQ(world.entities().hunters.size(), 2u);
  const std::uint64_t score = world.status().score;
  InputCommand launch;
  launch.buttons = InputCommand::kMissile;
  world.step(launch);
  world.step(launch);
  ASSERT_EQ(world.entities().missiles.size(), 2u);
  for (int t = 0; t < 300 && world.entities().hunters.size() > 0; ++t) world.step({});
  EXPECT_EQ(world.entities().hunters.size(), 0u) << "the missiles did not take both hunters down";
  EXPECT_EQ(world.entities().missiles.size(), 0u);
  EXPECT_EQ(world.status().stale_handles_seen, 1u);
  // Both shot down (a rammed hunter scores nothing), and their blasts broke some dust.
  EXPECT_GE(world.status().score - score,
            2u * static_cast<std::uint64_t>(world.tuning().score.hunter));
}

TEST(Missiles, AMissileLaunchedWithNoHunterAboutFliesStraightAndLocksOnWhenOneComes) {
  PlayConfig config = hunters_first(1000, 5);
  config.tuning->waves.first_breather_ticks = 20;
  config.tuning->missiles.ticks = 200;
  PlayWorld world(config);
  InputCommand launch;
  launch.buttons = InputCommand::kMissile;
  world.step(launch);
  ASSERT_EQ(world.entities().missiles.size(), 1u);
  world.entities().missiles.for_each(
      [](const Missile& m) { EXPECT_TRUE(m.target.is_null()) << "locked onto nothing"; });
  run_until_hunters_come(world);
  world.step({});  // the missile looks for a hunter each tick it has none
  std::size_t locked = 0;
  world.entities().missiles.for_each([&](const Missile& m) {
    if (world.entities().hunters.get(m.target) != nullptr) ++locked;
  });
  EXPECT_EQ(locked, 1u);
  for (int t = 0; t < 150 && world.entities().hunters.size() > 0; ++t) world.step({});
  EXPECT_EQ(world.entities().hunters.size(), 0u) << "the missile did not take the hunter down";
  EXPECT_EQ(world.status().stale_handles_seen, 0u);
}

// The bot fires missiles while hunters are about: over a long game hunters die by shots and
// missiles, handles go stale, and every allocator (and switching it every 7 ticks) plays the same
// game; a warm pooled tick allocates nothing.
TEST(Missiles, ABotGameWithHuntersHasOneHashOnEveryAllocatorAndAllocatesNothingWarm) {
  constexpr int kTicks = 2500;
  std::printf("seed 6, 1500 rocks, %d ticks, hunters from wave 1\n", kTicks);
  std::uint64_t hashes[3] = {};
  for (int run = 0; run < 3; ++run) {
    PlayWorld world(
        hunters_first(1500, 6, run == 1 ? AllocatorKind::NewDelete : AllocatorKind::Pool));
    BotPilot bot(6);
    std::uint64_t warm_allocations = 0;
    for (int t = 0; t < kTicks; ++t) {
      if (run == 2 && t > 0 && t % 7 == 0) {
        world.set_allocator(world.allocator() == AllocatorKind::Pool ? AllocatorKind::NewDelete
                                                                     : AllocatorKind::Pool);
      }
      const PlayTick& tick = world.step(bot.decide(world));
      if (run == 0 && t >= 200) warm_allocations += *tick.heap_allocations;
    }
    hashes[run] = world.state_hash();
    if (run != 0) continue;
    EXPECT_EQ(warm_allocations, 0u);
    const auto reports = world.entity_reports();
    const EntityReport& hunters = reports[static_cast<std::size_t>(EntityType::Hunters)];
    const EntityReport& missiles = reports[static_cast<std::size_t>(EntityType::Missiles)];
    std::printf(
        "hunters %llu created %llu destroyed, missiles %llu, stale handles seen %llu, "
        "score %llu, wave %d\n",
        static_cast<unsigned long long>(hunters.counts.created),
        static_cast<unsigned long long>(hunters.counts.destroyed),
        static_cast<unsigned long long>(missiles.counts.created),
        static_cast<unsigned long long>(world.status().stale_handles_seen),
        static_cast<unsigned long long>(world.status().score), world.status().wave);
    EXPECT_GE(hunters.counts.destroyed, 10u);
    EXPECT_GE(missiles.counts.created, 5u);
    EXPECT_GT(world.status().stale_handles_seen, 0u);
    EXPECT_EQ(hunters.tally.constructed, hunters.counts.created);
    EXPECT_EQ(missiles.tally.destroyed, missiles.counts.destroyed);
  }
  EXPECT_EQ(hashes[0], hashes[1]);
  EXPECT_EQ(hashes[0], hashes[2]);
}

}  // namespace
}  // namespace quadpool::game::play
