// Tests of the headless play run (game/play_run.*): `quadpool --headless --play --bot` and
// `--replay FILE` through the real executable, their JSON (parsed strictly), determinism across
// allocators, zero heap allocations in a warm pooled play tick, record and replay, bad replay
// files and replays that miss their hash.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "game/headless/headless_options.hpp"
#include "game/play/entity_stores.hpp"
#include "game/play/replay.hpp"
#include "game/headless/play_run.hpp"
#include "tests/helpers/flat_json.hpp"
#include "tests/helpers/run_quadpool.hpp"

namespace quadpool::game {
namespace {

using Json = std::map<std::string, std::string>;

// A small bot game: the bot scores in it and entities of every common type come and go.
const std::string kGame = "--play --bot --sprites 1500 --ticks 300 --seed 5";

Json run_json(const std::string& args, int expected_exit = 0) {
  const test::ProcessResult r =
      test::run_quadpool("--headless --json " + args, test::Capture::Stdout);
  EXPECT_EQ(r.exit_code, expected_exit) << args;
  auto json = test::FlatJson::parse(r.output);
  EXPECT_TRUE(json.has_value()) << "not one JSON object: " << r.output;
  return json.value_or(Json{});
}

std::uint64_t number(const Json& json, const std::string& key) {
  const auto it = json.find(key);
  EXPECT_NE(it, json.end()) << "missing " << key;
  return it == json.end() ? 0 : std::stoull(it->second);
}

// A file in the temporary folder, removed at the end of the test.
struct TempFile {
  std::filesystem::path path;
  explicit TempFile(const std::string& name)
      : path(std::filesystem::temp_directory_path() /
             ("quadpool_play_" + std::to_string(::getpid()) + "_" + name)) {}
  ~TempFile() {
    std::error_code ignored;
    std::filesystem::remove(path, ignored);
  }
  std::string quoted() const { return "'" + path.string() + "'"; }
};

// --pilot idle headless: the JSON's game log has one score and one length per finished game,
// and a wave list whose first entry is wave 1.
TEST(PlayRun, TheIdlePilotsGamesAreLoggedOneEntryPerFinishedGame) {
  const Json json = run_json("--play --pilot idle --sprites 600 --ticks 4000 --seed 2");
  const std::uint64_t finished = number(json, "game.games_finished");
  EXPECT_GE(finished, 2u) << "an idle ship should not last 2,000 ticks in this field";
  EXPECT_EQ(number(json, "game.scores"), finished) << "the array's length";
  EXPECT_EQ(number(json, "game.lengths_ticks"), finished);
  for (std::uint64_t i = 0; i < finished; ++i) {
    EXPECT_EQ(number(json, "game.scores." + std::to_string(i)), 0u);
    EXPECT_GT(number(json, "game.lengths_ticks." + std::to_string(i)), 0u);
  }
  EXPECT_GE(number(json, "game.waves"), 1u);
  EXPECT_EQ(number(json, "game.waves.0.wave"), 1u);
}

TEST(PlayRun, TheBotScoresAndEveryTypeCountsAddUp) {
  const Json json = run_json(kGame);
  EXPECT_GT(number(json, "game.score"), 0u) << "the bot never scored";
  EXPECT_GT(number(json, "game.kills"), 0u);
  EXPECT_EQ(number(json, "ticks"), 300u);
  EXPECT_GT(number(json, "game.ticks_played"), 0u);
  EXPECT_GE(number(json, "game.wave"), 1u);
  for (const char* type : {"shots", "debris", "sparks", "explosions"}) {
    const std::string at = std::string("game.entities.") + type + ".";
    EXPECT_EQ(number(json, at + "created") - number(json, at + "destroyed"),
              number(json, at + "live"))
        << type;
    EXPECT_EQ(number(json, at + "pool.in_use"), number(json, at + "live")) << type;
    EXPECT_EQ(number(json, at + "pool.capacity"), number(json, at + "budget")) << type;
    EXPECT_EQ(json.count(at + "pool.high_water") + json.count(at + "pool.chunks") +
                  json.count(at + "pool.bytes_reserved"),
              3u)
        << type;
  }
  EXPECT_GT(number(json, "game.entities.shots.created"), 0u);
  // Every field the field runner reports is still there.
  for (const char* key : {"tick_ms.median", "phase_ms.rebuild", "tick_ms_by_allocator.pool.ticks",
                          "pool.capacity", "tree.nodes", "kinetic_energy.last", "seconds"}) {
    EXPECT_EQ(json.count(key), 1u) << "missing " << key;
  }
  EXPECT_EQ(json.at("game.replay"), "null");
}

TEST(PlayRun, TheStateHashIsTheSameOnEveryAllocatorAndAWarmPooledTickNeverAllocates) {
  const Json pool = run_json(kGame + " --allocator pool");
  const Json new_delete = run_json(kGame + " --allocator new-delete");
  const Json switching = run_json(kGame + " --switch-allocator-every 7");
  EXPECT_EQ(pool.at("state_hash").size(), 16u);
  EXPECT_EQ(new_delete.at("state_hash"), pool.at("state_hash"));
  EXPECT_EQ(switching.at("state_hash"), pool.at("state_hash"));
  EXPECT_EQ(new_delete.at("game.score"), pool.at("game.score"));
  EXPECT_EQ(pool.at("heap_allocs_per_tick.max"), "0") << "a warm pooled play tick allocated";
  EXPECT_GE(number(new_delete, "heap_allocs_per_tick.max"), 1u);
  EXPECT_EQ(number(switching, "tick_ms_by_allocator.pool.ticks") +
                number(switching, "tick_ms_by_allocator.new-delete.ticks"),
            300u);
}

TEST(PlayRun, ReportsTheBusiestTicksAndEachAllocatorsRateAndHeapAllocations) {
  const Json switching = run_json(kGame + " --switch-allocator-every 7");
  std::uint64_t created = 0, live_at_end = 0, budgets = 0;
  for (const char* type : {"shots", "debris", "sparks", "explosions"}) {
    const std::string at = std::string("game.entities.") + type + ".";
    created += number(switching, at + "created");
    live_at_end += number(switching, at + "live");
    budgets += number(switching, at + "budget");
  }
  const std::uint64_t most_live = number(switching, "game.most_live");
  const std::uint64_t most_created = number(switching, "game.most_created_in_a_tick");
  EXPECT_GE(most_live, live_at_end);
  EXPECT_LE(most_live, budgets);
  EXPECT_GE(most_created, 1u);
  EXPECT_LE(most_created, created);
  EXPECT_GE(most_created * 300, created) << "no tick can create more than the busiest one";
  // Both allocators ran ticks, so both have a rate; a warm pooled tick still allocates nothing.
  for (const char* allocator : {"pool", "new-delete"}) {
    EXPECT_GT(std::stod(switching.at(std::string("game.created_per_second.") + allocator)), 0.0)
        << allocator;
  }
  EXPECT_EQ(switching.at("heap_allocs_per_tick_by_allocator.pool.max"), "0");
  EXPECT_GE(number(switching, "heap_allocs_per_tick_by_allocator.new-delete.max"), 1u);
  EXPECT_GT(std::stod(switching.at("heap_allocs_per_tick_by_allocator.new-delete.mean")), 0.0);

  const Json pool = run_json(kGame + " --allocator pool");
  EXPECT_EQ(pool.at("game.most_live"), switching.at("game.most_live")) << "the same game";
  EXPECT_EQ(pool.at("game.most_created_in_a_tick"), switching.at("game.most_created_in_a_tick"));
  EXPECT_EQ(pool.at("game.created_per_second.new-delete"), "null");
  EXPECT_EQ(pool.at("heap_allocs_per_tick_by_allocator.new-delete"), "null");
  EXPECT_EQ(pool.at("heap_allocs_per_tick_by_allocator.pool.mean"), "0.0000");
}

TEST(PlayRun, ARecordedGameReplaysToTheSameHashOnAnyAllocator) {
  const TempFile file("record.qpr");
  // The storm, small: its volleys and big bursts make the most entities a replay must match.
  const Json played =
      run_json("--play --bot --sprites 500 --ticks 80 --seed 5 --storm --record " + file.quoted());
  EXPECT_EQ(played.at("game.recorded_to"), file.path.string());
  EXPECT_EQ(played.at("game.storm"), "true");
  for (const char* allocator : {"pool", "new-delete"}) {
    const Json replayed =
        run_json(std::string("--allocator ") + allocator + " --replay " + file.quoted());
    EXPECT_EQ(replayed.at("state_hash"), played.at("state_hash")) << allocator;
    EXPECT_EQ(replayed.at("game.replay.matches"), "true") << allocator;
    EXPECT_EQ(replayed.at("game.replay.recorded_hash"), played.at("state_hash")) << allocator;
    // The file decided the game.
    for (const char* key : {"sprites", "ticks", "seed", "scene", "game.storm", "game.score"}) {
      EXPECT_EQ(replayed.at(key), played.at(key)) << key;
    }
  }
  const test::ProcessResult summary =
      test::run_quadpool("--headless --replay " + file.quoted(), test::Capture::Stdout);
  EXPECT_EQ(summary.exit_code, 0);
  EXPECT_NE(summary.output.find("ends on the recorded hash"), std::string::npos) << summary.output;
  EXPECT_NE(summary.output.find("  game  "), std::string::npos) << summary.output;
}

// tests/game/data/bot_game_gcc_baseline.qpr was recorded by the GCC 12 release build for the
// x86-64 baseline (`quadpool --headless --play --bot --sprites 2000 --ticks 600 --seed 5
// --scene mixed --record ...`). Every build plays it to the hash it ends on: clang (asan), GCC
// with -march=x86-64-v3 (the headless-x86-64-v3 stage), GCC with asserts on or off.
TEST(PlayRun, AGameRecordedByTheBaselineBuildReplaysToItsHashOnThisBuild) {
  const std::string file =
      std::string(QUADPOOL_SOURCE_DIR) + "/tests/game/data/bot_game_gcc_baseline.qpr";
  const Json json = run_json("--replay '" + file + "'");
  EXPECT_EQ(json.at("game.replay.matches"), "true");
  EXPECT_EQ(json.at("state_hash"), "60beb881c7e531dd");
  EXPECT_EQ(json.at("game.score"), "2452");
}

TEST(PlayRun, AReplayThatMissesItsHashSaysSoAndExitsOne) {
  const TempFile file("wrong_hash.qpr");
  run_json("--play --bot --sprites 600 --ticks 60 --seed 2 --record " + file.quoted());
  play::Replay replay = play::read_replay(file.path.string());
  replay.final_hash ^= 1;
  play::write_replay(file.path.string(), replay);
  const Json json = run_json("--replay " + file.quoted(), 1);
  EXPECT_EQ(json.at("game.replay.matches"), "false");
  const test::ProcessResult r =
      test::run_quadpool("--headless --json --replay " + file.quoted(), test::Capture::Stderr);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.output.find(file.path.string()), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("not on the"), std::string::npos) << r.output;
}

TEST(PlayRun, AMissingTruncatedOrJunkReplayExitsTwoWithOneLineNamingTheFile) {
  const TempFile good("good.qpr"), truncated("truncated.qpr"), junk("junk.qpr"), empty("empty.qpr");
  run_json("--play --bot --sprites 600 --ticks 60 --seed 2 --record " + good.quoted());
  std::filesystem::copy_file(good.path, truncated.path);
  std::filesystem::resize_file(truncated.path, std::filesystem::file_size(good.path) / 2);
  std::ofstream(junk.path) << "this is not a replay, just some text long enough to be one\n";
  std::ofstream(empty.path).flush();
  const TempFile missing("missing.qpr");
  for (const TempFile* file : {&missing, &truncated, &junk, &empty}) {
    for (const char* json : {"", "--json "}) {
      const test::ProcessResult r = test::run_quadpool(
          std::string("--headless ") + json + "--replay " + file->quoted(), test::Capture::Both);
      EXPECT_EQ(r.exit_code, 2) << file->path;
      ASSERT_FALSE(r.output.empty()) << file->path;
      EXPECT_EQ(r.output.find('\n'), r.output.size() - 1) << "not one line: " << r.output;
      EXPECT_NE(r.output.find(file->path.string()), std::string::npos) << r.output;
    }
  }
}

// Not a file to read a replay from: refused at once (exit 2, one line saying what it is), never
// a wait for a FIFO's writer; `timeout` turns a hang into a failure.
TEST(PlayRun, AFolderAFifoOrAPipeAsTheReplayExitsTwoSayingWhatItIs) {
  const TempFile good("piped.qpr"), folder("folder.qpr"), fifo("fifo.qpr");
  run_json("--play --bot --sprites 600 --ticks 60 --seed 2 --record " + good.quoted());
  std::filesystem::create_directory(folder.path);
  ASSERT_EQ(::mkfifo(fifo.path.c_str(), 0600), 0);
  const std::string quadpool = std::string("timeout 60 '") + QUADPOOL_EXE + "' --headless ";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {quadpool + "--replay " + folder.quoted(),
       "quadpool: " + folder.path.string() + ": it is a folder, not a file\n"},
      {quadpool + "--json --replay " + fifo.quoted(),
       "quadpool: " + fifo.path.string() + ": it is a FIFO, not a regular file\n"},
      {"cat " + good.quoted() + " | " + quadpool + "--replay /dev/stdin",
       "quadpool: /dev/stdin: it is a FIFO, not a regular file\n"},
  };
  for (const auto& [command, message] : cases) {
    const test::ProcessResult r = test::run_command(command, test::Capture::Both);
    EXPECT_EQ(r.exit_code, 2) << command;
    EXPECT_EQ(r.output, message) << command;
  }
}

// 140 bytes that asked for 45 million pairs a tick (10 s each): refused before the first tick.
TEST(PlayRun, AReplayWhoseSpritesCoverFarMoreThanTheWorldExitsTwoAtOnce) {
  const TempFile file("crowded.qpr");
  play::Replay replay;
  replay.start = {.sprites = 100'000, .min_radius = 100.0f, .max_radius = 100.0f};
  replay.commands.resize(60);
  play::write_replay(file.path.string(), replay);
  const test::ProcessResult r = test::run_command(
      std::string("timeout 60 '") + QUADPOOL_EXE + "' --headless --replay " + file.quoted(),
      test::Capture::Both);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.output, "quadpool: " + file.path.string() +
                          ": radii 100..100 at 100000 sprites cover 187 times the world's area (at "
                          "most 2: count x mean area <= 2 x side^2, side 4096 at 100000 sprites)\n");
}

TEST(PlayRun, ARecordThatCannotBeWrittenExitsOneNamingTheFileAndStillReports) {
  // The command line refuses such a path up front; a folder that disappears during the run
  // reaches the writer, as this one does when the run is called directly.
  headless::HeadlessOptions options;
  options.play = true;
  options.game.config.field.scene.sprites = 300;
  options.ticks = 20;
  options.game.record = "/no-such-quadpool-folder/game.qpr";
  const headless::HeadlessOutcome outcome = headless::run_play(options, nullptr, nullptr);
  EXPECT_EQ(outcome.exit_code, 1);
  EXPECT_NE(outcome.failure.find(options.game.record), std::string::npos) << outcome.failure;
  ASSERT_TRUE(outcome.report.has_value());
  ASSERT_TRUE(outcome.report->game.has_value());
  EXPECT_TRUE(outcome.report->game->recorded_to.empty());
}

}  // namespace
}  // namespace quadpool::game
