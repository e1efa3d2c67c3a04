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

enum class Capture { Stdout, Stderr };

/// Runs `quadpool ARGS` through the shell; ARGS is pasted as is, so quote it yourself.
inline ProcessResult run_quadpool(const std::string& args, Capture capture) {
  const std::string command = std::string("'") + QUADPOOL_EXE + "' " + args +
                              (capture == Capture::Stdout ? " 2>/dev/null" : " 2>&1 >/dev/null");
  ProcessResult result;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return result;
  char buffer[4096];
  std::size_t got = 0;
  while ((got = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) result.output.append(buffer, got);
  const int status = pclose(pipe);
  if (status != -1 && WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  return result;
}

}  // namespace quadpool::test
