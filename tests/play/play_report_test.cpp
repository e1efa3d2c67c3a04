// Tests of the play run's report (game/play_report.*): EntityLoad keeps a run's busiest ticks
// and splits creations and tick time by the allocator that ran each tick.
#include <optional>
#include <string>

#include <gtest/gtest.h>

#include "engine/memory/allocator_kind.hpp"
#include "game/play/play_world.hpp"
#include "game/play/play_report.hpp"

namespace quadpool::game {
namespace {

using memory::AllocatorKind;

play::PlayTick tick_of(AllocatorKind kind, std::size_t live, std::uint64_t created, double ms) {
  play::PlayTick tick;
  tick.field.allocator = kind;
  tick.live = live;
  tick.created = created;
  tick.ms_total = ms;
  return tick;
}

TEST(EntityLoad, KeepsTheBusiestTicksAndSplitsCreationsAndTimeByAllocator) {
  play::EntityLoad load;
  load.add(tick_of(AllocatorKind::Pool, 10, 5, 1.0));
  load.add(tick_of(AllocatorKind::NewDelete, 30, 2, 0.5));
  load.add(tick_of(AllocatorKind::Pool, 20, 8, 1.0));
  EXPECT_EQ(load.most_live(), 30u) << "the most live after any tick, not the last tick's";
  EXPECT_EQ(load.most_created(), 8u);
  EXPECT_EQ(load.share(AllocatorKind::Pool).ticks, 2u);
  EXPECT_EQ(load.share(AllocatorKind::Pool).created, 13u);
  EXPECT_DOUBLE_EQ(load.share(AllocatorKind::Pool).tick_ms, 2.0);
  EXPECT_EQ(load.share(AllocatorKind::NewDelete).ticks, 1u);
  // 13 entities in 2 ms of pool ticks, 2 in 0.5 ms of new-delete ticks.
  EXPECT_DOUBLE_EQ(load.created_per_second(AllocatorKind::Pool).value_or(0), 6500.0);
  EXPECT_DOUBLE_EQ(load.created_per_second(AllocatorKind::NewDelete).value_or(0), 4000.0);
}

TEST(EntityLoad, AnAllocatorThatRanNoTickHasNoRate) {
  play::EntityLoad load;
  EXPECT_EQ(load.created_per_second(AllocatorKind::Pool), std::nullopt);
  load.add(tick_of(AllocatorKind::Pool, 3, 3, 0.25));
  EXPECT_EQ(load.created_per_second(AllocatorKind::NewDelete), std::nullopt);
  EXPECT_DOUBLE_EQ(load.created_per_second(AllocatorKind::Pool).value_or(0), 12000.0);
}

std::string replay_json(const play::ReplayCheck& check) {
  play::GameReport game;
  game.replay = check;
  util::JsonWriter json;
  json.begin();
  play::write_game_json(json, game);
  json.end();
  const std::string& text = json.text();
  const std::size_t at = text.find("\"replay\":");
  return text.substr(at, text.find('}', at) + 1 - at);
}

// A window replay that --frames stops before its end is "not finished", never a mismatch: a
// caller tells the two apart by "finished", and "matches" is null until there is a verdict.
TEST(GameReport, AReplayStoppedBeforeItsEndHasNoVerdictAndAFinishedOneHasOne) {
  EXPECT_EQ(replay_json({"g.qpr", 0x10, false, false}),
            "\"replay\": {\"file\": \"g.qpr\", \"recorded_hash\": \"0000000000000010\", "
            "\"matches\": null, \"finished\": false}");
  EXPECT_EQ(replay_json({"g.qpr", 0x10, false, true}),
            "\"replay\": {\"file\": \"g.qpr\", \"recorded_hash\": \"0000000000000010\", "
            "\"matches\": false, \"finished\": true}");
  play::GameReport stopped;
  stopped.replay = play::ReplayCheck{"g.qpr", 0x10, false, false};
  EXPECT_NE(play::format_game_summary(stopped).find("stopped before its end"), std::string::npos);
}

}  // namespace
}  // namespace quadpool::game
