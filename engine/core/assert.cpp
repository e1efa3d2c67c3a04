#include "engine/core/assert.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>

#include "engine/core/log.hpp"

namespace quadpool {
namespace {
std::atomic<AssertHandler> g_handler{nullptr};
}  // namespace

AssertHandler set_assert_handler(AssertHandler handler) noexcept {
  return g_handler.exchange(handler);
}

void default_assert_handler(const AssertionInfo& info) {
  logger().critical("assertion failed: {} ({}) at {}:{}", info.message, info.condition, info.file,
                    info.line);
  logger().flush();
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
