// The quadpool executable: the SDL2 demo, or with --headless the tick runner. All parsing is in
// cli.cpp; this file only dispatches and turns escaping exceptions into a message.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <span>

#include "common/heap_counter.hpp"
#include "game/cli.hpp"
#include "game/window/window_options.hpp"
#include "game/headless/headless.hpp"
#include "game/util/log.hpp"

namespace {

// Everything the program printed on stdout (the help, the report, the demo's summary) must have
// reached it: a full disk, a closed stdout or a closed pipe (with SIGPIPE ignored) would
// otherwise lose the result behind exit code 0.
int with_stdout_checked(int exit_code) {
  errno = 0;
  if (std::fflush(stdout) != 0 || std::ferror(stdout) != 0) {
    std::fprintf(stderr, "quadpool: could not write to standard output: %s\n",
                 errno != 0 ? std::strerror(errno) : "write error");
    return exit_code != 0 ? exit_code : 1;
  }
  return exit_code;
}

// A closed standard stream's descriptor goes to the next file or socket the program opens (SDL's
// udev socket, the X connection), and the report would be written there: lost behind exit 0, or
// worse, into the X protocol. A read-only /dev/null holds the slot and makes every write to it
// fail, so a closed stdout is still reported by with_stdout_checked().
void hold_closed_standard_streams() {
  for (int fd = 0; fd <= 2; ++fd) {
    if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    const int held = ::open("/dev/null", O_RDONLY);
    if (held >= 0 && held != fd) {
      ::dup2(held, fd);
      ::close(held);
    }
  }
}

int run(int argc, char** argv) {
  using namespace quadpool::game;
  try {
    const ParseResult parsed =
        parse_command_line(std::span<const char* const>(argv, static_cast<std::size_t>(argc)));
    if (!parsed.command) {
      std::fputs(parsed.message.c_str(), parsed.exit_code == 0 ? stdout : stderr);
      if (!parsed.message.empty() && parsed.message.back() != '\n') {
        std::fputc('\n', parsed.exit_code == 0 ? stdout : stderr);
      }
      return parsed.exit_code;
    }
    if (parsed.command->mode == CommandLine::Mode::Headless) {
      // This executable links quadpool::heap_hook, so the counter exists here.
      return headless::run_headless(parsed.command->headless, &quadpool::heap_allocations);
    }
    window::WindowOptions demo = parsed.command->demo;
    // As for the runner: this executable links the hook.
    return window::run_window(demo, &quadpool::heap_allocations);
  } catch (const std::bad_alloc&) {
    std::fputs("quadpool: out of memory\n", stderr);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "quadpool: %s\n", e.what());
  }
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  hold_closed_standard_streams();
  // The engine's warnings and failed assertions go through the game's logger, as the game's own
  // messages do.
  quadpool::game::util::send_engine_log_to_logger();
  return with_stdout_checked(run(argc, argv));
}
