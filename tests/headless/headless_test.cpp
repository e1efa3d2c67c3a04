// Tests of game/headless.*: the runner's statistics, its JSON (parsed by the strict reader in
// tests/helpers/flat_json.hpp, so the output is proven to be exactly one valid JSON object), and
// determinism through the real executable.
#include "game/headless/headless.hpp"

#include <cctype>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/heap_counter.hpp"
#include "engine/spatial/pair_check.hpp"
#include "game/headless/run_loop.hpp"
#include "game/util/json_writer.hpp"
#include "common/scene/scene.hpp"
#include "tests/helpers/flat_json.hpp"
#include "tests/helpers/run_quadpool.hpp"

namespace quadpool::game {
namespace {

std::map<std::string, std::string> run_json(const std::string& args) {
  const test::ProcessResult r =
      test::run_quadpool("--headless --json " + args, test::Capture::Stdout);
  EXPECT_EQ(r.exit_code, 0) << args;
  auto json = test::FlatJson::parse(r.output);
  EXPECT_TRUE(json.has_value()) << "not one JSON object: " << r.output;
  return json.value_or(std::map<std::string, std::string>{});
}

TEST(Percentiles, MedianP99AndMaxFollowTheirDefinitions) {
  std::vector<double> samples;
  for (int i = 200; i >= 1; --i) samples.push_back(i);  // 1..200, given in reverse
  const sim::Percentiles p = sim::percentiles(samples);
  EXPECT_DOUBLE_EQ(p.median, 100.5);  // mean of the middle two
  EXPECT_DOUBLE_EQ(p.p99, 198.0);     // nearest rank: ceil(0.99 * 200) = 198th
  EXPECT_DOUBLE_EQ(p.max, 200.0);
  const sim::Percentiles one = sim::percentiles(std::vector<double>{7.0});
  EXPECT_DOUBLE_EQ(one.median, 7.0);
  EXPECT_DOUBLE_EQ(one.p99, 7.0);
  const sim::Percentiles none = sim::percentiles({});
  EXPECT_DOUBLE_EQ(none.max, 0.0);
}

// A file name or a driver's name can hold any byte; the writer must still make valid JSON.
std::string written(const std::string& value) {
  util::JsonWriter json;
  json.begin();
  json.string("k", value);
  json.end();
  return json.text();
}

TEST(JsonWriter, EscapesQuotesBackslashesAndControlCharacters) {
  EXPECT_EQ(written("a\"b\\c"), R"({"k": "a\"b\\c"})");
  EXPECT_EQ(written("line\nbreak\ttab\x01\x1f"),
            R"({"k": "line\u000abreak\u0009tab\u0001\u001f"})");
  EXPECT_EQ(written(std::string("nul\0!", 5)), R"({"k": "nul\u0000!"})");
  EXPECT_EQ(written("del\x7f"), "{\"k\": \"del\x7f\"}") << "DEL needs no escape in JSON";
}

TEST(JsonWriter, KeepsUtf8AndReplacesBytesThatAreNotUtf8) {
  EXPECT_EQ(written("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"),
            "{\"k\": \"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"}");
  EXPECT_EQ(written("a\xff"
                    "b"),
            R"({"k": "a\ufffdb"})");
  EXPECT_EQ(written("cut\xc3"), R"({"k": "cut\ufffd"})") << "a character cut short";
  EXPECT_EQ(written("\xc0\xaf"), R"({"k": "\ufffd\ufffd"})") << "an overlong '/'";
  EXPECT_EQ(written("\xed\xa0\x80"), R"({"k": "\ufffd\ufffd\ufffd"})") << "a surrogate";
  EXPECT_EQ(written("\x80x"), R"({"k": "\ufffdx"})") << "a continuation byte alone";
}

TEST(HeadlessRunner, ReportMatchesTheSimulationItRan) {
  headless::HeadlessOptions options;
  options.game.config.field.scene.sprites = 800;
  options.ticks = 300;
  options.game.config.field.scene.seed = 21;
  options.verify = true;
  const headless::HeadlessOutcome outcome =
      headless::run_ticks(options, &quadpool::heap_allocations, nullptr);
  ASSERT_TRUE(outcome.report.has_value()) << outcome.failure;
  const headless::HeadlessReport& r = *outcome.report;

  sim::SimulationConfig config;
  config.scene.sprites = 800;
  config.scene.seed = 21;
  sim::Simulation sim(config);
  for (int t = 0; t < 300; ++t) sim.step();
  EXPECT_EQ(r.state_hash, sim.state_hash());
  EXPECT_EQ(r.contacts_total, sim.contacts_total());
  EXPECT_EQ(r.pairs_last_tick, sim.last_tick().pairs_tested);
  EXPECT_EQ(r.tree.nodes, sim.last_tick().tree.nodes);
  EXPECT_EQ(r.pool_ticks.samples, 300u);
  EXPECT_EQ(r.new_delete_ticks.samples, 0u);
  EXPECT_LE(r.tick_ms.median, r.tick_ms.p99);
  EXPECT_LE(r.tick_ms.p99, r.tick_ms.max);
  ASSERT_TRUE(r.heap_allocs_per_tick.has_value());
  EXPECT_EQ(r.heap_allocs_per_tick->max, 0.0) << "pool mode allocated after warm-up";
}

TEST(HeadlessRunner, VerifyNamesTheTickAndThePairOfAMismatch) {
  const std::vector<spatial::Aabb> boxes = {{0, 0, 2, 2}, {1, 1, 3, 3}, {9, 9, 10, 10}};
  spatial::PairChecker checker;
  EXPECT_FALSE(
      headless::verify_tick(checker, 5, boxes, std::vector<spatial::Pair>{{0, 1}}).has_value());
  const auto missing = headless::verify_tick(checker, 41, boxes, std::vector<spatial::Pair>{});
  ASSERT_TRUE(missing.has_value());
  EXPECT_NE(missing->find("tick 41"), std::string::npos) << *missing;
  EXPECT_NE(missing->find("pair (0, 1) missing"), std::string::npos) << *missing;
  const auto spurious =
      headless::verify_tick(checker, 7, boxes, std::vector<spatial::Pair>{{0, 1}, {1, 2}});
  ASSERT_TRUE(spurious.has_value());
  EXPECT_NE(spurious->find("tick 7: pair (1, 2)"), std::string::npos) << *spurious;
  EXPECT_EQ(spurious->find('\n'), std::string::npos);
}

TEST(HeadlessRunner, SwitchingSplitsTheTicksBetweenTheAllocators) {
  headless::HeadlessOptions options;
  options.game.config.field.scene.sprites = 300;
  options.ticks = 100;
  options.switch_allocator_every = 7;
  const headless::HeadlessOutcome outcome = headless::run_ticks(options, nullptr, nullptr);
  ASSERT_TRUE(outcome.report.has_value());
  // Ticks 0-6 pool, 7-13 new-delete, ...: 98 ticks in 14 runs of 7, then 2 pool ticks.
  EXPECT_EQ(outcome.report->pool_ticks.samples, 7u * 7u + 2u);
  EXPECT_EQ(outcome.report->new_delete_ticks.samples, 7u * 7u);
  EXPECT_FALSE(outcome.report->heap_allocs_per_tick.has_value()) << "no counter was given";
}

TEST(Executable, JsonIsOneObjectWithEveryContractField) {
  const auto json = run_json("--sprites 600 --ticks 40 --seed 5");
  for (const char* key : {"sprites",
                          "ticks",
                          "seed",
                          "allocator",
                          "threads",
                          "state_hash",
                          "pairs_last_tick",
                          "contacts_total",
                          "tick_ms.median",
                          "tick_ms.p99",
                          "tick_ms.max",
                          "phase_ms.integrate",
                          "phase_ms.rebuild",
                          "phase_ms.pairs",
                          "phase_ms.resolve",
                          "heap_allocs_per_tick.median",
                          "heap_allocs_per_tick.max",
                          "pool.capacity",
                          "pool.high_water",
                          "pool.in_use",
                          "tree.max_depth",
                          "tree.leaf_capacity",
                          "scene",
                          "pool.chunks",
                          "tree.nodes",
                          "tree.leaves",
                          "tree.max_depth_reached",
                          "tick_ms_by_allocator.pool.ticks",
                          "tick_ms_by_allocator.pool.median",
                          "tick_ms_by_allocator.pool.p99",
                          "tick_ms_by_allocator.pool.max",
                          "tick_ms_by_allocator.new-delete.ticks",
                          "tick_ms_by_allocator.new-delete.median",
                          "tick_ms_by_allocator.new-delete.p99",
                          "tick_ms_by_allocator.new-delete.max",
                          "heap_allocs_per_tick_by_allocator.pool.mean",
                          "heap_allocs_per_tick_by_allocator.pool.max",
                          "heap_allocs_per_tick_by_allocator.new-delete"}) {
    EXPECT_EQ(json.count(key), 1u) << "missing " << key;
  }
  EXPECT_EQ(json.at("heap_allocs_per_tick_by_allocator.pool.max"), "0");
  EXPECT_EQ(json.at("heap_allocs_per_tick_by_allocator.new-delete"), "null") << "it ran no tick";
  EXPECT_EQ(json.at("sprites"), "600");
  EXPECT_EQ(json.at("ticks"), "40");
  EXPECT_EQ(json.at("seed"), "5");
  EXPECT_EQ(json.at("allocator"), "pool");
  EXPECT_EQ(json.at("state_hash").size(), 16u);
  EXPECT_EQ(json.at("state_hash").find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_EQ(json.at("heap_allocs_per_tick.max"), "0");
}

TEST(Executable, TheStateHashIsTheSameOnOneTwoAndSevenThreadsAndBothAllocators) {
  // Enough sprites that every parallel phase is cut into several ranges.
  const std::string run = "--sprites 40000 --ticks 20 --seed 3 --scene clustered";
  const auto one = run_json(run + " --threads 1");
  EXPECT_EQ(one.at("threads"), "1");
  for (const char* more : {" --threads 2", " --threads 7", " --threads 7 --allocator new-delete"}) {
    const auto many = run_json(run + more);
    EXPECT_EQ(many.at("state_hash"), one.at("state_hash")) << more;
    EXPECT_EQ(many.at("pairs_last_tick"), one.at("pairs_last_tick")) << more;
  }
}

TEST(Executable, StateHashIsTheSameForPoolNewDeleteAndSwitchingEverySeven) {
  const std::string run = "--sprites 1000 --ticks 200 --seed 77";
  const std::string pool = run_json(run + " --allocator pool")["state_hash"];
  EXPECT_EQ(pool.size(), 16u);
  EXPECT_EQ(run_json(run + " --allocator new-delete")["state_hash"], pool);
  EXPECT_EQ(run_json(run + " --switch-allocator-every 7")["state_hash"], pool);

  // And the runner's hash is the Simulation API's.
  sim::SimulationConfig config;
  config.scene.sprites = 1000;
  config.scene.seed = 77;
  sim::Simulation sim(config);
  for (int t = 0; t < 200; ++t) sim.step();
  EXPECT_EQ(sim::format_hash(sim.state_hash()), pool);
}

class ExecutableScene : public ::testing::TestWithParam<scene::SceneKind> {};

TEST_P(ExecutableScene, NamesTheSceneAndHashesAgreeForPoolNewDeleteAndSwitchingWithVerifyOn) {
  const std::string name = scene::scene_name(GetParam());
  const std::string run = "--scene " + name + " --sprites 2000 --ticks 120 --seed 9 --verify";
  auto pool = run_json(run + " --allocator pool");
  EXPECT_EQ(pool["scene"], name);
  EXPECT_EQ(pool["heap_allocs_per_tick.max"], "0") << "a warm pool tick allocated";
  EXPECT_EQ(run_json(run + " --allocator new-delete")["state_hash"], pool["state_hash"]);
  EXPECT_EQ(run_json(run + " --switch-allocator-every 7")["state_hash"], pool["state_hash"]);

  // The runner ran that scene, not another: its hash is the Simulation API's for the kind.
  sim::SimulationConfig config;
  config.scene = {.seed = 9, .sprites = 2000, .kind = GetParam()};
  sim::Simulation sim(config);
  for (int t = 0; t < 120; ++t) sim.step();
  EXPECT_EQ(sim::format_hash(sim.state_hash()), pool["state_hash"]);

  const test::ProcessResult summary = test::run_quadpool(
      "--headless --scene " + name + " --sprites 300 --ticks 5", test::Capture::Stdout);
  EXPECT_EQ(summary.exit_code, 0);
  EXPECT_NE(summary.output.find(name + " scene"), std::string::npos) << summary.output;
}

INSTANTIATE_TEST_SUITE_P(Kinds, ExecutableScene, ::testing::ValuesIn(scene::kSceneKinds),
                         [](const auto& info) { return std::string(scene::scene_name(info.param)); });

TEST(Executable, VerifyPassesOnTheRealTreeAndThePlainSummaryIsReadable) {
  const test::ProcessResult r = test::run_quadpool(
      "--headless --sprites 1500 --ticks 100 --verify "
      "--switch-allocator-every 3",
      test::Capture::Stdout);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  for (const char* text : {"state hash", "tick (ms)", "median", "p99", "pairs last tick",
                           "heap allocs/tick", "every tick's pairs match"}) {
    EXPECT_NE(r.output.find(text), std::string::npos) << "summary lacks '" << text << "'\n"
                                                      << r.output;
  }
}

}  // namespace
}  // namespace quadpool::game
