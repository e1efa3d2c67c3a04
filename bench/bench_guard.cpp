#include "bench/bench_guard.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "engine/memory/debug.hpp"

namespace quadpool::bench {
namespace {

const char* on_off(bool on) { return on ? "ON" : "off"; }

std::string describe(const memory::debug::Switches& s) {
  return std::string("fill ") + on_off(s.fill) + ", slot_state " + on_off(s.slot_state) +
         ", pointer_checks " + on_off(s.pointer_checks) + ", leak_check " + on_off(s.leak_check);
}

}  // namespace

bool guard_checked_build(int& argc, char** argv) {
  bool allowed = false;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], kAllowCheckedBuildFlag) == 0) {
      allowed = true;
      continue;
    }
    argv[kept++] = argv[i];
  }
  argc = kept;

  // The library's own value, not this file's: engine_memory is what the benchmarks measure.
  const memory::debug::Switches switches = memory::debug::compiled_switches();
  const bool checked = memory::debug::any_checks(switches);
  benchmark::AddCustomContext("quadpool_asserts", on_off(switches.asserts));
  benchmark::AddCustomContext("quadpool_memory_checks", describe(switches));
  if (!checked) return true;
  if (!allowed) {
    std::fprintf(stderr,
                 "%s: refusing to benchmark a checked build (asserts %s; %s): the numbers would "
                 "measure the checks. Build with `cmake --preset bench`, or pass %s to run "
                 "anyway.\n",
                 argv[0], on_off(switches.asserts), describe(switches).c_str(),
                 kAllowCheckedBuildFlag);
    return false;
  }
  benchmark::AddCustomContext("WARNING",
                              "CHECKED BUILD: asserts or memory debug checks are compiled in; "
                              "these numbers do not describe the shipped pool");
  std::fprintf(stderr, "***WARNING*** %s: checked build, numbers are not representative\n",
               argv[0]);
  return true;
}

bool read_int_flag(const char* program, const char* arg, const char* name, int lo, int hi,
                   int& out) {
  const std::size_t length = std::strlen(name);
  if (std::strncmp(arg, name, length) != 0 || arg[length] != '=') return false;
  const char* text = arg + length + 1;
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  if (*text == '\0' || *end != '\0' || value < lo || value > hi) {
    std::fprintf(stderr, "%s: %s is '%s'; it must be an integer in %d..%d\n", program, name, text,
                 lo, hi);
    std::exit(2);
  }
  out = static_cast<int>(value);
  return true;
}

}  // namespace quadpool::bench
