#pragma once
/// The command line of the `quadpool` executable: every flag of the demo and of the headless
/// runner, their defaults, their caps, and the one-line errors for bad input.
///
///   quadpool [--sprites N] [--seed S] [--scene KIND] [--allocator pool|new-delete] [--window WxH]
///            [--frames F] [--screenshot FILE] [--vsync on|off] [--ab]   (the SDL2 demo)
///   quadpool --headless [--sprites N] [--ticks T] [--seed S] [--scene KIND]
///            [--allocator pool|new-delete] [--switch-allocator-every K] [--verify] [--json]
///   KIND: uniform|clustered|mixed|streams
///
/// Bad input (a malformed, negative, zero, NaN or absurd value, an unknown flag or allocator, a
/// flag that belongs to the other mode, a flag given twice, a value given to a switch) gives
/// exactly one line that names the flag, the value and the valid range, and exit code 2. The
/// headless options live in headless_options.hpp, the demo's in window_options.hpp; this is only
/// the parser that fills them.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "game/window/window_options.hpp"
#include "game/headless/headless_options.hpp"

namespace quadpool::game {

struct CommandLine {
  enum class Mode { Demo, Headless, Help };
  Mode mode = Mode::Demo;
  headless::HeadlessOptions headless;  // meaningful in Mode::Headless
  window::WindowOptions demo;          // meaningful in Mode::Demo
};

/// Either a command to run, or what to print and the exit code to return.
struct ParseResult {
  std::optional<CommandLine> command;  // empty: print `message` and exit with `exit_code`
  int exit_code = 0;                   // 0 for --help, 2 for bad input
  std::string message;                 // the help text (stdout) or one error line (stderr)
};

/// Parses `args` (args[0] is the program name). Never throws for bad input; never exits.
ParseResult parse_command_line(std::span<const char* const> args);

}  // namespace quadpool::game
