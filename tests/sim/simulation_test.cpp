// Tick tests of game/simulation.*: thousands of ticks at several sizes with the broad phase
// checked against the reference, the invariants (inside the world, bounded energy),
// determinism across allocators, zero heap allocations per pooled tick, and a bounded pool.
// Sections: long runs, determinism, allocations and memory, scene changes and contacts, scenes,
// long runs of every scene.
#include "game/sim/simulation.hpp"

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <span>
#include <ostream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "common/heap_counter.hpp"
#include "engine/memory/allocator_kind.hpp"
#include "engine/spatial/quad_tree.hpp"
#include "engine/spatial/pair_check.hpp"
#include "common/scene/scene.hpp"
#include "tests/helpers/assert_throws.hpp"
#include "tests/helpers/skip.hpp"

namespace quadpool::game {
namespace {

sim::SimulationConfig config_for(std::size_t sprites, std::uint64_t seed,
                                 memory::AllocatorKind kind = memory::AllocatorKind::Pool) {
  sim::SimulationConfig config;
  config.scene.sprites = sprites;
  config.scene.seed = seed;
  config.allocator = kind;
  config.heap_counter = &quadpool::heap_allocations;
  return config;
}

// Inside [radius, side - radius] on both axes, exactly as clamp_into_world leaves it.
bool inside_world(const scene::Sprite& s, float side) {
  if (2.0f * s.radius > side) return true;  // pinned to the middle; not in this scene
  return s.x >= s.radius && s.x <= side - s.radius && s.y >= s.radius && s.y <= side - s.radius;
}

double largest_sprite_energy(std::span<const scene::Sprite> sprites) {
  double largest = 0.0;
  for (const scene::Sprite& s : sprites) largest = std::max(largest, sim::kinetic_energy({&s, 1}));
  return largest;
}

// --- long runs -----------------------------------------------------------------------------

struct LongRun {
  std::size_t sprites;
  std::uint64_t ticks;
  std::uint64_t check_every;  // brute-force check of the pairs on every k-th tick
};

void PrintTo(const LongRun& run, std::ostream* os) {
  *os << run.sprites << " sprites, " << run.ticks << " ticks";
}

class TickRun : public ::testing::TestWithParam<LongRun> {};

// Runs `ticks` ticks and asserts on every one: the pairs match the reference (every
// `check_every`-th tick), every sprite is inside the world, and the energy stays within the
// rounding bound explained below.
void expect_healthy_run(const sim::SimulationConfig& config, std::uint64_t ticks,
                        std::uint64_t check_every) {
  sim::Simulation sim(config);
  spatial::PairChecker checker;
  const double energy_first = sim::kinetic_energy(sim.sprites());
  double energy_error_bound = 0.0;
  double largest_energy = largest_sprite_energy(sim.sprites());

  for (std::uint64_t t = 0; t < ticks; ++t) {
    const sim::TickStats& tick = sim.step();
    if (t % check_every == 0 || t + 1 == ticks) {
      const auto mismatch = checker.check(sim.last_boxes(), sim.last_pairs());
      ASSERT_FALSE(mismatch.has_value())
          << "tick " << t << ": " << spatial::describe(*mismatch, sim.last_boxes());
      sim.tree().validate();
    }
    for (const scene::Sprite& s : sim.sprites()) {
      ASSERT_TRUE(inside_world(s, sim.world_side()))
          << "tick " << t << ": sprite at (" << s.x << ", " << s.y << ") radius " << s.radius
          << " left the world of side " << sim.world_side();
    }
    // Why this bound: an elastic impulse conserves the pair's kinetic energy exactly in real
    // arithmetic, positional correction and the wall clamp never touch a velocity, and a wall
    // bounce only flips a sign. What is left is float rounding in the impulse: each velocity
    // component goes through at most 4 roundings of relative size 2^-24, so one contact moves
    // the pair's energy by at most about 16 * 2^-24 of (E_a + E_b) <= 2 * E_largest. Summing
    // that over every contact, with E_largest the largest sprite energy seen so far (times 2
    // for the energy a sprite can gain within a tick), bounds the drift without assuming that
    // the errors cancel (they mostly do, and the real drift is orders of magnitude smaller).
    // A real bug, such as an impulse that is 1% too strong, breaks this bound within a tick.
    largest_energy = std::max(largest_energy, largest_sprite_energy(sim.sprites()));
    energy_error_bound +=
        static_cast<double>(tick.contacts) * 16.0 * 0x1.0p-24 * 2.0 * (2.0 * largest_energy);
    const double energy = sim::kinetic_energy(sim.sprites());
    ASSERT_LE(std::abs(energy - energy_first), energy_error_bound + 1e-9 * energy_first)
        << "tick " << t << ": kinetic energy " << energy << ", started at " << energy_first;
  }
  // The bound must mean something: much less than the energy itself.
  EXPECT_LT(energy_error_bound, 0.05 * energy_first);
  EXPECT_GT(sim.contacts_total(), 0u) << "a scene without contacts tests nothing";
}

TEST_P(TickRun, PairsMatchTheReferenceAndSpritesStayInsideAndEnergyStaysBounded) {
  const LongRun run = GetParam();
  const auto seed = test::announce_seed("TickRun", 20240501 + run.sprites);
  expect_healthy_run(config_for(run.sprites, seed), run.ticks, run.check_every);
}

INSTANTIATE_TEST_SUITE_P(Sizes, TickRun,
                         ::testing::Values(LongRun{100, 5000, 50}, LongRun{2000, 2000, 100},
                                           LongRun{20000, 150, 25}),
                         [](const auto& info) {
                           return std::to_string(info.param.sprites) + "Sprites";
                         });

// --- determinism ----------------------------------------------------------------------------

// The hash after every 50th tick, for one allocator schedule.
std::vector<std::uint64_t> hashes_with(std::uint64_t switch_every, memory::AllocatorKind first,
                                       scene::SceneKind scene = scene::SceneKind::Uniform,
                                       std::size_t sprites = 1000) {
  sim::SimulationConfig config = config_for(sprites, 7, first);
  config.scene.kind = scene;
  sim::Simulation sim(config);
  memory::AllocatorKind kind = first;
  std::vector<std::uint64_t> hashes;
  for (std::uint64_t t = 0; t < 600; ++t) {
    if (switch_every != 0 && t != 0 && t % switch_every == 0) {
      kind = kind == memory::AllocatorKind::Pool ? memory::AllocatorKind::NewDelete : memory::AllocatorKind::Pool;
      sim.set_allocator(kind);
    }
    sim.step();
    if (t % 50 == 49) hashes.push_back(sim.state_hash());
  }
  return hashes;
}

TEST(Simulation, StateHashIsTheSameForPoolNewDeleteAndSwitchingEverySevenTicks) {
  const auto pool = hashes_with(0, memory::AllocatorKind::Pool);
  EXPECT_EQ(pool, hashes_with(0, memory::AllocatorKind::NewDelete));
  EXPECT_EQ(pool, hashes_with(7, memory::AllocatorKind::Pool));
  EXPECT_EQ(pool, hashes_with(7, memory::AllocatorKind::NewDelete));
  // The state really moves, so equal hashes are not equal by accident.
  EXPECT_NE(pool.front(), pool.back());
}

TEST(Simulation, DifferentSeedsGiveDifferentStates) {
  sim::Simulation a(config_for(500, 1));
  sim::Simulation b(config_for(500, 2));
  EXPECT_NE(a.state_hash(), b.state_hash());
}

TEST(Simulation, StateHashSeesASingleBitOfOneVelocity) {
  sim::Simulation sim(config_for(300, 3));
  std::vector<scene::Sprite> sprites(sim.sprites().begin(), sim.sprites().end());
  const std::uint64_t before = sim::state_hash(sprites);
  sprites[123].vy = std::nextafter(sprites[123].vy, 1.0f);
  EXPECT_NE(before, sim::state_hash(sprites));
  EXPECT_EQ(sim::format_hash(0x0123456789abcdefull), "0123456789abcdef");
  EXPECT_EQ(sim::format_hash(0x1ull), "0000000000000001");
}

// The sprites move in memory: at every kSpriteSortPeriod-th tick they are put in the tree's
// order. Each keeps its id, the hash follows the ids and not the memory order, and the tree
// speaks of the new indices.
TEST(Simulation, PutsTheSpritesInTheTreesOrderEveryFewTicksAndEachKeepsItsId) {
  sim::Simulation sim(config_for(3000, 8));
  std::vector<scene::Sprite> spawned(sim.sprites().begin(), sim.sprites().end());
  for (std::uint32_t i = 0; i < sim.ids().size(); ++i) ASSERT_EQ(sim.ids()[i], i);
  bool moved = false;
  for (std::uint64_t t = 0; t < 3 * sim::kSpriteSortPeriod; ++t) {
    sim.step();
    std::vector<std::uint32_t> ids(sim.ids().begin(), sim.ids().end());
    std::sort(ids.begin(), ids.end());
    for (std::uint32_t i = 0; i < ids.size(); ++i) ASSERT_EQ(ids[i], i) << "tick " << t;
    if (t % sim::kSpriteSortPeriod == 0) {
      for (std::uint32_t i = 0; i < sim.tree().item_order().size(); ++i) {
        ASSERT_EQ(sim.tree().item_order()[i], i) << "tick " << t;
      }
    }
    // The boxes the tree was built from are at the sprites' current indices: a box as wide as
    // its sprite, around where the sprite was before the contacts moved it a little.
    for (std::size_t i = 0; i < sim.sprites().size(); i += 97) {
      const spatial::Aabb& box = sim.last_boxes()[i];
      const scene::Sprite& s = sim.sprites()[i];
      EXPECT_NEAR(box.max_x - box.min_x, 2.0f * s.radius, 1e-3f) << "tick " << t;
      EXPECT_NEAR(0.5f * (box.min_x + box.max_x), s.x, 2.0f * s.radius) << "tick " << t;
    }
    for (std::size_t i = 0; i < sim.ids().size(); ++i) moved |= sim.ids()[i] != i;
  }
  EXPECT_TRUE(moved);
  // A sprite's radius and kind never change: the id found it again.
  for (std::size_t i = 0; i < sim.sprites().size(); ++i) {
    ASSERT_EQ(sim.sprites()[i].radius, spawned[sim.ids()[i]].radius);
    ASSERT_EQ(sim.sprites()[i].kind, spawned[sim.ids()[i]].kind);
  }
  const std::uint32_t next = sim.ids().size();
  sim.remove_sprite(0);
  sim.spawn_at(10.0f, 10.0f, 2, 5.0f);
  EXPECT_EQ(sim.ids()[sim.ids().size() - 2], next);
  EXPECT_EQ(sim.ids().back(), next + 1);
}

TEST(StateHash, IsAHashOfTheSetOfSpritesWithTheirIds) {
  sim::Simulation sim(config_for(400, 9));
  for (int t = 0; t < 5; ++t) sim.step();
  const std::vector<scene::Sprite> sprites(sim.sprites().begin(), sim.sprites().end());
  const std::vector<std::uint32_t> ids(sim.ids().begin(), sim.ids().end());
  EXPECT_EQ(sim::state_hash(sprites, ids), sim.state_hash());
  // The same sprites with the same ids in another memory order: the same hash.
  std::vector<scene::Sprite> reversed(sprites.rbegin(), sprites.rend());
  std::vector<std::uint32_t> reversed_ids(ids.rbegin(), ids.rend());
  EXPECT_EQ(sim::state_hash(reversed, reversed_ids), sim.state_hash());
  // Two sprites that trade ids, or a plain list hashed by index: another state.
  std::swap(reversed_ids[3], reversed_ids[200]);
  EXPECT_NE(sim::state_hash(reversed, reversed_ids), sim.state_hash());
  EXPECT_NE(sim::state_hash(reversed), sim::state_hash(sprites));
}

TEST(Simulation, SetAllocatorTakesEffectAtTheNextTick) {
  sim::Simulation sim(config_for(500, 4));
  sim.step();
  EXPECT_EQ(sim.last_tick().allocator, memory::AllocatorKind::Pool);
  sim.set_allocator(memory::AllocatorKind::NewDelete);
  EXPECT_EQ(sim.allocator(), memory::AllocatorKind::NewDelete);
  EXPECT_EQ(sim.last_tick().allocator, memory::AllocatorKind::Pool) << "the tick already run stays";
  sim.step();
  EXPECT_EQ(sim.last_tick().allocator, memory::AllocatorKind::NewDelete);
  EXPECT_EQ(sim.tree().allocator(), memory::AllocatorKind::NewDelete);
}

// --- allocations and memory ------------------------------------------------------------------

TEST(Simulation, PoolModeMakesNoHeapAllocationPerTickAfterWarmUp) {
  sim::Simulation sim(config_for(3000, 5));
  for (int t = 0; t < 20; ++t) sim.step();  // the pool, the pair buffer and the boxes grow here
  for (int t = 20; t < 520; ++t) {
    const sim::TickStats& tick = sim.step();
    ASSERT_TRUE(tick.heap_allocations.has_value());
    ASSERT_EQ(*tick.heap_allocations, 0u) << "tick " << t << " allocated";
  }
}

TEST(Simulation, NewDeleteModeAllocatesEveryTickSoTheCounterIsLive) {
  sim::Simulation sim(config_for(3000, 5, memory::AllocatorKind::NewDelete));
  for (int t = 0; t < 20; ++t) sim.step();
  const sim::TickStats& tick = sim.step();
  ASSERT_TRUE(tick.heap_allocations.has_value());
  EXPECT_GT(*tick.heap_allocations, 0u);
}

TEST(Simulation, WithoutACounterNoAllocationCountIsReported) {
  sim::SimulationConfig config = config_for(200, 5);
  config.heap_counter = nullptr;
  sim::Simulation sim(config);
  EXPECT_FALSE(sim.step().heap_allocations.has_value());
}

TEST(Simulation, PoolHighWaterStaysBoundedOverTwentyThousandTicksAndNothingLeaks) {
  const std::uint64_t heap_live_before = heap_allocations() - heap_deallocations();
  {
    sim::Simulation sim(config_for(150, 6));
    std::size_t high_water_after_warm_up = 0;
    std::size_t capacity_after_warm_up = 0;
    for (int t = 0; t < 20000; ++t) {
      const sim::TickStats& tick = sim.step();
      if (t == 999) {
        high_water_after_warm_up = tick.pool.high_water;
        capacity_after_warm_up = tick.pool.capacity;
      }
      // In pool mode every live block belongs to the tree just built; a block that outlived its
      // rebuild would show up here as soon as it happened.
      ASSERT_GE(tick.pool.blocks_in_use, tick.tree.nodes) << "tick " << t;
    }
    const memory::PoolStats end = sim.last_tick().pool;
    // The scene is statistically steady, so the tree's size wanders around a constant; a leak
    // of one node per tick would add 19,000 blocks. Twice the first thousand ticks' peak
    // leaves room for an unlucky clump of sprites.
    EXPECT_GT(high_water_after_warm_up, 0u);
    EXPECT_LE(end.high_water, 2 * high_water_after_warm_up);
    EXPECT_LE(end.capacity, 2 * std::max<std::size_t>(capacity_after_warm_up, 1));
  }
  // The simulation, its tree and its pool gave back every heap block they took. (In checked
  // builds the pool also asserts when it is destroyed with live blocks.)
  EXPECT_EQ(heap_allocations() - heap_deallocations(), heap_live_before);
}

// --- scene changes and contacts --------------------------------------------------------------

TEST(Simulation, SpawnAndRemoveBetweenTicksAreDeterministicAndStayInside) {
  const auto play = [] {
    sim::Simulation sim(config_for(400, 8));
    for (int t = 0; t < 30; ++t) sim.step();
    EXPECT_EQ(sim.spawn_at(10.0f, 10.0f, 50, 40.0f), 50u);  // partly outside: clamped in
    for (int t = 0; t < 30; ++t) sim.step();
    const std::size_t removed =
        sim.remove_sprites_near(sim.world_side() / 2, sim.world_side() / 2, 30.0f);
    sim.remove_sprite(0);
    for (int t = 0; t < 30; ++t) sim.step();
    for (const scene::Sprite& s : sim.sprites()) EXPECT_TRUE(inside_world(s, sim.world_side()));
    EXPECT_EQ(sim.sprites().size(), 400u + 50u - removed - 1u);
    return sim.state_hash();
  };
  EXPECT_EQ(play(), play());
}

TEST(Simulation, RemoveSpritesNearRemovesExactlyTheSpritesInTheCircle) {
  sim::Simulation sim(config_for(1000, 9));
  const float cx = sim.world_side() * 0.3f;
  const float cy = sim.world_side() * 0.6f;
  const float r = 100.0f;
  std::size_t inside = 0;
  for (const scene::Sprite& s : sim.sprites()) {
    inside += (s.x - cx) * (s.x - cx) + (s.y - cy) * (s.y - cy) <= r * r ? 1 : 0;
  }
  ASSERT_GT(inside, 0u);
  EXPECT_EQ(sim.remove_sprites_near(cx, cy, r), inside);
  EXPECT_EQ(sim.sprites().size(), 1000u - inside);
  for (const scene::Sprite& s : sim.sprites()) {
    EXPECT_GT((s.x - cx) * (s.x - cx) + (s.y - cy) * (s.y - cy), r * r);
  }
}

TEST(Simulation, TheTickRecordsItsContactsInResolveOrderAsASubsequenceOfItsPairs) {
  sim::SimulationConfig config;
  config.scene.sprites = 3000;
  config.scene.seed = 9;
  sim::Simulation sim(config);
  std::uint64_t recorded = 0;
  for (int t = 0; t < 50; ++t) {
    const sim::TickStats& tick = sim.step();
    const std::span<const spatial::Pair> pairs = sim.last_pairs();
    const std::span<const spatial::Pair> contacts = sim.last_contacts();
    ASSERT_EQ(contacts.size(), tick.contacts) << "tick " << t;
    // Each contact is one of the tick's pairs, in the order the pairs were resolved.
    std::size_t next = 0;
    for (const spatial::Pair& contact : contacts) {
      while (next < pairs.size() && !(pairs[next] == contact)) ++next;
      ASSERT_LT(next, pairs.size()) << "tick " << t << ": a contact out of order or not a pair";
      ++next;
    }
    recorded += contacts.size();
  }
  EXPECT_GT(recorded, 0u);
  EXPECT_EQ(recorded, sim.contacts_total());
}

TEST(Simulation, RemoveSpritesRemovesTheListedIndicesAndKeepsTheOrderOfTheRest) {
  sim::Simulation sim(config_for(300, 4));
  sim.step();
  std::vector<scene::Sprite> expected;
  std::vector<std::uint32_t> doomed;
  for (std::uint32_t i = 0; i < 300; ++i) {
    if (i % 7 == 0 || i == 299 || (i > 100 && i < 110)) {
      doomed.push_back(i);
    } else {
      expected.push_back(sim.sprites()[i]);
    }
  }
  const std::uint64_t before = heap_allocations();
  EXPECT_EQ(sim.remove_sprites(doomed), doomed.size());
  EXPECT_EQ(heap_allocations() - before, 0u);
  EXPECT_EQ(sim::state_hash(sim.sprites()), sim::state_hash(expected));
  EXPECT_EQ(sim.remove_sprites({}), 0u);
}

TEST(Simulation, RemoveSpritesAssertsOnUnsortedOrOutOfRangeIndicesAndMovesNothing) {
  QUADPOOL_SKIP_WITHOUT_ASSERTS();
  test::ScopedThrowingAsserts throwing;
  sim::Simulation sim(config_for(50, 4));
  const std::uint64_t hash = sim.state_hash();
  const std::vector<std::uint32_t> unsorted{3, 9, 9}, out_of_range{1, 50};
  EXPECT_THROW(sim.remove_sprites(unsorted), test::AssertionError);
  EXPECT_THROW(sim.remove_sprites(out_of_range), test::AssertionError);
  EXPECT_EQ(sim.state_hash(), hash);
}

TEST(Simulation, CirclesOverlapOnlyWhenCloserThanTheirRadiiAndTouchingIsNoContact) {
  EXPECT_TRUE(sim::circles_overlap(0, 0, 1, 1.5f, 0, 1));
  EXPECT_FALSE(sim::circles_overlap(0, 0, 1, 2, 0, 1));        // touching
  EXPECT_FALSE(sim::circles_overlap(0, 0, 1, 1.5f, 1.5f, 1));  // boxes overlap, circles do not
  EXPECT_TRUE(sim::circles_overlap(3, 4, 2, 3, 4, 0.5f));      // concentric
}

TEST(Simulation, HeadOnContactOfEqualSpritesSwapsTheirVelocities) {
  sim::Simulation sim(config_for(1000, 10));
  sim.remove_sprites_near(0.0f, 0.0f, 1e6f);
  ASSERT_TRUE(sim.sprites().empty());
  // After the integrate step they are 7.5 apart with radii 4: overlapping and approaching.
  sim.add_sprite(
      scene::Sprite{.x = 100.0f, .y = 100.0f, .vx = 0.5f, .vy = 0.0f, .radius = 4.0f, .kind = 0});
  sim.add_sprite(
      scene::Sprite{.x = 108.5f, .y = 100.0f, .vx = -0.5f, .vy = 0.0f, .radius = 4.0f, .kind = 1});
  const sim::TickStats& tick = sim.step();
  EXPECT_EQ(tick.pairs_tested, 1u);
  EXPECT_EQ(tick.contacts, 1u);
  const auto s = sim.sprites();
  EXPECT_FLOAT_EQ(s[0].vx, -0.5f);
  EXPECT_FLOAT_EQ(s[1].vx, 0.5f);
  EXPECT_FLOAT_EQ(s[0].vy, 0.0f);
  // Positional correction leaves them exactly touching, centred where they met.
  EXPECT_NEAR(s[1].x - s[0].x, 8.0f, 1e-4f);
  EXPECT_NEAR(0.5f * (s[0].x + s[1].x), 104.25f, 1e-4f);
}

TEST(Simulation, ContactConservesMomentumAndEnergyBetweenUnequalSprites) {
  sim::Simulation sim(config_for(1000, 10));
  sim.remove_sprites_near(0.0f, 0.0f, 1e6f);
  sim.add_sprite(
      scene::Sprite{.x = 100.0f, .y = 100.0f, .vx = 0.4f, .vy = 0.1f, .radius = 6.0f, .kind = 0});
  sim.add_sprite(
      scene::Sprite{.x = 107.0f, .y = 103.0f, .vx = -0.3f, .vy = -0.2f, .radius = 2.0f, .kind = 0});
  const double energy_before = sim::kinetic_energy(sim.sprites());
  const auto momentum = [&](auto get) {
    double sum = 0;
    for (const scene::Sprite& s : sim.sprites()) sum += static_cast<double>(s.radius) * s.radius * get(s);
    return sum;
  };
  const double px = momentum([](const scene::Sprite& s) { return s.vx; });
  const double py = momentum([](const scene::Sprite& s) { return s.vy; });
  EXPECT_EQ(sim.step().contacts, 1u);
  EXPECT_NEAR(sim::kinetic_energy(sim.sprites()), energy_before, 1e-5 * energy_before);
  EXPECT_NEAR(momentum([](const scene::Sprite& s) { return s.vx; }), px, 1e-4);
  EXPECT_NEAR(momentum([](const scene::Sprite& s) { return s.vy; }), py, 1e-4);
}

TEST(Simulation, SeparatingSpritesArePushedApartButKeepTheirVelocities) {
  sim::Simulation sim(config_for(1000, 10));
  sim.remove_sprites_near(0.0f, 0.0f, 1e6f);
  sim.add_sprite(
      scene::Sprite{.x = 100.0f, .y = 100.0f, .vx = -0.5f, .vy = 0.0f, .radius = 4.0f, .kind = 0});
  sim.add_sprite(
      scene::Sprite{.x = 105.0f, .y = 100.0f, .vx = 0.5f, .vy = 0.0f, .radius = 4.0f, .kind = 0});
  EXPECT_EQ(sim.step().contacts, 1u);
  EXPECT_FLOAT_EQ(sim.sprites()[0].vx, -0.5f);
  EXPECT_FLOAT_EQ(sim.sprites()[1].vx, 0.5f);
  EXPECT_NEAR(sim.sprites()[1].x - sim.sprites()[0].x, 8.0f, 1e-4f);
}

TEST(Simulation, AddSpriteClampsIntoTheWorld) {
  sim::Simulation sim(config_for(1000, 11));
  const std::size_t i =
      sim.add_sprite(scene::Sprite{.x = -50.0f, .y = 1e5f, .vx = 0, .vy = 0, .radius = 3.0f, .kind = 9});
  const scene::Sprite& s = sim.sprites()[i];
  EXPECT_FLOAT_EQ(s.x, 3.0f);
  EXPECT_FLOAT_EQ(s.y, sim.world_side() - 3.0f);
  EXPECT_LT(s.kind, scene::kSpriteKinds);
}

TEST(Simulation, AddSpriteAssertsOnANonFiniteOrNonPositiveRadius) {
  QUADPOOL_SKIP_WITHOUT_ASSERTS();
  test::ScopedThrowingAsserts throwing;
  sim::Simulation sim(config_for(100, 12));
  EXPECT_THROW(sim.add_sprite(scene::Sprite{.x = 1, .y = 1, .vx = 0, .vy = 0, .radius = 0.0f, .kind = 0}),
               test::AssertionError);
  EXPECT_THROW(
      sim.add_sprite(scene::Sprite{.x = NAN, .y = 1, .vx = 0, .vy = 0, .radius = 2.0f, .kind = 0}),
      test::AssertionError);
}

TEST(Simulation, SpawnAndRemoveAssertOnBadArgumentsAndLeaveTheSceneAlone) {
  QUADPOOL_SKIP_WITHOUT_ASSERTS();
  test::ScopedThrowingAsserts throwing;
  sim::Simulation sim(config_for(100, 12));
  EXPECT_THROW(sim.spawn_at(NAN, 1.0f, 5, 1.0f), test::AssertionError);
  EXPECT_THROW(sim.spawn_at(1.0f, 1.0f, 5, -1.0f), test::AssertionError);
  EXPECT_THROW(sim.remove_sprite(100), test::AssertionError);
  EXPECT_EQ(sim.sprites().size(), 100u);
}

TEST(Simulation, ZeroSpritesIsRejectedWithAClearMessage) {
  sim::SimulationConfig config = config_for(0, 1);
  try {
    sim::Simulation sim(config);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("scene.sprites"), std::string::npos) << e.what();
  }
}

TEST(Simulation, AnEmptiedSceneStillTicksAndCanBeRefilled) {
  sim::Simulation sim(config_for(500, 14));
  EXPECT_EQ(sim.remove_sprites_near(0.0f, 0.0f, 1e6f), 500u);
  const sim::TickStats& empty = sim.step();
  EXPECT_EQ(empty.sprites, 0u);
  EXPECT_EQ(empty.pairs_tested, 0u);
  EXPECT_EQ(sim.spawn_at(sim.world_side() / 2, sim.world_side() / 2, 200, 50.0f), 200u);
  for (int t = 0; t < 100; ++t) sim.step();
  EXPECT_EQ(sim.last_tick().sprites, 200u);
  EXPECT_GT(sim.contacts_total(), 0u) << "200 sprites spawned in a disc of radius 50 must touch";
}

TEST(Simulation, ASingleSpriteInItsTinyWorldStaysInside) {
  sim::Simulation sim(config_for(1, 13));
  for (int t = 0; t < 1000; ++t) sim.step();
  EXPECT_TRUE(inside_world(sim.sprites()[0], sim.world_side()));
}

bool same_pool_stats(const memory::PoolStats& a, const memory::PoolStats& b) {
  return a.blocks_in_use == b.blocks_in_use && a.capacity == b.capacity && a.chunks == b.chunks &&
         a.high_water == b.high_water && a.total_allocations == b.total_allocations &&
         a.total_deallocations == b.total_deallocations && a.bytes_reserved == b.bytes_reserved &&
         a.block_size == b.block_size;
}

TEST(Simulation, EveryTicksPoolStatsAreThePoolsOwnWhicheverAllocatorRan) {
  // The tick reads the pool's stats only when the pool changed; they must still be exact.
  sim::Simulation sim(config_for(2000, 4, memory::AllocatorKind::NewDelete));
  EXPECT_TRUE(same_pool_stats(sim.last_tick().pool, sim.tree().pool_stats()));
  for (int t = 0; t < 60; ++t) {
    if (t % 7 == 3) {
      sim.set_allocator(sim.allocator() == memory::AllocatorKind::Pool ? memory::AllocatorKind::NewDelete
                                                               : memory::AllocatorKind::Pool);
    }
    sim.step();
    ASSERT_TRUE(same_pool_stats(sim.last_tick().pool, sim.tree().pool_stats())) << "tick " << t;
  }
  sim.set_tree_limits(6, 16);
  EXPECT_TRUE(same_pool_stats(sim.last_tick().pool, sim.tree().pool_stats()));
}

TEST(Simulation, NewTreeLimitsTakeEffectAtOnceOverTheSameSpritesAndBadOnesChangeNothing) {
  sim::Simulation sim(config_for(3000, 8));
  for (int t = 0; t < 5; ++t) sim.step();
  const std::uint64_t hash = sim.state_hash();
  sim.set_tree_limits(3, 64);
  EXPECT_EQ(sim.state_hash(), hash) << "the sprites must stay as they were";
  EXPECT_EQ(sim.tree().config().max_depth, 3);
  EXPECT_EQ(sim.tree().config().leaf_capacity, 64);
  EXPECT_EQ(sim.config().tree_leaf_capacity, 64);
  EXPECT_EQ(sim.tree().stats().items, 3000u) << "built at once from the last tick's boxes";
  const sim::TickStats& tick = sim.step();
  EXPECT_LE(tick.tree.max_depth_reached, 3u);
  spatial::PairChecker checker;
  EXPECT_FALSE(checker.check(sim.last_boxes(), sim.last_pairs()).has_value());

  EXPECT_THROW(sim.set_tree_limits(17, 8), std::invalid_argument);
  EXPECT_THROW(sim.set_tree_limits(8, 0), std::invalid_argument);
  EXPECT_EQ(sim.tree().config().max_depth, 3) << "a refused setting leaves the old tree";
  EXPECT_EQ(sim.config().tree_max_depth, 3);
}

// --- scenes -------------------------------------------------------------------------------------

sim::SimulationConfig scene_config(scene::SceneKind kind, std::size_t sprites, std::uint64_t seed) {
  sim::SimulationConfig config = config_for(sprites, seed);
  config.scene.kind = kind;
  return config;
}

// Each scene's hash from `quadpool --headless --scene K --sprites 5000 --ticks 300 --seed 42
// --json`, which every build must print, whatever its compiler, flags and C library (CI checks it
// on a second build, -march=x86-64-v3). Contacts are resolved in the tree's pair order and the
// sprites are put in the tree's order every kSpriteSortPeriod ticks, so a hash follows the tree's
// default settings and that period as well as the scene and the tick. A change here voids
// every published hash and every comparison with an earlier run.
struct PinnedHash {
  scene::SceneKind kind;
  const char* hash;
};
constexpr std::array kPinnedHashes{PinnedHash{scene::SceneKind::Uniform, "e77acf8a96755d50"},
                                   PinnedHash{scene::SceneKind::Clustered, "7ed54b42a3b0027d"},
                                   PinnedHash{scene::SceneKind::Mixed, "6c541778d09b2bd0"},
                                   PinnedHash{scene::SceneKind::Streams, "0c9bc1297a4bff28"}};
static_assert(kPinnedHashes.size() == scene::kSceneKinds.size(), "pin every scene's hash");

// ctest's test names show the parameter: the scene and its hash, not 16 bytes of hex.
void PrintTo(const PinnedHash& pinned, std::ostream* os) {
  *os << scene::scene_name(pinned.kind) << ' ' << pinned.hash;
}

class PinnedStateHash : public ::testing::TestWithParam<PinnedHash> {};

TEST_P(PinnedStateHash, TheSceneKeepsItsStateHashAfterThreeHundredTicks) {
  sim::Simulation sim(scene_config(GetParam().kind, 5000, 42));
  for (int t = 0; t < 300; ++t) sim.step();
  EXPECT_EQ(sim::format_hash(sim.state_hash()), GetParam().hash)
      << scene::scene_name(GetParam().kind);
}

INSTANTIATE_TEST_SUITE_P(Scenes, PinnedStateHash, ::testing::ValuesIn(kPinnedHashes),
                         [](const auto& info) { return std::string(scene::scene_name(info.param.kind)); });

class SceneTicks : public ::testing::TestWithParam<scene::SceneKind> {};

TEST_P(SceneTicks, TwoThousandSpritesStayInsideWithBoundedEnergyAndTheRightPairs) {
  const auto seed = test::announce_seed("SceneTicks", 20261122);
  expect_healthy_run(scene_config(GetParam(), 2000, seed), 1000, 100);
}

TEST_P(SceneTicks, StateHashIsTheSameForPoolNewDeleteAndSwitchingEverySevenTicks) {
  const auto pool = hashes_with(0, memory::AllocatorKind::Pool, GetParam(), 2000);
  EXPECT_EQ(pool, hashes_with(0, memory::AllocatorKind::NewDelete, GetParam(), 2000));
  EXPECT_EQ(pool, hashes_with(7, memory::AllocatorKind::Pool, GetParam(), 2000));
  EXPECT_EQ(pool, hashes_with(7, memory::AllocatorKind::NewDelete, GetParam(), 2000));
  EXPECT_NE(pool.front(), pool.back());
}

TEST_P(SceneTicks, PoolModeMakesNoHeapAllocationPerTickAfterWarmUp) {
  sim::Simulation sim(scene_config(GetParam(), 2000, 5));
  for (std::uint64_t t = 0; t < sim::kHeapWarmupTicks; ++t) sim.step();
  std::uint64_t allocating_ticks = 0;
  for (int t = 0; t < 1000; ++t) allocating_ticks += *sim.step().heap_allocations != 0 ? 1 : 0;
  // Only a new high of the pair count may grow the pair buffer, by half each time.
  EXPECT_LE(allocating_ticks, 2u) << scene::scene_name(GetParam());
}

INSTANTIATE_TEST_SUITE_P(Kinds, SceneTicks, ::testing::ValuesIn(scene::kSceneKinds),
                         [](const auto& info) { return std::string(scene::scene_name(info.param)); });

// The share of the sprites in the densest third of a 16 x 16 grid's cells.
double share_in_densest_third(std::span<const scene::Sprite> sprites, float side) {
  std::vector<int> count(256, 0);
  for (const scene::Sprite& s : sprites) {
    ++count[std::min(15, static_cast<int>(s.y / side * 16)) * 16 +
            std::min(15, static_cast<int>(s.x / side * 16))];
  }
  std::sort(count.rbegin(), count.rend());
  const int in_top = std::accumulate(count.begin(), count.begin() + 85, 0);
  return static_cast<double>(in_top) / static_cast<double>(sprites.size());
}

TEST(ClusteredScene, TheBlobsStillHoldTogetherAfterFiveHundredTicks) {
  const auto seed = test::announce_seed("ClusteredScene", 31);
  sim::Simulation clustered(scene_config(scene::SceneKind::Clustered, 10'000, seed));
  sim::Simulation uniform(scene_config(scene::SceneKind::Uniform, 10'000, seed));
  for (int t = 0; t < 500; ++t) {
    clustered.step();
    uniform.step();
  }
  // At the start the densest third of the world holds about 65% of the sprites against 39% in
  // the uniform scene; the blobs spread as their sprites warm up, but slowly (about 57% here).
  const double clumped = share_in_densest_third(clustered.sprites(), clustered.world_side());
  const double even = share_in_densest_third(uniform.sprites(), uniform.world_side());
  EXPECT_GT(clumped, even + 0.1);
}

TEST(StreamsScene, TheCrowdsSlideThroughEachOtherAndStayInTheirLanes) {
  const auto seed = test::announce_seed("StreamsScene", 32);
  sim::Simulation sim(scene_config(scene::SceneKind::Streams, 2000, seed));
  const std::vector<scene::Sprite> start(sim.sprites().begin(), sim.sprites().end());
  // Until the first front reaches the far wall, nothing in either crowd has touched anything.
  // The sprites move in memory (the tree's order); a spawned sprite's id is its index at spawn.
  for (int t = 0; t < 100; ++t) EXPECT_EQ(sim.step().contacts, 0u) << "tick " << t;
  ASSERT_EQ(sim.sprites().size(), start.size());
  for (std::size_t i = 0; i < start.size(); ++i) {
    const scene::Sprite& s = sim.sprites()[i];
    const scene::Sprite& was = start[sim.ids()[i]];
    ASSERT_EQ(s.vx, was.vx);
    ASSERT_NEAR(s.x, was.x + 100.0f * was.vx, 1e-3f) << "sprite " << sim.ids()[i];
  }
  // Later the lanes fill with a one-dimensional gas, but every sprite keeps to its lane.
  for (int t = 0; t < 2000; ++t) sim.step();
  EXPECT_GT(sim.contacts_total(), 0u);
  for (std::size_t i = 0; i < start.size(); ++i) {
    ASSERT_EQ(sim.sprites()[i].y, start[sim.ids()[i]].y) << "sprite " << sim.ids()[i];
    ASSERT_EQ(sim.sprites()[i].vy, 0.0f) << "sprite " << sim.ids()[i];
  }
}

// --- long runs of every scene (not in the default suite) --------------------------------------

// 100,000 ticks per scene at 2,000 and 10,000 sprites: each scene stays inside its world with its
// energy where it started. About 9 minutes for all eight in Release on two cores, so disabled;
// run them in a Release build (assertions are on in any build with the tests, unless
// QUADPOOL_ASSERTS=OFF). docs/simulation.md ("Scenes") quotes their output:
//   cmake -S . -B build/long -G Ninja -DCMAKE_BUILD_TYPE=Release -DQUADPOOL_BUILD_TESTS=ON
//         -DQUADPOOL_ASSERTS=OFF
//   cmake --build build/long --target sim_tests
//   build/long/tests/sim_tests --gtest_also_run_disabled_tests --gtest_filter='*LongSceneRun*'
using LongScene = std::tuple<scene::SceneKind, std::size_t>;

class LongSceneRun : public ::testing::TestWithParam<LongScene> {};

TEST_P(LongSceneRun, DISABLED_HundredThousandTicksStayInsideWithTheEnergyTheyStartedWith) {
  const auto [kind, sprites] = GetParam();
  constexpr std::uint64_t kTicks = 100'000;
  sim::Simulation sim(scene_config(kind, sprites, 1));
  spatial::PairChecker checker;
  const double energy_first = sim::kinetic_energy(sim.sprites());
  double energy_min = energy_first;
  double energy_max = energy_first;
  for (std::uint64_t t = 0; t < kTicks; ++t) {
    sim.step();
    if (t % 10'000 == 0) {
      const auto mismatch = checker.check(sim.last_boxes(), sim.last_pairs());
      ASSERT_FALSE(mismatch.has_value()) << "tick " << t;
    }
    for (const scene::Sprite& s : sim.sprites()) {
      ASSERT_TRUE(inside_world(s, sim.world_side())) << "tick " << t;
    }
    const double energy = sim::kinetic_energy(sim.sprites());
    energy_min = std::min(energy_min, energy);
    energy_max = std::max(energy_max, energy);
  }
  const double energy_last = sim::kinetic_energy(sim.sprites());
  std::printf(
      "[ energy   ] %s, %zu sprites, %llu ticks: first %.6f last %.6f min %.6f max %.6f "
      "(last/first - 1 = %.2e), %llu contacts\n",
      scene::scene_name(kind), sprites, static_cast<unsigned long long>(kTicks), energy_first, energy_last,
      energy_min, energy_max, energy_last / energy_first - 1.0,
      static_cast<unsigned long long>(sim.contacts_total()));
  // Rounding only: the drift stays orders of magnitude below this.
  EXPECT_LT(energy_max, energy_first * (1.0 + 1e-3));
  EXPECT_GT(energy_min, energy_first * (1.0 - 1e-3));
}

INSTANTIATE_TEST_SUITE_P(Kinds, LongSceneRun,
                         ::testing::Combine(::testing::ValuesIn(scene::kSceneKinds),
                                            ::testing::Values(2'000u, 10'000u)),
                         [](const auto& info) {
                           return std::string(scene::scene_name(std::get<0>(info.param))) +
                                  std::to_string(std::get<1>(info.param));
                         });

}  // namespace
}  // namespace quadpool::game
