// Tests of game/cli.*: defaults, every flag, and bad input, both in-process and through the
// real executable (exit code 2 and one line on stderr that names the flag and the range).
#include "game/cli.hpp"

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "engine/memory/allocator_kind.hpp"
#include "game/sim/simulation.hpp"
#include "common/scene/scene.hpp"
#include "tests/helpers/forked_child.hpp"
#include "tests/helpers/run_quadpool.hpp"

namespace quadpool::game {
namespace {

ParseResult parse(std::vector<const char*> args) {
  args.insert(args.begin(), "quadpool");
  return parse_command_line(args);
}

TEST(CommandLine, NoFlagsRunsTheDemoWithItsDefaults) {
  const ParseResult r = parse({});
  ASSERT_TRUE(r.command.has_value()) << r.message;
  EXPECT_EQ(r.command->mode, CommandLine::Mode::Demo);
  const window::WindowOptions defaults;
  EXPECT_EQ(r.command->demo.game.config.field.scene.sprites, defaults.game.config.field.scene.sprites);
  EXPECT_EQ(r.command->demo.window_width, defaults.window_width);
  EXPECT_TRUE(r.command->demo.vsync);
  EXPECT_FALSE(r.command->demo.frames.has_value());
}

TEST(CommandLine, HeadlessFlagsAreAllParsed) {
  const ParseResult r =
      parse({"--headless", "--sprites", "1234", "--ticks=77", "--seed", "18446744073709551615",
             "--allocator", "new-delete", "--switch-allocator-every", "7", "--threads", "7",
             "--verify", "--json"});
  ASSERT_TRUE(r.command.has_value()) << r.message;
  const headless::HeadlessOptions& h = r.command->headless;
  EXPECT_EQ(r.command->mode, CommandLine::Mode::Headless);
  EXPECT_EQ(h.game.config.field.scene.sprites, 1234u);
  EXPECT_EQ(h.ticks, 77u);
  EXPECT_EQ(h.game.config.field.scene.seed, 18446744073709551615ull);
  EXPECT_EQ(h.game.config.field.allocator, memory::AllocatorKind::NewDelete);
  EXPECT_EQ(h.switch_allocator_every, 7u);
  EXPECT_EQ(h.game.threads, 7u);
  EXPECT_TRUE(h.verify);
  EXPECT_TRUE(h.json);
}

TEST(CommandLine, PlayAndReplayFlagsAreParsed) {
  const ParseResult play = parse({"--headless", "--play", "--bot", "--storm", "--record",
                                  "game.qpr", "--ticks", "50", "--seed", "3", "--lives", "7"});
  ASSERT_TRUE(play.command.has_value()) << play.message;
  EXPECT_TRUE(play.command->headless.play);
  EXPECT_TRUE(play.command->headless.game.config.storm);
  EXPECT_EQ(play.command->headless.game.config.lives, 7);
  EXPECT_EQ(play.command->headless.game.record, "game.qpr");
  EXPECT_TRUE(play.command->headless.game.replay.empty());

  // The file is read when the run starts, not while the command line is parsed.
  const ParseResult replay = parse({"--headless", "--replay", "game.qpr", "--allocator",
                                    "new-delete", "--switch-allocator-every", "7", "--json"});
  ASSERT_TRUE(replay.command.has_value()) << replay.message;
  EXPECT_FALSE(replay.command->headless.play);
  EXPECT_EQ(replay.command->headless.game.replay, "game.qpr");
  EXPECT_EQ(replay.command->headless.game.config.field.allocator, memory::AllocatorKind::NewDelete);
}

// The window opens on the game: the play flags need no --play there, and --lab opens the lab.
TEST(CommandLine, ThePlayFlagsWorkInTheWindowToo) {
  const ParseResult bot = parse({"--bot", "--storm", "--record", "game.qpr", "--ab"});
  ASSERT_TRUE(bot.command.has_value()) << bot.message;
  EXPECT_EQ(bot.command->mode, CommandLine::Mode::Demo);
  EXPECT_EQ(bot.command->demo.game.pilot, play::Pilot::Bot);
  EXPECT_TRUE(bot.command->demo.game.config.storm);
  EXPECT_TRUE(bot.command->demo.ab);
  EXPECT_FALSE(bot.command->demo.lab);
  EXPECT_EQ(bot.command->demo.game.record, "game.qpr");
  const ParseResult masher = parse({"--pilot", "random"});
  ASSERT_TRUE(masher.command.has_value()) << masher.message;
  EXPECT_EQ(masher.command->demo.game.pilot, play::Pilot::Random);
  const ParseResult idle = parse({"--headless", "--play", "--pilot", "idle"});
  ASSERT_TRUE(idle.command.has_value()) << idle.message;
  EXPECT_EQ(idle.command->headless.game.pilot, play::Pilot::Idle);
  const ParseResult play = parse({"--play", "--frames", "3"});
  ASSERT_TRUE(play.command.has_value()) << play.message;
  EXPECT_EQ(play.command->demo.game.pilot, play::Pilot::Player);
  const ParseResult replay = parse({"--replay", "game.qpr", "--allocator", "new-delete"});
  ASSERT_TRUE(replay.command.has_value()) << replay.message;
  EXPECT_EQ(replay.command->demo.game.replay, "game.qpr");
  EXPECT_EQ(replay.command->demo.game.config.field.allocator, memory::AllocatorKind::NewDelete);
  const ParseResult lab = parse({"--lab", "--sprites", "300"});
  ASSERT_TRUE(lab.command.has_value()) << lab.message;
  EXPECT_TRUE(lab.command->demo.lab);
}

// --ramp starts the ramp at launch, in the lab; --ramp-to sets its top for --ramp and G alike.
TEST(CommandLine, RampOpensTheLabAndRampToSetsItsTop) {
  const ParseResult plain = parse({"--lab"});
  ASSERT_TRUE(plain.command.has_value()) << plain.message;
  EXPECT_FALSE(plain.command->demo.ramp);
  EXPECT_EQ(plain.command->demo.ramp_to, 1'000'000u);
  const ParseResult ramp = parse({"--ramp", "--ramp-to", "0500"});
  ASSERT_TRUE(ramp.command.has_value()) << ramp.message;
  EXPECT_TRUE(ramp.command->demo.ramp);
  EXPECT_TRUE(ramp.command->demo.lab);
  EXPECT_EQ(ramp.command->demo.ramp_to, 500u);  // decimal, not octal
  const ParseResult key = parse({"--lab", "--ramp-to", "100"});
  ASSERT_TRUE(key.command.has_value()) << key.message;
  EXPECT_FALSE(key.command->demo.ramp);
  EXPECT_EQ(key.command->demo.ramp_to, 100u);
}

TEST(CommandLine, DemoFlagsFillDemoOptions) {
  const ParseResult r =
      parse({"--sprites", "5000", "--seed", "9", "--allocator", "new-delete", "--window",
             "1920x1080", "--frames", "120", "--screenshot", "shot.PNG", "--vsync", "off"});
  ASSERT_TRUE(r.command.has_value()) << r.message;
  const window::WindowOptions& d = r.command->demo;
  EXPECT_EQ(d.game.config.field.scene.sprites, 5000u);
  EXPECT_EQ(d.game.config.field.scene.seed, 9u);
  EXPECT_EQ(d.game.config.field.allocator, memory::AllocatorKind::NewDelete);
  EXPECT_EQ(d.window_width, 1920);
  EXPECT_EQ(d.window_height, 1080);
  EXPECT_EQ(d.frames, 120u);
  EXPECT_EQ(d.screenshot, "shot.PNG");
  EXPECT_FALSE(d.vsync);
  EXPECT_TRUE(d.shake);
  EXPECT_FALSE(parse({"--shake", "off"}).command->demo.shake);
}

TEST(CommandLine, SceneAndAbReachBothModes) {
  for (const scene::SceneKind kind : scene::kSceneKinds) {
    const ParseResult headless = parse({"--headless", "--scene", scene::scene_name(kind)});
    ASSERT_TRUE(headless.command.has_value()) << headless.message;
    EXPECT_EQ(headless.command->headless.game.config.field.scene.kind, kind);
    const ParseResult demo = parse({"--scene", scene::scene_name(kind), "--ab"});
    ASSERT_TRUE(demo.command.has_value()) << demo.message;
    EXPECT_EQ(demo.command->demo.game.config.field.scene.kind, kind);
    EXPECT_TRUE(demo.command->demo.ab);
  }
  const ParseResult defaults = parse({"--headless"});
  ASSERT_TRUE(defaults.command.has_value());
  EXPECT_EQ(defaults.command->headless.game.config.field.scene.kind, scene::SceneKind::Uniform);
  EXPECT_FALSE(parse({}).command->demo.ab);
}

TEST(CommandLine, HelpNamesEveryDefaultAndCap) {
  const ParseResult r = parse({"--help"});
  EXPECT_FALSE(r.command.has_value());
  EXPECT_EQ(r.exit_code, 0);
  for (const char* text :
       {"--headless", "--sprites", "default 10000", "1..1000000", "--ticks", "default 1000",
        "--switch-allocator-every", "--verify", "--json", "--window", "--frames", "--screenshot",
        "--vsync", "default pool", "--scene", "uniform|clustered|mixed|streams", "default uniform",
        "--ab", "--threads", "1..256"}) {
    EXPECT_NE(r.message.find(text), std::string::npos) << "help lacks '" << text << "'";
  }
  for (const char* text : {"--ramp", "--ramp-to N", "100..1000000", "(default 1000000)"}) {
    EXPECT_NE(r.message.find(text), std::string::npos) << "help lacks '" << text << "'";
  }
}

struct BadInput {
  std::vector<const char*> args;
  const char* flag;   // the error must name it
  const char* range;  // and this part of the valid range (nullptr: no range to name)
};

std::string joined(const std::vector<const char*>& args) {
  std::string s;
  for (const char* a : args) s += std::string(s.empty() ? "" : " ") + "'" + a + "'";
  return s;
}

// A screenshot name longer than any Linux file system's 255-byte limit, in the working folder.
const std::string& too_long_screenshot_name() {
  static const std::string name = std::string(296, 'n') + ".png";
  return name;
}

const std::vector<BadInput>& bad_inputs() {
  static const std::vector<BadInput> cases = {
      {{"--headless", "--sprites", "10000000000"}, "--sprites", "[1, 1000000]"},
      {{"--headless", "--sprites", "-5"}, "--sprites", "[1, 1000000]"},
      {{"--headless", "--sprites", "0"}, "--sprites", "[1, 1000000]"},
      {{"--headless", "--sprites", "abc"}, "--sprites", "[1, 1000000]"},
      {{"--headless", "--sprites", "nan"}, "--sprites", "[1, 1000000]"},
      {{"--headless", "--sprites", "1e4"}, "--sprites", "[1, 1000000]"},
      {{"--headless", "--sprites", "12.5"}, "--sprites", "[1, 1000000]"},
      {{"--headless", "--sprites", ""}, "--sprites", "[1, 1000000]"},
      {{"--headless", "--sprites"}, "--sprites", "[1, 1000000]"},
      {{"--headless", "--sprites", "5", "--sprites", "6"}, "--sprites", "more than once"},
      {{"--headless", "--ticks", "0"}, "--ticks", "[1, 1000000]"},
      {{"--headless", "--ticks", "99999999999999999999999"}, "--ticks", "[1, 1000000]"},
      {{"--headless", "--seed", "-1"}, "--seed", "[0, 18446744073709551615]"},
      {{"--headless", "--seed", "18446744073709551616"}, "--seed", "[0, 18446744073709551615]"},
      {{"--headless", "--allocator", "malloc"}, "--allocator", "'pool' or 'new-delete'"},
      // CLI11's own CheckedTransformer would take these as the enum's numeric value.
      {{"--headless", "--allocator", "0"}, "--allocator", "'pool' or 'new-delete'"},
      {{"--headless", "--scene", "1"}, "--scene", "'uniform', 'clustered', 'mixed', 'streams'"},
      {{"--vsync", "1"}, "--vsync", "'on' or 'off'"},
      {{"--headless", "--switch-allocator-every", "0"}, "--switch-allocator-every", "[1, 1000000]"},
      {{"--headless", "--threads", "0"}, "--threads", "[1, 256]"},
      {{"--headless", "--threads", "257"}, "--threads", "[1, 256]"},
      {{"--headless", "--verify=yes"}, "--verify", "takes no value"},
      {{"--headless", "--bogus"}, "--bogus", "--help"},
      {{"--headless", "stray"}, "stray", "--help"},
      {{"--headless", "-s", "5"}, "'-s' (and 1 more after it)", "--help"},
      {{"--switch-allocator-every", "7"}, "--switch-allocator-every", "needs --headless"},
      {{"--ticks", "10"}, "--ticks", "needs --headless"},
      {{"--json"}, "--json", "needs --headless"},
      {{"--verify"}, "--verify", "needs --headless"},
      {{"--headless", "--window", "800x600"}, "--window", "cannot be used with --headless"},
      {{"--headless", "--frames", "10"}, "--frames", "cannot be used with --headless"},
      {{"--headless", "--vsync", "off"}, "--vsync", "cannot be used with --headless"},
      {{"--headless", "--screenshot", "a.png"}, "--screenshot", "cannot be used with --headless"},
      {{"--window", "100x100"}, "--window", "[320, 7680]"},
      {{"--window", "1280"}, "--window", "[240, 4320]"},
      {{"--window="}, "--window", "[320, 7680]"},
      {{"--window"}, "--window", "[240, 4320]"},
      {{"--frames", "0"}, "--frames", "[1, 100000000]"},
      {{"--screenshot", "shot.jpg"}, "--screenshot", ".png or .bmp"},
      {{"--vsync", "maybe"}, "--vsync", "'on' or 'off'"},
      {{"--headless", "--scene", "nope"}, "--scene", "'uniform', 'clustered', 'mixed', 'streams'"},
      {{"--scene", "Uniform"}, "--scene", "'uniform', 'clustered', 'mixed', 'streams'"},
      {{"--headless", "--scene"}, "--scene", "'uniform', 'clustered', 'mixed', 'streams'"},
      {{"--headless", "--ab"}, "--ab", "cannot be used with --headless"},
      {{"--ab=1"}, "--ab", "takes no value"},
      // The ramp: its top in [100, 1000000], a demo flag of the lab's, alone among measurements.
      {{"--ramp-to", "99"}, "--ramp-to", "[100, 1000000]"},
      {{"--ramp-to", "1000001"}, "--ramp-to", "[100, 1000000]"},
      {{"--ramp-to", "1e6"}, "--ramp-to", "[100, 1000000]"},
      {{"--ramp-to", "-5"}, "--ramp-to", "[100, 1000000]"},
      {{"--ramp-to"}, "--ramp-to", "[100, 1000000]"},
      {{"--ramp-to="}, "--ramp-to", "[100, 1000000]"},
      {{"--ramp-to", "500", "--ramp-to", "600"}, "--ramp-to", "more than once"},
      {{"--ramp=1"}, "--ramp", "takes no value"},
      {{"--headless", "--ramp"}, "--ramp", "cannot be used with --headless"},
      {{"--headless", "--ramp-to", "1000"}, "--ramp-to", "cannot be used with --headless"},
      {{"--ramp", "--ab"}, "--ramp", "cannot be used with --ab"},
      {{"--ramp", "--bot"}, "--bot", "cannot be used with --ramp"},
      {{"--ramp", "--replay", "r.qpr"}, "--replay", "cannot be used with --ramp"},
      // Each of these was accepted, or misreported, before.
      {{"--headless", "--json", "--json"}, "--json", "more than once"},
      {{"--headless", "--headless"}, "--headless", "more than once"},
      {{"--headless", "--json=true"}, "--json", "takes no value"},
      {{"--headless", "--json="}, "--json", "takes no value"},
      {{"--headless", "--json=1"}, "--json", "takes no value"},
      {{"-headless"}, "-headless", "--help"},
      {{"--headless", "--sprites=", "500"}, "--sprites", "[1, 1000000]"},
      {{"--headless", "--sprites", "--json"}, "--sprites", "[1, 1000000]"},
      {{"--screenshot", "/no-such-quadpool-folder/shot.png"},
       "--screenshot",
       "'/no-such-quadpool-folder' is not a folder that exists"},
      // --help is a switch like --json, and like it may be given once.
      {{"--help=false"}, "--help", "takes no value"},
      {{"--help=0"}, "--help", "takes no value"},
      {{"--help=xyz"}, "--help", "takes no value"},
      {{"--help="}, "--help", "takes no value"},
      {{"--help", "--help"}, "--help", "more than once"},
      {{"--headless", "--help", "--json", "--help"}, "--help", "more than once"},
      // Folders that exist, where no file can be created (even by root): caught at the start by
      // creating the file the screenshot will be written through, not after the last frame.
      {{"--screenshot", "/proc/quadpool-shot.png"}, "--screenshot", "cannot be written"},
      {{"--screenshot", "/sys/quadpool-shot.png"}, "--screenshot", "cannot be written"},
      {{"--screenshot", too_long_screenshot_name().c_str()}, "--screenshot", "300 bytes long"},
      // Play: headless has no player but a pilot, and a replay decides its own game.
      {{"--headless", "--play"}, "--play", "needs --pilot bot|random|idle (or --bot)"},
      {{"--headless", "--play", "--pilot", "masher"}, "--pilot", "'bot', 'random' or 'idle'"},
      {{"--headless", "--play", "--pilot", "player"}, "--pilot", "'bot', 'random' or 'idle'"},
      {{"--headless", "--play", "--pilot", "bot", "--bot"}, "--bot", "give one of them"},
      {{"--headless", "--pilot", "idle"}, "--pilot", "needs --play"},
      {{"--lab", "--pilot", "idle"}, "--pilot", "cannot be used with --lab"},
      {{"--replay", "r.qpr", "--pilot", "idle"}, "--pilot", "the replay file decides"},
      {{"--headless", "--bot"}, "--bot", "needs --play"},
      {{"--headless", "--storm"}, "--storm", "needs --play"},
      {{"--headless", "--lives", "2"}, "--lives", "needs --play"},
      {{"--headless", "--play", "--bot", "--lives", "0"}, "--lives", "[1, 9]"},
      {{"--play", "--lives", "10"}, "--lives", "[1, 9]"},
      {{"--lab", "--lives", "2"}, "--lives", "cannot be used with --lab"},
      {{"--replay", "r.qpr", "--lives", "2"}, "--lives", "the replay file decides"},
      {{"--headless", "--record", "r.qpr"}, "--record", "needs --play"},
      {{"--lab", "--bot"}, "--bot", "cannot be used with --lab"},
      {{"--lab", "--replay", "r.qpr"}, "--replay", "cannot be used with --lab"},
      {{"--replay", "r.qpr", "--seed", "3"}, "--seed", "the replay file decides"},
      {{"--replay", "r.qpr", "--record", "s.qpr"}, "--record", "is the record"},
      {{"--headless", "--lab"}, "--lab", "cannot be used with --headless"},
      {{"--headless", "--play=1", "--bot"}, "--play", "takes no value"},
      {{"--headless", "--replay", "r.qpr", "--play", "--bot"}, "--play", "the replay file decides"},
      {{"--headless", "--replay", "r.qpr", "--seed", "3"}, "--seed", "the replay file decides"},
      {{"--headless", "--replay", "r.qpr", "--scene", "mixed"},
       "--scene",
       "the replay file decides"},
      {{"--headless", "--replay", "r.qpr", "--sprites", "9"},
       "--sprites",
       "the replay file decides"},
      {{"--headless", "--replay", "r.qpr", "--storm"}, "--storm", "the replay file decides"},
      {{"--headless", "--replay", "r.qpr", "--ticks", "9"}, "--ticks", "the replay file decides"},
      {{"--headless", "--replay", "r.qpr", "--record", "s.qpr"}, "--record", "is the record"},
      {{"--headless", "--replay"}, "--replay", "a replay file name"},
      // An empty value once meant "no replay" (exit 0) and "no screenshot", and --record said
      // '' names a folder.
      {{"--headless", "--replay", ""}, "--replay needs a value", "a replay file name"},
      {{"--replay", "", "--frames", "1"}, "--replay needs a value", "a replay file name"},
      {{"--headless", "--play", "--bot", "--record", ""}, "--record needs a value", "a file name"},
      {{"--record", ""}, "--record needs a value", "a file name"},
      {{"--screenshot", ""}, "--screenshot needs a value", "a .png or .bmp file name"},
      {{"--headless", "--play", "--bot", "--record", "/no-such-quadpool-folder/r.qpr"},
       "--record",
       "'/no-such-quadpool-folder' is not a folder that exists"},
      {{"--headless", "--play", "--bot", "--record", "/proc/quadpool.qpr"},
       "--record",
       "cannot be written"},
  };
  return cases;
}

TEST(CommandLine, BadInputGivesExitCodeTwoAndOneLineNamingTheFlagAndTheRange) {
  for (const BadInput& c : bad_inputs()) {
    const ParseResult r = parse(c.args);
    EXPECT_FALSE(r.command.has_value()) << joined(c.args);
    EXPECT_EQ(r.exit_code, 2) << joined(c.args);
    EXPECT_EQ(r.message.find('\n'), std::string::npos) << "not one line: " << r.message;
    EXPECT_NE(r.message.find(c.flag), std::string::npos) << r.message;
    EXPECT_NE(r.message.find(c.range), std::string::npos) << r.message;
  }
}

// The value flags, as --help lists them: "  --sprites N   ..." (a switch's description starts
// after the padding, never one space after its name).
std::vector<std::string> value_flags_in_help() {
  std::vector<std::string> flags;
  std::istringstream help(parse({"--help"}).message);
  for (std::string line; std::getline(help, line);) {
    if (line.rfind("  --", 0) != 0) continue;
    const std::size_t end = line.find(' ', 2);
    if (end != std::string::npos && end + 1 < line.size() && line[end + 1] != ' ') {
      flags.push_back(line.substr(2, end - 2));
    }
  }
  return flags;
}

// One check for every flag that takes a value: "--flag ''" is "--flag=", in either mode.
TEST(CommandLine, AnEmptyValueOfAnyValueFlagIsTheLineForAMissingValue) {
  const std::vector<std::string> flags = value_flags_in_help();
  EXPECT_GE(flags.size(), 13u) << "the help's value flags were not found";
  for (const std::string& flag : flags) {
    const std::string with_equals = flag + "=";
    for (const bool headless : {true, false}) {
      std::vector<const char*> separate = {flag.c_str(), ""};
      std::vector<const char*> joined_by_equals = {with_equals.c_str()};
      if (headless) {
        separate.insert(separate.begin(), "--headless");
        joined_by_equals.insert(joined_by_equals.begin(), "--headless");
      }
      const ParseResult r = parse(separate);
      EXPECT_EQ(r.exit_code, 2) << joined(separate);
      EXPECT_EQ(r.message.rfind("quadpool: " + flag + " needs a value: ", 0), 0u) << r.message;
      EXPECT_EQ(r.message, parse(joined_by_equals).message) << joined(separate);
    }
  }
}

TEST(CommandLine, AValueWithANewlineIsQuotedOnOneLine) {
  const ParseResult r = parse({"--headless", "--sprites", "1\n2"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.message.find('\n'), std::string::npos) << r.message;
}

TEST(CommandLine, ASeedWithLeadingZerosIsReadAsDecimal) {
  const ParseResult max = parse({"--headless", "--seed", "018446744073709551615"});
  ASSERT_TRUE(max.command.has_value()) << max.message;
  EXPECT_EQ(max.command->headless.game.config.field.scene.seed, 18446744073709551615ull);
  const ParseResult seven = parse({"--headless", "--seed", "0010", "--sprites", "007"});
  ASSERT_TRUE(seven.command.has_value()) << seven.message;
  EXPECT_EQ(seven.command->headless.game.config.field.scene.seed, 10u) << "not octal";
  EXPECT_EQ(seven.command->headless.game.config.field.scene.sprites, 7u);
  EXPECT_EQ(parse({"--headless", "--seed", "0"}).command->headless.game.config.field.scene.seed, 0u);
}

// CLI11 leaves the unknown arguments in a list, which was once quoted joined together as if it
// were one argument: "unexpected argument '-s 5'".
TEST(CommandLine, TheFirstUnexpectedArgumentIsNamedOnItsOwnAndTheRestAreCounted) {
  const std::string help = "; run 'quadpool --help' for the flags";
  const std::vector<std::pair<std::vector<const char*>, std::string>> cases = {
      {{"--headless", "-s", "5"},
       "quadpool: unknown flag or unexpected argument '-s' (and 1 more after it)" + help},
      {{"--headless", "foo", "bar", "baz"},
       "quadpool: unknown flag or unexpected argument 'foo' (and 2 more after it)" + help},
      {{"--headless", "stray"}, "quadpool: unknown flag or unexpected argument 'stray'" + help},
      {{"--headless", "foo", "--", "bar"},
       "quadpool: unknown flag or unexpected argument 'foo' (and 2 more after it)" + help},
      {{"--headless", "--"}, "quadpool: unknown flag or unexpected argument '--'" + help},
      {{"--headless", "--", "--ticks", "1"},
       "quadpool: unexpected argument '--ticks' after '--' (and 1 more after it): quadpool takes "
       "no arguments, and '--' ends its flags" +
           help},
      // After '--' nothing is a flag, so an empty word there is not a flag's missing value.
      {{"--headless", "--", "--replay", ""},
       "quadpool: unexpected argument '--replay' after '--' (and 1 more after it): quadpool "
       "takes no arguments, and '--' ends its flags" +
           help},
  };
  for (const auto& [args, message] : cases) {
    const ParseResult r = parse(args);
    EXPECT_EQ(r.exit_code, 2) << joined(args);
    EXPECT_EQ(r.message, message) << joined(args);
  }
}

// True when `text` is well-formed UTF-8 (no character cut short or started in the middle).
bool valid_utf8(const std::string& text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto lead = static_cast<unsigned char>(text[i]);
    const std::size_t length = lead < 0x80         ? 1
                               : (lead >> 5) == 6  ? 2
                               : (lead >> 4) == 14 ? 3
                               : (lead >> 3) == 30 ? 4
                                                   : 0;
    if (length == 0 || i + length > text.size()) return false;
    for (std::size_t k = 1; k < length; ++k) {
      if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return false;
    }
    i += length;
  }
  return true;
}

TEST(CommandLine, ALongValueIsCutBetweenUtf8Characters) {
  std::string value = "a";  // one byte, so that byte 40 falls inside a two-byte character
  for (int i = 0; i < 30; ++i) value += "\xc3\xa9";  // é
  for (const char* flag : {"--allocator", "--sprites", "--scene"}) {
    const ParseResult r = parse({"--headless", flag, value.c_str()});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_TRUE(valid_utf8(r.message)) << r.message;
    EXPECT_NE(r.message.find("..."), std::string::npos) << "the value was not cut: " << r.message;
  }
}

// A screenshot name that exists must be a file that can be written: a folder called shot.png
// passed the start-up check and failed only after the last frame.
std::filesystem::path scratch_folder() {
  const auto base =
      std::filesystem::temp_directory_path() / ("quadpool_cli_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(base);
  return base;
}

TEST(CommandLine, AScreenshotNameThatIsAFolderIsRefused) {
  const auto base = scratch_folder();
  const std::string folder = (base / "folder.png").string();
  std::filesystem::create_directories(folder);
  const ParseResult r = parse({"--screenshot", folder.c_str()});
  std::filesystem::remove_all(base);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.message.find("--screenshot"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("'" + folder + "' exists and is not a file"), std::string::npos)
      << r.message;
}

TEST(CommandLine, AScreenshotNameThatIsAReadOnlyFileIsRefusedAndAWritableOneAccepted) {
  if (::geteuid() == 0) GTEST_SKIP() << "running as root, which may write any file";
  const auto base = scratch_folder();
  const std::string file = (base / "old.bmp").string();
  std::ofstream(file) << "x";
  const bool writable = parse({"--screenshot", file.c_str()}).command.has_value();
  std::filesystem::permissions(file, std::filesystem::perms::owner_read);
  const ParseResult read_only = parse({"--screenshot", file.c_str()});
  std::filesystem::remove_all(base);
  EXPECT_TRUE(writable) << "an existing file that can be written is overwritten at the end";
  EXPECT_EQ(read_only.exit_code, 2);
  EXPECT_NE(read_only.message.find("exists and cannot be written"), std::string::npos)
      << read_only.message;
}

TEST(CommandLine, AScreenshotNameThatIsALinkToNothingIsRefusedAndALinkToAFileAccepted) {
  const auto base = scratch_folder();
  const std::string dangling = (base / "dangling.png").string();
  std::filesystem::create_symlink(base / "no-such-folder" / "shot.png", dangling);
  const std::string to_a_file = (base / "link.png").string();
  std::ofstream(base / "real.png") << "x";
  std::filesystem::create_symlink(base / "real.png", to_a_file);
  const ParseResult refused = parse({"--screenshot", dangling.c_str()});
  const ParseResult accepted = parse({"--screenshot", to_a_file.c_str()});
  const test::ProcessResult seen =
      test::run_quadpool("--screenshot '" + dangling + "'", test::Capture::Stderr);
  std::filesystem::remove_all(base);
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.message.find("--screenshot '" + dangling +
                                 "' cannot be written: it is a symbolic link"),
            std::string::npos)
      << refused.message;
  EXPECT_TRUE(accepted.command.has_value()) << accepted.message;
  EXPECT_EQ(seen.exit_code, 2) << seen.output;
  EXPECT_EQ(seen.output, refused.message + "\n");
}

// Another user's file in a sticky folder (/tmp): this user may write it, but not rename a new
// file over it, which is how the replay is finished. Refused before the game, not after it.
// As root, a forked child takes the identity of `nobody` to be that other user.
TEST(CommandLine, ARecordThisUserMayWriteButNotReplaceInAStickyFolderIsRefusedAtStartUp) {
  if (::geteuid() != 0) {
    GTEST_SKIP() << "needs a file of another user in a sticky folder: run as root, which then "
                    "becomes 'nobody' in a forked child";
  }
  const passwd* nobody = ::getpwnam("nobody");
  if (nobody == nullptr) GTEST_SKIP() << "no user 'nobody' to become";
  const auto base = scratch_folder();
  const std::filesystem::path sticky = base / "sticky";
  std::filesystem::create_directories(sticky);
  ASSERT_EQ(::chmod(base.c_str(), 0755), 0);
  ASSERT_EQ(::chmod(sticky.c_str(), 01777), 0);
  const std::string theirs = (sticky / "theirs.qpr").string();
  std::ofstream(theirs) << "root's file";
  ASSERT_EQ(::chmod(theirs.c_str(), 0666), 0);  // anyone may write it, not replace it
  const std::string said = test::in_child([&]() -> std::string {
    if (::setgid(nobody->pw_gid) != 0 || ::setuid(nobody->pw_uid) != 0) return "skip: setuid";
    const ParseResult r = parse({"--headless", "--play", "--bot", "--record", theirs.c_str()});
    const ParseResult own =
        parse({"--headless", "--play", "--bot", "--record", (sticky / "mine.qpr").c_str()});
    return std::to_string(r.exit_code) + "|" + r.message + "|" +
           (own.command.has_value() ? "own accepted" : own.message);
  });
  std::filesystem::remove_all(base);
  if (said.rfind("skip: ", 0) == 0) GTEST_SKIP() << said;
  EXPECT_EQ(said, "2|quadpool: --record '" + theirs + "' cannot be written: it belongs to "
                  "another user in a sticky folder, where only its owner may replace it"
                  "|own accepted");
}

// Two outputs that are one file: the last writer wins and the other is lost behind exit 0.
TEST(CommandLine, TwoOutputsThatAreTheSameFileAreRefused) {
  const auto base = scratch_folder();
  const std::string same = (base / "same.png").string();
  const std::string existing = (base / "existing.png").string();
  const std::string linked = (base / "linked.qpr").string();
  std::ofstream(existing) << "x";
  std::filesystem::create_hard_link(existing, linked);
  const ParseResult twice = parse({"--record", same.c_str(), "--screenshot", same.c_str()});
  const std::string relative = "./" + std::filesystem::relative(same).string();
  const ParseResult spelled = parse({"--record", same.c_str(), "--screenshot", relative.c_str()});
  const ParseResult hard = parse({"--record", linked.c_str(), "--screenshot", existing.c_str()});
  const ParseResult apart =
      parse({"--record", (base / "a.qpr").c_str(), "--screenshot", (base / "b.png").c_str()});
  std::filesystem::remove_all(base);
  for (const ParseResult* r : {&twice, &spelled, &hard}) {
    EXPECT_EQ(r->exit_code, 2) << r->message;
    EXPECT_NE(r->message.find("--record and --screenshot name the same file"), std::string::npos)
        << r->message;
    EXPECT_EQ(r->message.find('\n'), std::string::npos) << r->message;
  }
  EXPECT_TRUE(apart.command.has_value()) << apart.message;
}

// `--record /dev/stdout --json > report.json`: the replay would be renamed over the report's
// file, and the report written into a deleted file, with exit 0.
TEST(Executable, ARecordOntoStandardOutputIsRefusedBeforeTheGame) {
  const auto base = scratch_folder();
  const std::string out = (base / "report.json").string();
  // In braces: the helper's own redirections come after, and must not move this stdout.
  const test::ProcessResult r = test::run_command(
      std::string("{ '") + QUADPOOL_EXE +
          "' --headless --play --bot --sprites 200 --ticks 5 --record /dev/stdout --json > '" +
          out + "'; }",
      test::Capture::Stderr);
  // Where stdout is a pipe or a terminal, /dev/stdout is no regular file: refused as such.
  const test::ProcessResult piped = test::run_quadpool(
      "--headless --play --bot --sprites 200 --ticks 5 --record /dev/stdout --json",
      test::Capture::Stderr);
  EXPECT_EQ(piped.exit_code, 2) << piped.output;
  std::filesystem::remove_all(base);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_EQ(r.output,
            "quadpool: --record '/dev/stdout' is the standard output, where the report goes: "
            "give it a file of its own\n");
}

// The same table through the real executable: what a user sees.
TEST(Executable, BadInputExitsWithCodeTwoAndOneLineOnStderr) {
  for (const BadInput& c : bad_inputs()) {
    const test::ProcessResult r = test::run_quadpool(joined(c.args), test::Capture::Stderr);
    EXPECT_EQ(r.exit_code, 2) << joined(c.args) << ": " << r.output;
    ASSERT_FALSE(r.output.empty()) << joined(c.args);
    EXPECT_EQ(r.output.find('\n'), r.output.size() - 1) << "not one line: " << r.output;
    EXPECT_NE(r.output.find(c.flag), std::string::npos) << r.output;
    EXPECT_NE(r.output.find(c.range), std::string::npos) << r.output;
  }
}

#ifndef QUADPOOL_HAS_DEMO
TEST(Executable, WithoutTheDemoBuiltTheDemoModeSaysSoAndExitsWithTwo) {
  const test::ProcessResult r =
      test::run_quadpool("--sprites 100 --frames 1", test::Capture::Stderr);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("this build has no demo"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("--headless"), std::string::npos) << r.output;
}
#endif

TEST(Executable, HelpExitsZeroAndPrintsToStdout) {
  const test::ProcessResult r = test::run_quadpool("--help", test::Capture::Stdout);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.output.find("--headless"), std::string::npos);
}

// Runs `script` with bash, $QUADPOOL naming the executable; returns everything it wrote on
// stderr and the exit code of the pipeline's first process, which the script must print last
// as "exit=N" (e.g. `echo "exit=${PIPESTATUS[0]}" >&2`).
test::ProcessResult run_bash(const std::string& script) {
  const auto file = std::filesystem::temp_directory_path() /
                    ("quadpool_cli_test_" + std::to_string(::getpid()) + ".sh");
  std::ofstream(file) << "QUADPOOL='" << QUADPOOL_EXE << "'\n" << script << "\n";
  test::ProcessResult result;
  FILE* pipe = popen(("bash '" + file.string() + "' 2>&1 >/dev/null").c_str(), "r");
  if (pipe != nullptr) {
    char buffer[4096];
    std::size_t got = 0;
    while ((got = std::fread(buffer, 1, sizeof buffer, pipe)) > 0)
      result.output.append(buffer, got);
    pclose(pipe);
  }
  std::filesystem::remove(file);
  const std::size_t at = result.output.rfind("exit=");
  if (at != std::string::npos) result.exit_code = std::stoi(result.output.substr(at + 5));
  return result;
}

TEST(Executable, AReportThatCannotBeWrittenGivesANonZeroExitAndAMessage) {
  const std::string run = "\"$QUADPOOL\" --headless --json --sprites 2000 --ticks 60";
  for (const std::string& script : std::vector<std::string>{
           run + " > /dev/full; echo \"exit=$?\" >&2",
           run + " >&-; echo \"exit=$?\" >&2",
           "\"$QUADPOOL\" --headless --sprites 50 --ticks 5 > /dev/full; echo \"exit=$?\" >&2",
           "\"$QUADPOOL\" --help > /dev/full; echo \"exit=$?\" >&2",
           // A reader that is gone, with SIGPIPE ignored as a supervisor may leave it: EPIPE.
           // The writer starts only once the reader has closed its end (the marker file), so
           // a fast run cannot fill the pipe's buffer first and exit 0.
           "trap '' PIPE; m=$(mktemp -u); (until [ -e \"$m\" ]; do sleep 0.01; done; " + run +
               ") | (exec 0<&-; touch \"$m\"); echo \"exit=${PIPESTATUS[0]}\" >&2; rm -f \"$m\"",
       }) {
    const test::ProcessResult r = run_bash(script);
    EXPECT_NE(r.exit_code, 0) << script << ": " << r.output;
    EXPECT_NE(r.exit_code, -1) << script << ": no exit code in " << r.output;
    EXPECT_NE(r.output.find("could not write to standard output"), std::string::npos)
        << script << ": " << r.output;
  }
}

#ifdef QUADPOOL_HAS_DEMO
// The demo's sprite range is the command line's: the smallest count the parser accepts is the
// count the demo runs, and its log line and its --frames summary both say so (the demo once
// ran 100 sprites for --sprites 1 while the log said 1).
TEST(Executable, TheDemoRunsTheSmallestSpriteCountTheCommandLineAccepts) {
  const std::string smallest = std::to_string(sim::kMinSprites);
  const test::ProcessResult r =
      run_bash("SDL_VIDEODRIVER=dummy \"$QUADPOOL\" --lab --sprites " + smallest +
               " --frames 2 --vsync off 1>&2; echo \"exit=$?\" >&2");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("demo: " + smallest + " sprites,"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\"sprites\": " + smallest + ","), std::string::npos) << r.output;
  const ParseResult below = parse({"--sprites", std::to_string(sim::kMinSprites - 1).c_str()});
  EXPECT_EQ(below.exit_code, 2);
  EXPECT_NE(below.message.find("[" + smallest + ", "), std::string::npos) << below.message;
}
#endif

#ifdef QUADPOOL_HAS_DEMO
// With stdout closed, the demo's first opened socket (SDL's udev monitor, or the X connection)
// took descriptor 1, and the --frames summary was written into it with exit code 0.
TEST(Executable, TheDemoWithStdoutClosedReportsThatItsSummaryCouldNotBeWritten) {
  const test::ProcessResult r = run_bash(
      "SDL_VIDEODRIVER=dummy \"$QUADPOOL\" --sprites 10 --frames 2 --vsync off >&-; "
      "echo \"exit=$?\" >&2");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("could not write to standard output"), std::string::npos) << r.output;
}
#endif

TEST(Executable, TheJsonSeedIsAStringSoThatAnyToolKeepsAll64Bits) {
  const test::ProcessResult r =
      test::run_quadpool("--headless --json --sprites 100 --ticks 1 --seed 18446744073709551615",
                         test::Capture::Stdout);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.output.find("\"seed\": \"18446744073709551615\""), std::string::npos) << r.output;
}

}  // namespace
}  // namespace quadpool::game
