// Tests of game/play/: the window's play session without the window. The bot flies it to the
// headless runner's hash, a player's recorded game replays to its hash, the sound events fire
// when the rules say they should, and A/B legs replay one game on both allocators.
#include "game/play/play_session.hpp"

#include <cstdint>
#include <optional>

#include <gtest/gtest.h>

#include "engine/memory/allocator_kind.hpp"
#include "game/play/play_events.hpp"
#include "game/play/bot_pilot.hpp"
#include "game/play/input_command.hpp"
#include "game/play/play_world.hpp"
#include "tests/play/play_configs.hpp"

namespace quadpool::game::play {
namespace {

using memory::AllocatorKind;
using play::InputCommand;

SessionStart start_of(Pilot pilot, std::size_t sprites, std::uint64_t seed, bool record = false) {
  SessionStart start;
  start.config = play::test::play_config(sprites, seed);
  start.pilot = pilot;
  start.bot_seed = seed;
  start.record = record;
  return start;
}

// The player of these tests: rams ahead, turning and firing, so that shots, hits, lost lives
// and a game over all come; after the game is over, it asks for a restart.
InputCommand rammer(const PlaySession& session) {
  InputCommand command;
  command.buttons = InputCommand::kThrust | InputCommand::kFire;
  command.steer = 1;
  if (session.world().status().game_over) command.buttons = InputCommand::kRestart;
  return command;
}

TEST(PlaySession, TheBotFliesTheSameGameAsTheHeadlessRunnersLoop) {
  const SessionStart start = start_of(Pilot::Bot, 1500, 9);
  PlaySession session(start);
  play::PlayWorld world(start.config);
  play::BotPilot bot(start.bot_seed);
  for (int t = 0; t < 600; ++t) {
    ASSERT_TRUE(session.step(InputCommand{}));
    world.step(bot.decide(world));
  }
  EXPECT_EQ(session.world().state_hash(), world.state_hash());
  EXPECT_GT(session.world().status().score, 0u);
  EXPECT_FALSE(session.recording().has_value());
}

TEST(PlaySession, APlayersRecordedGameReplaysToItsHashAndThenStops) {
  PlaySession player(start_of(Pilot::Player, 1500, 4, true));
  for (int t = 0; t < 900; ++t) player.step(rammer(player));
  const std::optional<play::Replay> recording = player.recording();
  ASSERT_TRUE(recording.has_value());
  ASSERT_EQ(recording->commands.size(), 900u);
  EXPECT_EQ(recording->final_hash, player.world().state_hash());

  SessionStart replay = start_of(Pilot::Player, 10, 99);  // the replay decides the game
  replay.config.field.allocator = AllocatorKind::NewDelete;
  replay.replay = recording;
  replay.replay_file = "game.qpr";
  PlaySession session(replay);
  EXPECT_EQ(session.pilot(), Pilot::Replay);
  EXPECT_FALSE(session.report().replay->matches);  // not over yet
  int ticks = 0;
  while (session.step(InputCommand{})) ++ticks;
  EXPECT_EQ(ticks, 900);
  EXPECT_TRUE(session.replay_finished());
  EXPECT_EQ(session.world().state_hash(), recording->final_hash);
  const GameReport report = session.report();
  ASSERT_TRUE(report.replay.has_value());
  EXPECT_TRUE(report.replay->matches);
  EXPECT_EQ(report.replay->file, "game.qpr");
  EXPECT_FALSE(session.step(InputCommand{}));  // the world stays on the recorded state
  EXPECT_EQ(session.world().state_hash(), recording->final_hash);
}

TEST(PlaySession, EventsFollowTheRulesShotHitExplosionLifeLostGameOver) {
  SessionStart start = start_of(Pilot::Player, 1500, 3);
  start.config.lives = 2;
  PlaySession session(start);
  int shots = 0, hits = 0, explosions = 0, lives_lost = 0, game_overs = 0;
  for (int t = 0; t < 20000 && session.world().status().games < 2; ++t) {
    const PlayMoment before = PlayMoment::of(session.world());
    const std::uint64_t shots_before = session.world().entities().shots.counts().created;
    session.step(rammer(session));
    const PlayEvents& e = session.events();
    EXPECT_EQ(e.shot, session.world().entities().shots.counts().created > shots_before);
    EXPECT_EQ(e.life_lost, session.world().status().lives < before.lives &&
                               session.world().status().games == before.games);
    shots += e.shot;
    hits += e.hit;
    explosions += e.explosion;
    lives_lost += e.life_lost;
    game_overs += e.game_over;
  }
  EXPECT_EQ(session.world().status().games, 2u) << "the game never ended";
  EXPECT_GT(shots, 0);
  EXPECT_GT(hits, 0);
  EXPECT_GT(explosions, 0);
  EXPECT_EQ(lives_lost, 2);  // the restart's refill is no life lost
  EXPECT_EQ(game_overs, 1);
}

TEST(PlaySession, EveryABLegPlaysTheSameGameAndTheEndGivesThePlayerANewOne) {
  PlaySession session(start_of(Pilot::Player, 1500, 5, true));
  for (int t = 0; t < 50; ++t) session.step(rammer(session));
  std::optional<std::uint64_t> hash;
  for (const AllocatorKind kind : {AllocatorKind::Pool, AllocatorKind::NewDelete,
                                   AllocatorKind::Pool, AllocatorKind::NewDelete}) {
    session.start_ab_leg(kind);
    EXPECT_EQ(session.pilot(), Pilot::Bot);
    EXPECT_EQ(session.world().allocator(), kind);
    for (int t = 0; t < 300; ++t) session.step(InputCommand{});
    if (!hash) hash = session.world().state_hash();
    EXPECT_EQ(session.world().state_hash(), *hash) << memory::allocator_name(kind);
  }
  session.end_ab(AllocatorKind::Pool);
  EXPECT_EQ(session.pilot(), Pilot::Player);
  EXPECT_EQ(session.world().allocator(), AllocatorKind::Pool);
  EXPECT_EQ(session.world().ticks(), 0u);
  EXPECT_TRUE(session.recording()->commands.empty());  // the record is the game since the restart
}

// The measuring pilots: the idle ship and the key-masher play game after game (restarting
// after each), and the log holds one score and one length per finished game, in order, and
// each wave reached once with its threats and the ticks spent in it.
TEST(PlaySession, TheMeasuringPilotsPlayGameAfterGameAndTheLogCountsEach) {
  for (const Pilot pilot : {Pilot::Idle, Pilot::Random}) {
    // A small field, whose walls keep the threats close: an idle game lasts about 1,700 ticks
    // and a key-masher's about 5,000 (seed 2).
    PlaySession session(start_of(pilot, 600, 2));
    const int ticks = pilot == Pilot::Idle ? 4000 : 11000;
    for (int t = 0; t < ticks; ++t) session.step(InputCommand{});
    const GameReport report = session.report();
    const GameLog& log = report.log;
    ASSERT_GE(log.scores().size(), 2u) << pilot_name(pilot) << ": every game lasted too long";
    ASSERT_EQ(log.lengths_ticks().size(), log.scores().size());
    std::uint64_t played = 0;
    for (const std::uint64_t length : log.lengths_ticks()) {
      EXPECT_GT(length, 0u);
      played += length;
    }
    EXPECT_LE(played, report.status.ticks_played) << "finished games within the ticks played";
    // Every finished game was restarted by the pilot: one more game than finished, or the
    // last one over and waiting for its restart this tick.
    EXPECT_GE(report.status.games, log.scores().size());
    ASSERT_FALSE(log.waves().empty());
    EXPECT_EQ(log.waves()[0].wave, 1);
    EXPECT_EQ(log.waves()[0].reached, report.status.games) << "every game starts in wave 1";
    EXPECT_GT(log.waves()[0].rocks, 0u);
    EXPECT_GT(log.waves()[0].mean_speed, 0.0);
    std::uint64_t in_waves = 0;
    for (const GameLog::Wave& wave : log.waves()) in_waves += wave.ticks;
    EXPECT_EQ(in_waves, report.status.ticks_played) << "every tick of a game is in a wave";
    if (pilot == Pilot::Idle) {
      for (const std::uint64_t score : log.scores()) {
        EXPECT_EQ(score, 0u) << "idle never fires, and a wave it is hit in earns no bonus";
      }
    }
  }
}

TEST(PlaySession, TheCameraFollowsTheShip) {
  PlaySession session(start_of(Pilot::Player, 500, 2));
  InputCommand thrust;
  thrust.buttons = InputCommand::kThrust;
  for (int t = 0; t < 30; ++t) session.step(thrust);
  EXPECT_EQ(session.camera_target(), session.world().ship().position);
}

}  // namespace
}  // namespace quadpool::game::play
