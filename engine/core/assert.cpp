#include "engine/core/assert.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>

#include "engine/core/log.hpp"
#include "engine/core/str_cat.hpp"

namespace quadpool {
namespace {
std::atomic<AssertHandler> g_handler{nullptr};
}  // namespace

AssertHandler set_assert_handler(AssertHandler handler) noexcept {
  return g_handler.exchange(handler);
}

void default_assert_handler(const AssertionInfo& info) {
  log_message(LogLevel::Critical, str_cat("assertion failed: ", info.message, " (", info.condition,
                                          ") at ", info.file, ":", info.line));
  std::abort();
}

void assertion_failed(const AssertionInfo& info) {
  AssertHandler handler = g_handler.load();
  if (handler == nullptr) handler = &default_assert_handler;
  handler(info);
  // A handler that returns would let the program run on past a broken invariant.
  std::fputs("quadpool: assert handler returned; aborting\n", stderr);
  std::abort();
}

}  // namespace quadpool
