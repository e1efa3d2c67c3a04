// Tests of the shots' sweep (game/play/play_world.cpp, shoot_along): a shot moves as a ray cast
// through the tree each tick, swept by its radius, and breaks what the exact sweep of its circle
// over every rock hits; the brute force here tests each rock of the field, in index order, with
// the same circle test. Shots at 1,000 units a tick cross a field of small rocks in one or two
// ticks: nothing between two ticks may be missed.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "engine/core/random.hpp"
#include "game/play/play_world.hpp"
#include "game/play/steering.hpp"
#include "tests/play/play_configs.hpp"

namespace quadpool::game::play {
namespace {

using test::play_config;

constexpr float kFastShot = 1000.0f;

// The rules with one fast shot a tick that lives one tick: each tick's breaks come from that
// tick's shot alone.
PlayConfig fast_shots(std::size_t sprites, std::uint64_t seed, bool pierce) {
  PlayConfig config = play_config(sprites, seed);
  config.field.scene.min_radius = 0.5f;
  config.field.scene.max_radius = 1.5f;
  Tuning tuning = tuning_for(false);
  tuning.shots.speed = kFastShot;
  tuning.shots.ticks = 1;
  tuning.shots.fire_period = 1;
  tuning.shots.pierce_dust = pierce;
  config.tuning = tuning;
  return config;
}

// The rocks a shot from `from` to `to` passes within reach of, by brute force over `rocks`: all
// of them when it pierces, else the first along the path (ties by lower index).
std::vector<std::uint32_t> brute_force_sweep(std::span<const scene::Sprite> rocks, Vec2 from,
                                             Vec2 to, float shot_radius, bool pierce) {
  const Vec2 path = to - from;
  const float path_sq = length_sq(path);
  std::vector<std::uint32_t> hit;
  float first_t = 2.0f;
  for (std::uint32_t id = 0; id < rocks.size(); ++id) {
    const scene::Sprite& rock = rocks[id];
    const std::optional<float> t =
        passes_within(from, path, path_sq, {rock.x, rock.y}, rock.radius + shot_radius);
    if (!t) continue;
    if (pierce) {
      hit.push_back(id);
    } else if (*t < first_t) {
      first_t = *t;
      hit.assign(1, id);
    }
  }
  return hit;
}

// Fires one fast shot a tick in a seeded random direction (before the first wave: no threat
// can stop it) and compares the rocks broken with the brute-force sweep of its path.
void fire_and_compare(bool pierce) {
  const std::uint64_t seed = 20261128;
  std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
  PlayWorld world(fast_shots(20'000, seed, pierce));
  Random rng(seed);
  const Tuning& tuning = world.tuning();
  std::size_t broken = 0;
  for (int t = 0; t < 120; ++t) {
    SCOPED_TRACE("tick " + std::to_string(t));
    ASSERT_EQ(world.entities().threats.size(), 0u);
    const float angle = rng.uniform(0.0f, 6.2831853f);
    InputCommand command;
    command.buttons = InputCommand::kFire;
    command.aim = aim_toward(std::cos(angle), std::sin(angle));
    world.step(command);
    // The shot left the muzzle and flew one tick: where fire() put it and where it went.
    const Vec2 direction = aim_direction(world.ship(), command);
    const Vec2 from = world.ship().position + direction * (tuning.ship.radius + 1.0f);
    const Vec2 to = from + direction * tuning.shots.speed;
    const auto rocks = world.field().sprites();
    std::vector<std::uint32_t> dead;
    for (std::uint32_t id = 0; id < rocks.size(); ++id) {
      if (world.rock_is_dead(id)) dead.push_back(id);
    }
    const std::vector<std::uint32_t> expected =
        brute_force_sweep(rocks, from, to, tuning.shots.radius, pierce);
    ASSERT_EQ(dead, expected);
    broken += dead.size();
  }
  std::printf("%s: %zu rocks broken by 120 shots at %.0f units a tick\n",
              pierce ? "piercing" : "stopping", broken, kFastShot);
  EXPECT_GT(broken, pierce ? 1000u : 60u) << "the shots must cross the field for this to count";
}

TEST(Shots, AShotAtAThousandUnitsATickBreaksExactlyWhatTheBruteForceSweepHits) {
  fire_and_compare(true);
}

TEST(Shots, AShotThatStopsAtTheFirstRockStopsWhereTheBruteForceSweepSays) {
  fire_and_compare(false);
}

}  // namespace
}  // namespace quadpool::game::play
