#pragma once
// Runs the built quadpool executable from a test. Its path comes from the compile definition
// QUADPOOL_EXE ($<TARGET_FILE:quadpool>).

#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace quadpool::test {

struct ProcessResult {
  int exit_code = -1;  // -1 when the process did not exit normally (a crash)
  std::string output;
};

enum class Capture { Stdout, Stderr, Both };

/// Runs a shell command (sh), capturing its stdout, its stderr or both.
inline ProcessResult run_command(const std::string& command, Capture capture) {
  const char* redirect = capture == Capture::Stdout   ? " 2>/dev/null"
                         : capture == Capture::Stderr ? " 2>&1 >/dev/null"
                                                      : " 2>&1";
  const std::string redirected = command + redirect;
  ProcessResult result;
  FILE* pipe = popen(redirected.c_str(), "r");
  if (pipe == nullptr) return result;
  char buffer[4096];
  std::size_t got = 0;
  while ((got = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) result.output.append(buffer, got);
  const int status = pclose(pipe);
  if (status != -1 && WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  return result;
}

/// Runs `quadpool ARGS` through the shell (sh); ARGS is pasted as is, so quote it yourself.
/// `before` runs first in the same shell, e.g. "ulimit -f 8" or "unset DISPLAY".
inline ProcessResult run_quadpool(const std::string& args, Capture capture,
                                  const std::string& before = "") {
  return run_command((before.empty() ? "" : before + "; ") + "'" + QUADPOOL_EXE + "' " + args,
                     capture);
}

/// Runs `quadpool ARGS` on a virtual X screen of its own, `screen` (WIDTHxHEIGHT) at 24 bits,
/// through xvfb-run. X's libraries leak at exit: the leak checker is off in this child.
inline ProcessResult run_quadpool_on_screen(const std::string& screen, const std::string& args,
                                            Capture capture) {
  return run_command("ASAN_OPTIONS=detect_leaks=0 xvfb-run -a -s '-screen 0 " + screen + "x24' '" +
                         QUADPOOL_EXE + "' " + args,
                     capture);
}

}  // namespace quadpool::test
