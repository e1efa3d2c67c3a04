// The storm setting: the load the pools are there for. Checks that it reaches tens of thousands
// of live pooled entities and thousands of creations in its busiest ticks, with the same state
// hash on both allocators and no heap allocation in a warm pooled tick.
#include <algorithm>
#include <cstdint>
#include <cstdio>

#include <gtest/gtest.h>

#include "game/play/bot_pilot.hpp"
#include "game/play/play_world.hpp"
#include "tests/play/play_configs.hpp"

namespace quadpool::game::play {
namespace {

using memory::AllocatorKind;

struct StormRun {
  std::uint64_t hash = 0;
  std::size_t most_live = 0;
  std::uint64_t most_created = 0;
  std::uint64_t warm_heap_allocations = 0;  // after the first kWarmUp ticks
};

constexpr int kWarmUp = 20;

// Switches the allocator every `switch_every` ticks (0: never).
StormRun run_storm(std::size_t sprites, int ticks, AllocatorKind kind, int switch_every = 0) {
  PlayConfig config = test::play_config(sprites, 7, kind);
  config.storm = true;
  PlayWorld world(config);
  BotPilot bot(7);
  StormRun run;
  for (int t = 0; t < ticks; ++t) {
    if (switch_every > 0 && t > 0 && t % switch_every == 0) {
      world.set_allocator(world.allocator() == AllocatorKind::Pool ? AllocatorKind::NewDelete
                                                                   : AllocatorKind::Pool);
    }
    const PlayTick& tick = world.step(bot.decide(world));
    run.most_live = std::max(run.most_live, tick.live);
    run.most_created = std::max(run.most_created, tick.created);
    if (t >= kWarmUp) run.warm_heap_allocations += *tick.heap_allocations;
  }
  run.hash = world.state_hash();
  for (const EntityReport& r : world.entity_reports()) {
    std::printf("  %-10s created %llu live %zu budget %zu dropped %llu\n", entity_type_name(r.type),
                static_cast<unsigned long long>(r.counts.created), r.counts.live, r.counts.budget,
                static_cast<unsigned long long>(r.counts.dropped));
  }
  return run;
}

TEST(Storm, HoldsFiftyThousandLiveEntitiesAndCreatesFiveThousandInItsBusiestTicks) {
  const StormRun pool = run_storm(2500, 120, AllocatorKind::Pool);
  std::printf("storm, 2500 rocks, 120 ticks: most live %zu, most created in a tick %llu\n",
              pool.most_live, static_cast<unsigned long long>(pool.most_created));
  EXPECT_GE(pool.most_live, 50'000u);
  EXPECT_GE(pool.most_created, 5'000u);
  EXPECT_EQ(pool.warm_heap_allocations, 0u);
  const StormRun new_delete = run_storm(2500, 120, AllocatorKind::NewDelete);
  EXPECT_EQ(new_delete.hash, pool.hash);
  EXPECT_GT(new_delete.warm_heap_allocations, 50'000u);
}

TEST(Storm, SwitchingTheAllocatorEverySevenTicksUnderLoadPlaysTheSameGame) {
  const StormRun pool = run_storm(1500, 80, AllocatorKind::Pool);
  const StormRun switched = run_storm(1500, 80, AllocatorKind::Pool, 7);
  EXPECT_EQ(switched.hash, pool.hash);
  EXPECT_GE(switched.most_live, 20'000u);
}

}  // namespace
}  // namespace quadpool::game::play
