// Tests of the game's rules for the dust and the threats (game/play/play_world.*, tuning.cpp):
// shots break the dust on their path and the field keeps its size; a wave waits its breather,
// then sends its threats from out of sight; waves send more and faster threats; a threat that
// reaches the ship costs shield, one that is shot splits, then bursts; a wave too slow to clear
// has the next come on top; the storm power-up fires rings.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>

#include <gtest/gtest.h>

#include "game/play/bot_pilot.hpp"
#include "game/play/play_world.hpp"
#include "tests/play/play_configs.hpp"

namespace quadpool::game::play {
namespace {

using test::play_config;

float distance(Vec2 a, Vec2 b) {
  return std::sqrt(length_sq(a - b));
}

TEST(Waves, ShotsBreakTheDustOnTheirPathAndTheFieldKeepsItsSize) {
  PlayWorld world(play_config(4000, 9));
  BotPilot bot(9);
  const std::size_t at_start = world.field().sprites().size();
  std::size_t most = 0;
  for (int t = 0; t < 1500; ++t) {
    world.step(bot.decide(world));
    most = std::max(most, world.field().sprites().size());
  }
  const std::size_t at_end = world.field().sprites().size();
  std::printf("4000 dust, 1500 bot ticks: %llu broken, %zu dust at the end\n",
              static_cast<unsigned long long>(world.status().kills), at_end);
  EXPECT_GT(world.status().kills, 300u) << "shots fly on through the dust, breaking it";
  // Broken dust comes back where no dust is, away from the ship: the field keeps its size, but
  // for the few rocks that found no free place yet.
  EXPECT_EQ(most, at_start);
  EXPECT_EQ(at_end - world.pending_removals().size() + world.pending_rocks().size() +
                world.owed_rocks().size(),
            at_start);
  EXPECT_LT(world.owed_rocks().size(), at_start / 100);
}

TEST(Waves, AWaveWaitsItsBreatherThenSendsItsThreatsFromOutOfSight) {
  PlayWorld world(play_config(3000, 3));
  const Tuning& tuning = world.tuning();
  for (int t = 1; t < tuning.waves.first_breather_ticks; ++t) {
    world.step({});
    ASSERT_EQ(world.entities().threats.size(), 0u) << "tick " << t;
    ASSERT_EQ(world.status().breather_ticks, tuning.waves.first_breather_ticks - t);
  }
  world.step({});
  EXPECT_EQ(world.status().breather_ticks, 0);
  ASSERT_EQ(world.entities().threats.size(), static_cast<std::size_t>(threats_in_wave(tuning, 1)));
  world.entities().threats.for_each([&](const Threat& threat) {
    // Sent from the spawn distance (less one tick's flight) and at the wave's speed.
    const float away = distance(threat.motion.position, world.ship().position);
    EXPECT_NEAR(away, tuning.threats.spawn_distance, 2.0f * threat_speed(tuning, 1));
    EXPECT_NEAR(std::sqrt(length_sq(threat.motion.velocity)), threat_speed(tuning, 1), 1e-4f);
    EXPECT_EQ(threat.radius, tuning.threats.radius);
  });
}

TEST(Waves, EachWaveSendsMoreThreatsAndNoSlowerOnesThanTheLast) {
  const Tuning tuning = tuning_for(false);
  for (int wave = 2; wave <= 40; ++wave) {
    EXPECT_GT(threats_in_wave(tuning, wave), threats_in_wave(tuning, wave - 1)) << wave;
    EXPECT_GE(threat_speed(tuning, wave), threat_speed(tuning, wave - 1)) << wave;
    if (threat_speed(tuning, wave) < tuning.waves.speed_max) {
      EXPECT_GT(threat_speed(tuning, wave), threat_speed(tuning, wave - 1)) << wave;
    }
  }
  EXPECT_LT(tuning.waves.breather_ticks, tuning.waves.time_limit);
}

TEST(Waves, AThreatThatReachesTheShipCostsShieldBurstsAndScoresNothing) {
  PlayWorld world(play_config(2000, 4));
  const Tuning& tuning = world.tuning();
  std::size_t threats_before = 0;
  int t = 0;
  for (; t < 5000 && world.ship().shield == tuning.ship.shield; ++t) {
    threats_before = world.entities().threats.size();
    world.step({});
  }
  ASSERT_LT(world.ship().shield, tuning.ship.shield) << "no threat reached an idle ship";
  EXPECT_EQ(world.ship().shield, tuning.ship.shield - tuning.ship.hit_damage);
  EXPECT_EQ(world.entities().threats.size(), threats_before - 1) << "the threat burst";
  EXPECT_EQ(world.status().wave_hits, 1);
  EXPECT_EQ(world.status().score, 0u) << "a crash scores nothing, nor the dust its blast breaks";
  EXPECT_GT(world.entities().explosions.size(), 0u);
}

TEST(Waves, AShotThreatSplitsInTwoAndEachHalfBurstsWhenShot) {
  PlayWorld world(play_config(2000, 6));
  BotPilot bot(6);
  const Tuning& tuning = world.tuning();
  bool split_seen = false;
  for (int t = 0; t < 4000 && world.status().wave == 1; ++t) {
    const std::size_t before = world.entities().threats.size();
    world.step(bot.decide(world));
    world.entities().threats.for_each([&](const Threat& threat) {
      EXPECT_TRUE(threat.radius == tuning.threats.radius ||
                  threat.radius == tuning.threats.radius * tuning.threats.child_scale);
    });
    if (world.entities().threats.size() == before + 1) split_seen = true;
  }
  EXPECT_TRUE(split_seen) << "no threat split in two";
  ASSERT_EQ(world.status().wave, 2) << "the bot did not clear wave 1";
  EXPECT_EQ(world.status().breather_ticks, tuning.waves.breather_ticks) << "a breather";
  // Each threat of wave 1 split once and both halves burst, all shot.
  const auto shot_points = static_cast<std::uint64_t>(
      threats_in_wave(tuning, 1) * (tuning.score.split + 2 * tuning.score.burst));
  EXPECT_GE(world.status().score, shot_points);
}

TEST(Waves, AWaveTooSlowToClearHasTheNextComeOnTopWithoutABreather) {
  // The ship circles and never fires: the wave is never cleared in time.
  PlayWorld world(play_config(3000, 2));
  const Tuning& tuning = world.tuning();
  InputCommand circle;
  circle.steer = 1;
  circle.buttons = InputCommand::kThrust;
  bool on_top = false;
  for (int t = 0; t < 6000 && !on_top && !world.status().game_over; ++t) {
    const int wave = world.status().wave;
    const std::size_t before = world.entities().threats.size();
    const std::uint64_t score = world.status().score;
    world.step(circle);
    if (world.status().wave != wave && world.status().breather_ticks == 0) {
      on_top = true;
      EXPECT_GT(before, 0u) << "the last wave's threats were still about";
      EXPECT_EQ(world.entities().threats.size(),
                before + static_cast<std::size_t>(threats_in_wave(tuning, wave + 1)));
      EXPECT_EQ(world.status().score, score) << "no bonus for a wave not cleared";
    }
  }
  EXPECT_TRUE(on_top) << "no wave came on top of another in 6,000 ticks";
}

TEST(Waves, TheStormPowerUpFiresRingsOfShotsForItsTime) {
  PlayWorld world(play_config(2000, 5));
  BotPilot bot(5);
  const Tuning& tuning = world.tuning();
  bool dropped = false;
  int t = 0;
  for (; t < 20000 && world.status().storm_ticks == 0; ++t) {
    world.step(bot.decide(world));
    dropped = dropped || world.pickup().has_value();
  }
  ASSERT_TRUE(dropped) << "no storm power-up was dropped";
  ASSERT_GT(world.status().storm_ticks, 0) << "the bot never picked it up in " << t << " ticks";
  EXPECT_FALSE(world.pickup().has_value());
  EXPECT_EQ(world.status().storm_ticks, tuning.storm.ticks - 1);
  // The next trigger pull fires a ring.
  InputCommand fire;
  fire.buttons = InputCommand::kFire;
  for (int wait = 0; wait < tuning.shots.fire_period && world.ship().cooldown > 0; ++wait) {
    world.step({});
  }
  const std::uint64_t shots_before = world.entity_reports()[0].counts.created;
  world.step(fire);
  EXPECT_EQ(world.entity_reports()[0].counts.created - shots_before,
            static_cast<std::uint64_t>(tuning.storm.volley));
  EXPECT_EQ(world.ship().cooldown, tuning.storm.fire_period);
  for (int left = world.status().storm_ticks; left > 0; --left) world.step({});
  EXPECT_EQ(world.status().storm_ticks, 0);
}

}  // namespace
}  // namespace quadpool::game::play
