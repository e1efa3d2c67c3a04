// The command line, on CLI11's typed options: every option is bound to its typed variable, and
// its value is checked (and normalised) by a CLI11 Validator that writes the one-line error.
//
// Sections: messages; validators; the option table; the checks CLI11 has no notion of (a value
// given to a switch, an empty value, what was left over, a flag of the other mode);
// parse_command_line.
#include "game/cli.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <functional>
#include <istream>
#include <limits>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "engine/memory/allocator_kind.hpp"
#include "game/util/atomic_file.hpp"
#include "game/util/decimal.hpp"
#include "game/util/shown_value.hpp"
#include "game/sim/simulation.hpp"
#include "common/worker_pool.hpp"
#include "common/scene/scene.hpp"

namespace quadpool::game {

namespace {

// --- messages ----------------------------------------------------------------------------------

// Thrown inside the parser for bad input and turned into a ParseResult at the top: the message
// is already the complete line.
struct BadInput {
  std::string line;
};

[[noreturn]] void bad(const std::string& line) {
  throw BadInput{"quadpool: " + line};
}

std::string range_text(std::uint64_t min, std::uint64_t max) {
  return fmt::format("an integer in [{}, {}]", min, max);
}

template <class Enum>
std::string quoted_names(const std::map<std::string, Enum>& names) {
  std::string text;
  for (const auto& [name, value] : names)
    text += fmt::format("{}'{}'", text.empty() ? "" : ", ", name);
  return text;
}

// --- validators --------------------------------------------------------------------------------

// Every validator knows its flag's name and writes the whole error line into `failure`; CLI11
// then throws a ValidationError, whose type alone tells parse() that `failure` is the message.
// (CLI11 would put its own words around a returned message.)
//
// CLI::Range and CLI::CheckedTransformer are not used for the values because, in CLI11 2.1.2,
// both accept bad input: integers are read with strtoull(..., 0), so "010" is 8 and a value
// above 2^64-1 saturates to 2^64-1 without an error (--seed 18446744073709551616 would pass as
// the largest seed), and CheckedTransformer also accepts the mapped value itself
// ("--allocator 0" would mean pool). The bad-input table in tests/game/cli_test.cpp pins all
// three.
using Failure = std::string;

CLI::Validator failing_with(Failure& failure, std::string flag,
                            std::function<std::string(std::string&)> check) {
  return CLI::Validator(
      [&failure, flag = std::move(flag), check = std::move(check)](std::string& text) {
        std::string error = check(text);
        if (!error.empty()) failure = fmt::format("{} {}", flag, error);
        return error;
      },
      "");
}

// A decimal number (parse_decimal) in [min, max]. The text is normalised to the value without
// leading zeros, which CLI11's own conversion would otherwise read as octal.
CLI::Validator unsigned_in(Failure& failure, const char* flag, std::uint64_t min,
                           std::uint64_t max) {
  return failing_with(failure, flag, [min, max](std::string& text) -> std::string {
    const std::optional<std::uint64_t> value = util::parse_decimal(text);
    if (!value || *value < min || *value > max) {
      return fmt::format("must be {}, got '{}'", range_text(min, max), util::shown_value(text));
    }
    text = std::to_string(*value);
    return {};
  });
}

// Exactly one of `names`, turned into the enum's value for CLI11 to assign.
template <class Enum>
CLI::Validator one_of(Failure& failure, const char* flag, std::map<std::string, Enum> names,
                      std::string valid) {
  return failing_with(failure, flag, [names = std::move(names), valid](std::string& text) {
    const auto it = names.find(text);
    if (it == names.end())
      return fmt::format("must be {}, got '{}'", valid, util::shown_value(text));
    text = std::to_string(static_cast<long long>(it->second));
    return std::string();
  });
}

std::string window_text() {
  return fmt::format("WIDTHxHEIGHT with WIDTH in [{}, {}] and HEIGHT in [{}, {}]",
                     window::kMinWindowWidth, window::kMaxWindowWidth, window::kMinWindowHeight,
                     window::kMaxWindowHeight);
}

// The --window value as CLI11 converts it, from the "WIDTH HEIGHT" that window_size() leaves.
struct WindowSize {
  int width, height;
  friend std::istream& operator>>(std::istream& in, WindowSize& size) {
    return in >> size.width >> size.height;
  }
};

// WIDTHxHEIGHT in the window caps, normalised to "WIDTH HEIGHT" for WindowSize's conversion.
CLI::Validator window_size(Failure& failure) {
  return failing_with(failure, "--window", [](std::string& text) -> std::string {
    const std::string error =
        fmt::format("must be {}, got '{}'", window_text(), util::shown_value(text));
    const std::size_t x = text.find('x');
    if (x == std::string::npos) return error;
    int width = 0, height = 0;
    const char* first = text.data();
    const char* last = text.data() + text.size();
    const auto w = std::from_chars(first, first + x, width);
    const auto h = std::from_chars(first + x + 1, last, height);
    const bool whole = w.ec == std::errc{} && w.ptr == first + x && h.ec == std::errc{} &&
                       h.ptr == last && std::isdigit(static_cast<unsigned char>(text[0])) != 0 &&
                       std::isdigit(static_cast<unsigned char>(text[x + 1])) != 0;
    if (!whole || width < window::kMinWindowWidth || width > window::kMaxWindowWidth ||
        height < window::kMinWindowHeight || height > window::kMaxWindowHeight) {
      return error;
    }
    text = fmt::format("{} {}", width, height);
    return {};
  });
}

// Why the file `text` cannot be written, or empty: checked when the command line is read, so
// that a bad path fails before any window opens or any tick runs rather than at the end. Every
// output is checked for all that its final write needs: a folder that exists and can be
// written, a target that is a regular file (or none yet) that this user may replace (the
// sticky-bit rule, in check_file_can_be_written()); check_outputs() then keeps the outputs apart.
std::string unwritable_file(const std::string& text) {
  std::filesystem::path folder = std::filesystem::path(text).parent_path();
  if (folder.empty()) folder = ".";
  std::error_code error;
  if (!std::filesystem::is_directory(folder, error)) {
    return fmt::format("'{}': '{}' is not a folder that exists", util::shown_value(text, 200),
                       util::shown_value(folder.string(), 200));
  }
  // An existing name is replaced at the end, so it must be a file the user may write.
  const std::filesystem::file_status status = std::filesystem::status(text, error);
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status)) {
    return fmt::format("'{}' exists and is not a file", util::shown_value(text, 200));
  }
  if (std::filesystem::exists(status) && ::access(text.c_str(), W_OK) != 0) {
    return fmt::format("'{}' exists and cannot be written", util::shown_value(text, 200));
  }
  // The rest (a read-only folder or mount, /proc, /sys, a link to nothing, a name too long)
  // only creating the file that the result will be written through can tell.
  if (const std::string reason = util::check_file_can_be_written(text); !reason.empty()) {
    return fmt::format("'{}' cannot be written: {}", util::shown_value(text, 200),
                       util::shown_value(reason, 200));
  }
  return {};
}

// A .png or .bmp file name (any case) that can be written.
CLI::Validator screenshot_file(Failure& failure) {
  return failing_with(failure, "--screenshot", [](std::string& text) -> std::string {
    std::string lower = text;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    const auto ends_with = [&](const std::string& suffix) {
      return lower.size() > suffix.size() &&
             lower.compare(lower.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    if (!ends_with(".png") && !ends_with(".bmp")) {
      return fmt::format("must name a .png or .bmp file, got '{}'", util::shown_value(text));
    }
    return unwritable_file(text);
  });
}

// A file name that can be written (--record).
CLI::Validator writable_file(Failure& failure, const char* flag) {
  return failing_with(failure, flag, [](std::string& text) { return unwritable_file(text); });
}

// --- the option table --------------------------------------------------------------------------

std::string help_footer() {
  return fmt::format(
      "Modes:\n"
      "  without --headless  the SDL2 window (needs a display; try xvfb-run or --headless):\n"
      "                      it opens on the game (--bot: the bot flies, an attract mode);\n"
      "                      Tab or --lab: the lab\n"
      "  with --headless     runs the simulation without a window and prints a summary\n"
      "                      (--json: exactly one JSON object on stdout)\n"
      "  with --headless --play --bot\n"
      "                      the bot plays the game; --record FILE saves it, and\n"
      "                      --replay FILE plays a saved game again to its recorded hash\n"
      "                      (both work in the window too)\n"
      "Caps: --sprites <= {}, --ticks <= {}, --frames <= {}.\n"
      "Exit codes: 0 success, 1 --verify found a broad-phase mismatch, a replay did not end on "
      "its recorded hash, or the report, the screenshot or the record could not be written, "
      "2 bad input (a bad replay file too) or no display.\n"
      "Examples:\n"
      "  quadpool --sprites 20000\n"
      "  quadpool --record game.qpr\n"
      "  quadpool --lab --sprites 20000\n"
      "  quadpool --ramp\n"
      "  quadpool --headless --sprites 100000 --ticks 600 --json\n"
      "  quadpool --headless --scene mixed --sprites 20000 --ticks 300 --json\n"
      "  quadpool --headless --switch-allocator-every 7 --verify\n"
      "  quadpool --headless --play --bot --ticks 3000 --record game.qpr --json\n"
      "  quadpool --headless --replay game.qpr --json\n",
      sim::kMaxSprites, headless::kMaxTicks, window::kMaxFrames);
}

// CLI11's app with every option bound to a typed field below.
struct Parser {
  CLI::App app{"quadpool: pooled quad-tree collision demo and headless tick runner", "quadpool"};
  Failure failure;  // the line a failing validator wrote
  play::GameOptions game;  // the flags both front ends take, bound once
  headless::HeadlessOptions headless;
  window::WindowOptions demo;
  bool bot = false;  // --bot: --pilot bot
  WindowSize window{demo.window_width, demo.window_height};
  std::uint64_t frames = 0;
  bool headless_mode = false;
  std::vector<CLI::Option*> switches;         // take no value
  std::map<std::string, std::string> valued;  // flag -> what a missing value should have been
  std::vector<CLI::Option*> headless_only, demo_only;

  Parser();
  CLI::Option* flag(const char* name, bool& target, std::string help);
  // A value option bound to `target`; `valid` is what an error says a value must be.
  template <class T>
  CLI::Option* value(const char* name, T& target, const char* value_name, std::string help,
                     std::string valid) {
    valued[name] = std::move(valid);
    return app.add_option(name, target, std::move(help))
        ->type_name(value_name)
        ->multi_option_policy(CLI::MultiOptionPolicy::Throw);
  }
  void add_shared_options();
  void add_headless_options();
  void add_play_options();
  void add_demo_options();
};

CLI::Option* Parser::flag(const char* name, bool& target, std::string help) {
  CLI::Option* option = app.add_flag(name, target, std::move(help));
  option->multi_option_policy(CLI::MultiOptionPolicy::Throw);
  switches.push_back(option);
  return option;
}

Parser::Parser() {
  // A switch like the others: "--help=false" and "--help --help" are refused as "--json=1" is.
  CLI::Option* help = app.set_help_flag("--help", "Print this help and exit");
  help->multi_option_policy(CLI::MultiOptionPolicy::Throw);
  switches.push_back(help);
  app.allow_extras();  // unknown arguments are collected, in order, and reported below
  app.footer(help_footer());
  app.get_formatter()->column_width(34);
  flag("--headless", headless_mode, "Run without a window (no display needed)");
  add_shared_options();
  add_headless_options();
  add_demo_options();
}

// Both modes' options, bound once to `game`, which both front ends' options hold.
void Parser::add_shared_options() {
  scene::SceneConfig& scene = game.config.field.scene;
  value("--sprites", scene.sprites, "N",
        fmt::format("Number of sprites, {}..{} (default {})", sim::kMinSprites, sim::kMaxSprites,
                    scene.sprites),
        range_text(sim::kMinSprites, sim::kMaxSprites))
      ->transform(unsigned_in(failure, "--sprites", sim::kMinSprites, sim::kMaxSprites));
  value("--seed", scene.seed, "S", fmt::format("Scene seed, 0..2^64-1 (default {})", scene.seed),
        range_text(0, std::numeric_limits<std::uint64_t>::max()))
      ->transform(unsigned_in(failure, "--seed", 0, std::numeric_limits<std::uint64_t>::max()));
  std::map<std::string, scene::SceneKind> scenes;
  for (const scene::SceneKind kind : scene::kSceneKinds) scenes[scene::scene_name(kind)] = kind;
  // In declaration order, as --help and docs/headless.md list them.
  std::string scene_names;
  for (const scene::SceneKind kind : scene::kSceneKinds) {
    scene_names += fmt::format("{}'{}'", scene_names.empty() ? "" : ", ", scene::scene_name(kind));
  }
  value("--scene", scene.kind, "uniform|clustered|mixed|streams",
        "Where the sprites start and how big they are (default uniform; see game/README.md)",
        "one of " + scene_names)
      ->transform(one_of(failure, "--scene", scenes, "one of " + scene_names));
  std::map<std::string, memory::AllocatorKind> allocators;
  for (const memory::AllocatorKind kind : memory::kAllocatorKinds) {
    allocators[memory::allocator_name(kind)] = kind;
  }
  value("--allocator", game.config.field.allocator, "pool|new-delete",
        "Where the quad-tree's nodes come from (default pool)", "'pool' or 'new-delete'")
      ->transform(one_of(failure, "--allocator", allocators, "'pool' or 'new-delete'"));
  game.threads = default_thread_count();
  value("--threads", game.threads, "N",
        fmt::format("Threads the tick runs on, 1..{} (default {}: the hardware threads); the "
                    "results are the same for any count",
                    kMaxThreads, game.threads),
        range_text(1, kMaxThreads))
      ->transform(unsigned_in(failure, "--threads", 1, kMaxThreads));
}

void Parser::add_headless_options() {
  headless_only.push_back(value("--ticks", headless.ticks, "T",
                                fmt::format("Headless: ticks to run, 1..{} (default {})",
                                            headless::kMaxTicks, headless.ticks),
                                range_text(1, headless::kMaxTicks))
                              ->transform(unsigned_in(failure, "--ticks", 1, headless::kMaxTicks)));
  headless_only.push_back(
      value("--switch-allocator-every", headless.switch_allocator_every, "K",
            fmt::format("Headless: alternate pool and new-delete every K ticks, 1..{} (default: "
                        "never)",
                        headless::kMaxTicks),
            range_text(1, headless::kMaxTicks))
          ->transform(unsigned_in(failure, "--switch-allocator-every", 1, headless::kMaxTicks)));
  headless_only.push_back(flag("--verify", headless.verify,
                               "Headless: check the tree's pairs against a sweep-and-prune "
                               "reference every tick; exit 1 on a mismatch"));
  headless_only.push_back(
      flag("--json", headless.json, "Headless: print exactly one JSON object on stdout"));
  add_play_options();
}

// The game (game/play/): both modes; check_play() says which go together. The window opens on
// the game (--lab opens the lab), so there --play is the default and the others need no --play.
void Parser::add_play_options() {
  flag("--play", headless.play,
       "Play the game (the window's default; headless it needs --bot: without a window there is "
       "no player)");
  const std::map<std::string, play::Pilot> pilots{
      {"bot", play::Pilot::Bot}, {"random", play::Pilot::Random}, {"idle", play::Pilot::Idle}};
  value("--pilot", game.pilot, "bot|random|idle",
        "Who flies instead of the player: the bot, a key-masher (random) or nobody (idle), each "
        "pressing Enter after a game over; headless with --play, in the window an attract mode",
        "'bot', 'random' or 'idle'")
      ->transform(one_of(failure, "--pilot", pilots, "'bot', 'random' or 'idle'"));
  flag("--bot", bot, "The same as --pilot bot");
  flag("--storm", game.config.storm,
       "The game's stress setting: volleys, big bursts, an immortal ship");
  value("--lives", game.config.lives, "N",
        fmt::format("The ships a game starts with, {}..{} (default {})", play::kMinLives,
                    play::kMaxLives, game.config.lives),
        range_text(play::kMinLives, play::kMaxLives))
      ->transform(unsigned_in(failure, "--lives", play::kMinLives, play::kMaxLives));
  value("--record", game.record, "FILE",
        "Write the game's replay to FILE at the end (in the window: the game since its last "
        "restart)",
        "a file name")
      ->check(writable_file(failure, "--record"));
  value("--replay", game.replay, "FILE",
        "Play the replay FILE to its end and check its final state hash; the file decides seed, "
        "scene, sprites, storm, ticks",
        "a replay file name");
}

void Parser::add_demo_options() {
  demo_only.push_back(
      value("--window", window, "WxH",
            fmt::format("Demo: window size, width {}..{}, height {}..{} (default {}x{}, "
                        "or less to fit the screen)",
                        window::kMinWindowWidth, window::kMaxWindowWidth, window::kMinWindowHeight,
                        window::kMaxWindowHeight, demo.window_width, demo.window_height),
            window_text())
          ->transform(window_size(failure)));
  demo_only.push_back(
      value("--frames", frames, "F",
            fmt::format("Demo: quit after F frames, 1..{} (default: run until closed)",
                        window::kMaxFrames),
            range_text(1, window::kMaxFrames))
          ->transform(unsigned_in(failure, "--frames", 1, window::kMaxFrames)));
  demo_only.push_back(value("--screenshot", demo.screenshot, "FILE",
                            "Demo: save the last frame as FILE, .png or .bmp, in a folder that "
                            "exists (default: none)",
                            "a .png or .bmp file name")
                          ->check(screenshot_file(failure)));
  const std::map<std::string, int> on_off{{"off", 0}, {"on", 1}};
  demo_only.push_back(value("--vsync", demo.vsync, "on|off",
                            "Demo: wait for the display's refresh (default on)", "'on' or 'off'")
                          ->transform(one_of(failure, "--vsync", on_off, "'on' or 'off'")));
  demo_only.push_back(value("--shake", demo.shake, "on|off",
                            "Demo: shake the view when the ship is hit (default on)",
                            "'on' or 'off'")
                          ->transform(one_of(failure, "--shake", on_off, "'on' or 'off'")));
  demo_only.push_back(flag("--ab", demo.ab,
                           "Demo: start an A/B run (pool against new-delete) on the first "
                           "frame, in the game with the bot flying every leg; with --frames its "
                           "result goes into the JSON summary"));
  demo_only.push_back(flag("--ramp", demo.ramp,
                           "Demo: open the lab and start the ramp on the first frame: the field "
                           "grown in 7 steps to --ramp-to sprites, the tick timed with the pools "
                           "against new-delete at each; with --frames its steps go into the JSON "
                           "summary"));
  demo_only.push_back(
      value("--ramp-to", demo.ramp_to, "N",
            fmt::format("Demo: the ramp's top (--ramp and the G key), {}..{}; its steps climb "
                        "from N/100 (default {})",
                        window::kMinRampTop, sim::kMaxSprites, window::kDefaultRampTop),
            range_text(window::kMinRampTop, sim::kMaxSprites))
          ->transform(unsigned_in(failure, "--ramp-to", window::kMinRampTop, sim::kMaxSprites)));
  demo_only.push_back(flag("--lab", demo.lab,
                           "Demo: open the lab (watch, spawn, query) instead of the game; Tab "
                           "switches between them"));
}

// --- checks CLI11 has no notion of -------------------------------------------------------------

// CLI11 accepts some values on a switch ("--json=true", "--json=") and refuses others
// ("--json=1"); an empty "--sprites=" makes it take the next argument as the value; a value
// flag at the very end gets its own wording; and an empty value ("--replay ''") passes as a
// string, where it meant "none" (--replay, --screenshot) or a misleading error (--record). All
// are bad input here, caught before CLI11 sees the arguments: every value flag's empty value
// gets the one "needs a value" line, whichever way it was written.
void check_written_values(const Parser& parser, const std::vector<std::string>& args) {
  const auto is_switch = [&](const std::string& name) {
    return std::any_of(parser.switches.begin(), parser.switches.end(),
                       [&](const CLI::Option* o) { return o->check_lname(name.substr(2)); });
  };
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") break;  // no flags after it: check_extras() names what follows
    if (arg.rfind("--", 0) != 0) continue;
    const std::size_t equals = arg.find('=');
    const std::string name = arg.substr(0, equals);
    if (equals != std::string::npos && is_switch(name)) {
      bad(fmt::format("{} is a switch and takes no value", name));
    }
    const auto valued = parser.valued.find(name);
    if (valued == parser.valued.end()) continue;
    const bool empty_after_equals = equals != std::string::npos && equals + 1 == arg.size();
    const bool last_without_value = equals == std::string::npos && i + 1 == args.size();
    const bool empty_next = equals == std::string::npos && i + 1 < args.size() &&
                            args[i + 1].empty();
    if (empty_after_equals || last_without_value || empty_next) {
      bad(fmt::format("{} needs a value: {}", name, valued->second));
    }
  }
}

// What CLI11 left over (allow_extras), in the order given: the first is named on its own, with
// a count of the rest. CLI11 keeps the '--' that ends the flags among them, but
// remaining_size() does not count it: after that '--' every argument is unexpected, since
// quadpool takes none, so the one named is the first after it.
void check_extras(const Parser& parser) {
  std::vector<std::string> extras = parser.app.remaining();
  if (extras.empty()) return;
  const bool after_separator =
      extras.size() > 1 && extras.front() == "--" && parser.app.remaining_size() < extras.size();
  if (after_separator) extras.erase(extras.begin());
  const std::size_t more = extras.size() - 1;
  const std::string rest = more == 0 ? "" : fmt::format(" (and {} more after it)", more);
  if (after_separator) {
    bad(
        fmt::format("unexpected argument '{}' after '--'{}: quadpool takes no arguments, and "
                    "'--' ends its flags; run 'quadpool --help' for the flags",
                    util::shown_value(extras.front()), rest));
  }
  bad(
      fmt::format("unknown flag or unexpected argument '{}'{}; run 'quadpool --help' for the "
                  "flags",
                  util::shown_value(extras.front()), rest));
}

// The flags that belong to one mode only.
void check_modes(const Parser& parser) {
  for (const CLI::Option* option : parser.demo_only) {
    if (parser.headless_mode && option->count() > 0) {
      bad(fmt::format("{} is a demo flag and cannot be used with --headless", option->get_name()));
    }
  }
  for (const CLI::Option* option : parser.headless_only) {
    if (!parser.headless_mode && option->count() > 0) {
      bad(fmt::format("{} needs --headless", option->get_name()));
    }
  }
}

// The play flags: a replay file decides the game by itself; the lab plays no game; a headless
// game needs the bot.
void check_play(const Parser& parser) {
  const auto given = [&](const char* name) { return parser.app.count(name) > 0; };
  if (given("--bot") && given("--pilot")) {
    bad("--bot cannot be used with --pilot: --bot is --pilot bot, give one of them");
  }
  // --ramp runs in the lab, so it opens the lab as --lab does.
  for (const char* lab : {"--lab", "--ramp"}) {
    if (!given(lab)) continue;
    for (const char* name :
         {"--play", "--bot", "--pilot", "--storm", "--lives", "--record", "--replay"}) {
      if (given(name)) {
        bad(
            fmt::format("{} cannot be used with {}: the lab plays no game (Tab switches to the "
                        "game, which the window opens on without --lab)",
                        name, lab));
      }
    }
  }
  if (given("--ramp") && given("--ab")) {
    bad("--ramp cannot be used with --ab: each measures the tick alone; give one of them");
  }
  if (given("--replay")) {
    for (const char* name : {"--play", "--bot", "--pilot", "--seed", "--scene", "--sprites",
                             "--storm", "--lives", "--ticks"}) {
      if (given(name)) {
        bad(
            fmt::format("--replay cannot be used with {}: the replay file decides the game "
                        "(seed, scene, sprites, storm, lives, ticks)",
                        name));
      }
    }
    if (given("--record")) bad("--record cannot be used with --replay: the replay is the record");
    return;
  }
  if (!parser.headless_mode) return;
  for (const char* name : {"--bot", "--pilot", "--storm", "--lives", "--record"}) {
    if (given(name) && !given("--play")) bad(fmt::format("{} needs --play", name));
  }
  if (given("--play") && !given("--bot") && !given("--pilot")) {
    bad("--play needs --pilot bot|random|idle (or --bot) with --headless: without a window there "
        "is no player");
  }
}

// Two outputs that are one file lose one of them behind exit 0: the replay renamed over the
// report's file (--record /dev/stdout --json > report.json), the screenshot and the replay
// written to one name. Same device and inode for files that exist; the same path, links and
// "." resolved, for files still to be made.
bool same_file(const std::string& a, const std::string& b) {
  struct stat first {};
  struct stat second {};
  const bool a_exists = ::stat(a.c_str(), &first) == 0;
  const bool b_exists = ::stat(b.c_str(), &second) == 0;
  if (a_exists || b_exists) {
    return a_exists && b_exists && first.st_dev == second.st_dev && first.st_ino == second.st_ino;
  }
  std::error_code error;
  const std::filesystem::path a_full = std::filesystem::weakly_canonical(a, error);
  if (error) return false;
  const std::filesystem::path b_full = std::filesystem::weakly_canonical(b, error);
  return !error && a_full == b_full;
}

// Every file the run writes is its own: --record, --screenshot and standard output, where the
// report goes (headless always, the demo with --frames; any run may print there).
void check_outputs(const Parser& parser) {
  std::vector<std::pair<const char*, std::string>> outputs;
  if (!parser.game.record.empty()) outputs.emplace_back("--record", parser.game.record);
  if (!parser.demo.screenshot.empty()) outputs.emplace_back("--screenshot", parser.demo.screenshot);
  struct stat out {};
  const bool stdout_known = ::fstat(STDOUT_FILENO, &out) == 0;
  for (const auto& [flag, path] : outputs) {
    struct stat status {};
    if (stdout_known && ::stat(path.c_str(), &status) == 0 && status.st_dev == out.st_dev &&
        status.st_ino == out.st_ino) {
      bad(fmt::format("{} '{}' is the standard output, where the report goes: give it a file of "
                      "its own",
                      flag, util::shown_value(path, 200)));
    }
  }
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    for (std::size_t j = i + 1; j < outputs.size(); ++j) {
      if (same_file(outputs[i].second, outputs[j].second)) {
        bad(fmt::format("{} and {} name the same file '{}': each output needs a file of its own",
                        outputs[i].first, outputs[j].first,
                        util::shown_value(outputs[j].second, 200)));
      }
    }
  }
}

// The line for a CLI11 parse error, chosen by the exception's type and the options' state.
[[noreturn]] void report(const CLI::ParseError& error, const Parser& parser) {
  if (dynamic_cast<const CLI::ValidationError*>(&error) != nullptr && !parser.failure.empty()) {
    bad(parser.failure);
  }
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&error) != nullptr) {
    for (const CLI::Option* option : parser.app.get_options()) {
      if (option->count() > 1) bad(fmt::format("{} was given more than once", option->get_name()));
    }
  }
  bad(fmt::format("{}; run 'quadpool --help' for the flags", util::shown_value(error.what(), 200)));
}

CommandLine parse_or_throw(std::span<const char* const> args, std::string& help_text) {
  Parser parser;
  help_text = parser.app.help();
  const std::vector<std::string> given(args.begin() + (args.empty() ? 0 : 1), args.end());
  check_written_values(parser, given);
  try {
    parser.app.parse(static_cast<int>(args.size()), args.data());
  } catch (const CLI::CallForHelp&) {
    CommandLine help;
    help.mode = CommandLine::Mode::Help;
    return help;
  } catch (const CLI::ParseError& error) {
    report(error, parser);
  }
  check_extras(parser);
  check_modes(parser);
  check_play(parser);
  check_outputs(parser);

  CommandLine command;
  command.mode = parser.headless_mode ? CommandLine::Mode::Headless : CommandLine::Mode::Demo;
  play::GameOptions game = parser.game;
  if (parser.bot) game.pilot = play::Pilot::Bot;
  command.headless = parser.headless;
  command.headless.game = game;
  window::WindowOptions& demo = command.demo;
  demo = parser.demo;
  demo.game = game;
  demo.window_width = parser.window.width;
  demo.window_height = parser.window.height;
  demo.window_size_given = parser.app.count("--window") > 0;
  if (parser.frames != 0) demo.frames = parser.frames;
  if (demo.ramp) demo.lab = true;
  return command;
}

}  // namespace

ParseResult parse_command_line(std::span<const char* const> args) {
  ParseResult result;
  std::string help_text;
  try {
    CommandLine command = parse_or_throw(args, help_text);
    if (command.mode == CommandLine::Mode::Help) {
      result.message = help_text;
      result.exit_code = 0;
    } else {
      result.command = command;
    }
  } catch (const BadInput& e) {
    result.message = e.line;
    result.exit_code = 2;
  }
  return result;
}

}  // namespace quadpool::game
