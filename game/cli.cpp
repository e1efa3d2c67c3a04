// The command line. Sections: one-line errors and value converters (integers, allocator, window,
// screenshot, vsync), the flag table and CLI11 set-up, the mode checks, parse_command_line.
#include "game/cli.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>
#include <map>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

namespace quadpool::game {

namespace {

// Thrown inside the parser for bad input and turned into ParseResult at the top: the message
// is already the complete line.
struct BadInput {
  std::string line;
};

[[noreturn]] void bad(std::string line) {
  throw BadInput{"quadpool: " + std::move(line)};
}

// A user's value as an error message quotes it: control characters become '?' so that the
// message stays one line, and a very long value is cut.
std::string shown(const std::string& text, std::size_t longest = 40) {
  std::string out = text.substr(0, longest);
  for (char& c : out) {
    if (std::iscntrl(static_cast<unsigned char>(c)) != 0) c = '?';
  }
  if (text.size() > longest) out += "...";
  return out;
}

std::string range_text(std::uint64_t min, std::uint64_t max) {
  return fmt::format("an integer in [{}, {}]", min, max);
}

// Digits only: no sign, no spaces, no exponent, no hex; anything else is not "an integer".
std::optional<std::uint64_t> to_unsigned(const std::string& text) {
  if (text.empty() || !std::all_of(text.begin(), text.end(),
                                   [](unsigned char c) { return std::isdigit(c) != 0; })) {
    return std::nullopt;
  }
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size()) {
    // Only overflow gets here; report it as out of range, not as malformed.
    return std::numeric_limits<std::uint64_t>::max();
  }
  return value;
}

std::uint64_t parse_integer(const std::string& flag, const std::string& text, std::uint64_t min,
                            std::uint64_t max) {
  const std::optional<std::uint64_t> value = to_unsigned(text);
  const bool overflow = value && *value == std::numeric_limits<std::uint64_t>::max() &&
                        text != std::to_string(*value);
  if (!value || overflow || *value < min || *value > max) {
    bad(fmt::format("{} must be {}, got '{}'", flag, range_text(min, max), shown(text)));
  }
  return *value;
}

AllocatorKind parse_allocator(const std::string& text) {
  if (text == "pool") return AllocatorKind::Pool;
  if (text == "new-delete") return AllocatorKind::NewDelete;
  bad(fmt::format("--allocator must be 'pool' or 'new-delete', got '{}'", shown(text)));
}

void parse_window(const std::string& text, DemoOptions& demo) {
  const std::string expected =
      fmt::format("WIDTHxHEIGHT with WIDTH in [{}, {}] and HEIGHT in [{}, {}]", kMinWindowWidth,
                  kMaxWindowWidth, kMinWindowHeight, kMaxWindowHeight);
  const std::size_t x = text.find('x');
  const auto width = x == std::string::npos ? std::nullopt : to_unsigned(text.substr(0, x));
  const auto height = x == std::string::npos ? std::nullopt : to_unsigned(text.substr(x + 1));
  if (!width || !height || *width < kMinWindowWidth || *width > kMaxWindowWidth ||
      *height < kMinWindowHeight || *height > kMaxWindowHeight) {
    bad(fmt::format("--window must be {}, got '{}'", expected, shown(text)));
  }
  demo.window_width = static_cast<int>(*width);
  demo.window_height = static_cast<int>(*height);
}

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

void parse_screenshot(const std::string& text, DemoOptions& demo) {
  const std::string name = lower(text);
  const auto ends_with = [&](const char* suffix) {
    const std::string s = suffix;
    return name.size() > s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0;
  };
  if (!ends_with(".png") && !ends_with(".bmp")) {
    bad(fmt::format("--screenshot must name a .png or .bmp file, got '{}'", shown(text)));
  }
  demo.screenshot = text;
}

std::string scene_list() {
  std::string names;
  for (const SceneKind kind : kSceneKinds) {
    names += fmt::format("{}'{}'", names.empty() ? "" : ", ", scene_name(kind));
  }
  return names;
}

SceneKind parse_scene(const std::string& text) {
  if (const std::optional<SceneKind> kind = parse_scene_kind(text)) return *kind;
  bad(fmt::format("--scene must be one of {}, got '{}'", scene_list(), shown(text)));
}

bool parse_vsync(const std::string& text) {
  if (text == "on") return true;
  if (text == "off") return false;
  bad(fmt::format("--vsync must be 'on' or 'off', got '{}'", shown(text)));
}

// One value-taking flag: its name, what --help says, and the range an error message names.
struct ValueFlag {
  const char* name;
  const char* value_name;
  std::string help;
  std::string valid;  // for "needs a value" errors
  std::string text;   // what the user gave
  CLI::Option* option = nullptr;
};

std::string help_footer() {
  return fmt::format(
      "Modes:\n"
      "  without --headless  the SDL2 demo (needs a display; try xvfb-run or --headless)\n"
      "  with --headless     runs the simulation without a window and prints a summary\n"
      "                      (--json: exactly one JSON object on stdout)\n"
      "Caps: --sprites <= {}, --ticks <= {}, --frames <= {}.\n"
      "Exit codes: 0 success, 1 --verify found a broad-phase mismatch, 2 bad input or no "
      "display.\n"
      "Examples:\n"
      "  quadpool --sprites 20000\n"
      "  quadpool --headless --sprites 100000 --ticks 600 --json\n"
      "  quadpool --headless --scene mixed --sprites 20000 --ticks 300 --json\n"
      "  quadpool --headless --switch-allocator-every 7 --verify\n",
      kMaxSprites, kMaxTicks, kMaxFrames);
}

CommandLine parse_or_throw(std::span<const char* const> args, std::string& help_text) {
  CommandLine command;
  const HeadlessOptions headless_defaults;
  const DemoOptions demo_defaults;

  CLI::App app{"quadpool: pooled quad-tree collision demo and headless tick runner", "quadpool"};
  app.footer(help_footer());
  app.get_formatter()->column_width(34);

  std::vector<ValueFlag> values = {
      {"--sprites",
       "N",
       fmt::format("Number of sprites, 1..{} (default {})", kMaxSprites, headless_defaults.sprites),
       range_text(1, kMaxSprites),
       {}},
      {"--seed",
       "S",
       fmt::format("Scene seed, 0..2^64-1 (default {})", headless_defaults.seed),
       range_text(0, std::numeric_limits<std::uint64_t>::max()),
       {}},
      {"--scene",
       "uniform|clustered|mixed|streams",
       "Where the sprites start and how big they are (default uniform; see game/README.md)",
       fmt::format("one of {}", scene_list()),
       {}},
      {"--allocator",
       "pool|new-delete",
       "Where the quad-tree's nodes come from (default pool)",
       "'pool' or 'new-delete'",
       {}},
      {"--ticks",
       "T",
       fmt::format("Headless: ticks to run, 1..{} (default {})", kMaxTicks,
                   headless_defaults.ticks),
       range_text(1, kMaxTicks),
       {}},
      {"--switch-allocator-every",
       "K",
       fmt::format("Headless: alternate pool and new-delete every K ticks, 1..{} (default: never)",
                   kMaxTicks),
       range_text(1, kMaxTicks),
       {}},
      {"--window",
       "WxH",
       fmt::format("Demo: window size, width {}..{}, height {}..{} (default {}x{})",
                   kMinWindowWidth, kMaxWindowWidth, kMinWindowHeight, kMaxWindowHeight,
                   demo_defaults.window_width, demo_defaults.window_height),
       "WIDTHxHEIGHT",
       {}},
      {"--frames",
       "F",
       fmt::format("Demo: quit after F frames, 1..{} (default: run until closed)", kMaxFrames),
       range_text(1, kMaxFrames),
       {}},
      {"--screenshot",
       "FILE",
       "Demo: save the last frame as FILE, .png or .bmp (default: none)",
       "a .png or .bmp file name",
       {}},
      {"--vsync",
       "on|off",
       "Demo: wait for the display's refresh (default on)",
       "'on' or 'off'",
       {}},
  };
  bool headless = false;
  bool verify = false;
  bool json = false;
  bool ab = false;
  app.add_flag("--headless", headless, "Run without a window (no display needed)")
      ->disable_flag_override();
  for (ValueFlag& flag : values) {
    flag.option = app.add_option(flag.name, flag.text, flag.help)->type_name(flag.value_name);
  }
  CLI::Option* verify_flag =
      app.add_flag("--verify", verify,
                   "Headless: check the tree's pairs against a sweep-and-prune reference every "
                   "tick; exit 1 on a mismatch")
          ->disable_flag_override();
  CLI::Option* json_flag =
      app.add_flag("--json", json, "Headless: print exactly one JSON object on stdout")
          ->disable_flag_override();
  CLI::Option* ab_flag =
      app.add_flag("--ab", ab,
                   "Demo: start an A/B run (pool against new-delete) on the first frame; with "
                   "--frames its result goes into the JSON summary")
          ->disable_flag_override();
  help_text = app.help();

  // The vector overload of parse() takes the arguments without the program name, reversed.
  std::vector<std::string> argv(args.begin() + (args.empty() ? 0 : 1), args.end());
  std::reverse(argv.begin(), argv.end());
  try {
    app.parse(argv);
  } catch (const CLI::CallForHelp&) {
    command.mode = CommandLine::Mode::Help;
    return command;
  } catch (const CLI::ExtrasError& e) {
    const std::string what = e.what();
    const std::size_t colon = what.find(':');
    const std::string extras = colon == std::string::npos ? what : what.substr(colon + 2);
    bad(
        fmt::format("unknown flag or unexpected argument '{}'; run 'quadpool --help' for the "
                    "flags",
                    shown(extras)));
  } catch (const CLI::ParseError& e) {
    const std::string what = e.what();
    for (const char* name : {"headless", "verify", "json", "ab"}) {
      if (what.rfind(std::string(name) + " was given a disallowed flag override", 0) == 0) {
        bad(fmt::format("--{} is a switch and takes no value", name));
      }
    }
    for (const ValueFlag& flag : values) {
      if (what.rfind(std::string(flag.name) + ":", 0) != 0) continue;
      if (flag.option->count() > 1) bad(fmt::format("{} was given more than once", flag.name));
      bad(fmt::format("{} needs a value: {}", flag.name, flag.valid));
    }
    bad(fmt::format("{}; run 'quadpool --help' for the flags", shown(what, 200)));
  }

  const auto given = [](const CLI::Option* option) { return option->count() > 0; };
  const auto value_of = [&](const char* name) -> const ValueFlag& {
    return *std::find_if(values.begin(), values.end(),
                         [&](const ValueFlag& f) { return std::string(f.name) == name; });
  };

  for (const char* name : {"--window", "--frames", "--screenshot", "--vsync"}) {
    if (headless && given(value_of(name).option)) {
      bad(fmt::format("{} is a demo flag and cannot be used with --headless", name));
    }
  }
  if (headless && given(ab_flag)) bad("--ab is a demo flag and cannot be used with --headless");
  if (!headless) {
    for (const char* name : {"--ticks", "--switch-allocator-every"}) {
      if (given(value_of(name).option)) bad(fmt::format("{} needs --headless", name));
    }
    if (given(verify_flag)) bad("--verify needs --headless");
    if (given(json_flag)) bad("--json needs --headless");
  }

  HeadlessOptions& run = command.headless;
  DemoOptions& demo = command.demo;
  if (const ValueFlag& f = value_of("--sprites"); given(f.option)) {
    run.sprites = demo.sprites = parse_integer(f.name, f.text, 1, kMaxSprites);
  } else {
    run.sprites = headless_defaults.sprites;
    demo.sprites = demo_defaults.sprites;
  }
  if (const ValueFlag& f = value_of("--seed"); given(f.option)) {
    run.seed = demo.seed =
        parse_integer(f.name, f.text, 0, std::numeric_limits<std::uint64_t>::max());
  }
  if (const ValueFlag& f = value_of("--scene"); given(f.option)) {
    run.scene = demo.scene = parse_scene(f.text);
  }
  if (const ValueFlag& f = value_of("--allocator"); given(f.option)) {
    run.allocator = demo.allocator = parse_allocator(f.text);
  }
  if (const ValueFlag& f = value_of("--ticks"); given(f.option)) {
    run.ticks = parse_integer(f.name, f.text, 1, kMaxTicks);
  }
  if (const ValueFlag& f = value_of("--switch-allocator-every"); given(f.option)) {
    run.switch_allocator_every = parse_integer(f.name, f.text, 1, kMaxTicks);
  }
  if (const ValueFlag& f = value_of("--window"); given(f.option)) parse_window(f.text, demo);
  if (const ValueFlag& f = value_of("--frames"); given(f.option)) {
    demo.frames = parse_integer(f.name, f.text, 1, kMaxFrames);
  }
  if (const ValueFlag& f = value_of("--screenshot"); given(f.option))
    parse_screenshot(f.text, demo);
  if (const ValueFlag& f = value_of("--vsync"); given(f.option)) demo.vsync = parse_vsync(f.text);
  demo.ab = ab;
  run.verify = verify;
  run.json = json;
  command.mode = headless ? CommandLine::Mode::Headless : CommandLine::Mode::Demo;
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
