// Tests of game/play/bot_pilot.*: the bot is a pure function of its seed and the world it
// sees, it outscores and outlives a pilot who does nothing, and it restarts a game that is over.
#include "game/play/bot_pilot.hpp"

#include <cstdint>
#include <cstdio>
#include <vector>

#include <gtest/gtest.h>

#include "game/play/play_world.hpp"
#include "tests/play/play_configs.hpp"

namespace quadpool::game::play {
namespace {

PlayConfig bot_config(std::size_t sprites, std::uint64_t seed) {
  PlayConfig config = test::play_config(sprites, seed);
  config.lives = 9;
  return config;
}

TEST(BotPilot, TheSameSeedInTheSameWorldGivesTheSameCommands) {
  const auto commands = [](std::uint64_t bot_seed) {
    PlayWorld world(bot_config(800, 4));
    BotPilot bot(bot_seed);
    std::vector<InputCommand> out;
    for (int t = 0; t < 400; ++t) {
      out.push_back(bot.decide(world));
      world.step(out.back());
    }
    return out;
  };
  const std::vector<InputCommand> first = commands(1);
  EXPECT_EQ(first, commands(1));
  EXPECT_NE(first, commands(2));  // the seed picks the waypoints
}

struct Outcome {
  std::uint64_t score;
  int lives_lost;
  std::uint64_t kills;
};

template <class Pilot>
Outcome fly(std::uint64_t seed, Pilot&& pilot) {
  PlayWorld world(bot_config(1000, seed));
  for (int t = 0; t < 1000 && !world.status().game_over; ++t) world.step(pilot(world));
  return {world.status().score, 9 - world.status().lives, world.status().kills};
}

TEST(BotPilot, AimsFiresAndDodgesBetterThanAPilotWhoDoesNothing) {
  int bot_lives_lost = 0, idle_lives_lost = 0;
  for (const std::uint64_t seed : {1u, 2u, 3u}) {
    BotPilot bot(seed);
    const Outcome flown = fly(seed, [&](const PlayWorld& w) { return bot.decide(w); });
    const Outcome idle = fly(seed, [](const PlayWorld&) { return InputCommand{}; });
    std::printf("seed %llu: bot score %llu kills %llu lives lost %d; idle lives lost %d\n",
                static_cast<unsigned long long>(seed), static_cast<unsigned long long>(flown.score),
                static_cast<unsigned long long>(flown.kills), flown.lives_lost, idle.lives_lost);
    EXPECT_GT(flown.kills, 30u) << "seed " << seed;
    EXPECT_GT(flown.score, 0u);
    EXPECT_EQ(idle.score, 0u);
    bot_lives_lost += flown.lives_lost;
    idle_lives_lost += idle.lives_lost;
  }
  EXPECT_LT(bot_lives_lost, idle_lives_lost);
}

TEST(BotPilot, RestartsAGameThatIsOver) {
  PlayConfig config = bot_config(600, 5);
  config.lives = 1;
  PlayWorld world(config);
  InputCommand ram;
  ram.buttons = InputCommand::kThrust;
  ram.steer = 1;
  for (int t = 0; t < 20000 && !world.status().game_over; ++t) world.step(ram);
  ASSERT_TRUE(world.status().game_over);
  BotPilot bot(5);
  world.step(bot.decide(world));
  EXPECT_FALSE(world.status().game_over);
  EXPECT_EQ(world.status().games, 2u);
}

}  // namespace
}  // namespace quadpool::game::play
