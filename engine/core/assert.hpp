#pragma once
/// QUADPOOL_ASSERT(cond, message): the one check for programming errors (a double free, a
/// foreign pointer, NaN coordinates). It is compiled in when the generated config header says so
/// (QUADPOOL_CONFIG_ASSERTS, from the CMake cache variable QUADPOOL_ASSERTS; AUTO means Debug,
/// RelWithDebInfo and every build that has the tests). In a copy of the engine built without
/// CMake, the checked-in engine/core/config.hpp says so instead: on unless NDEBUG is defined.
/// When it fires, the installed handler runs; the default one writes the message through the log
/// hook (engine/core/log.hpp) and aborts. Tests may install their own handler, for example one
/// that throws.

#include <string_view>

#include "engine/core/config.hpp"

namespace quadpool {

/// Where a failed assertion happened and what it says.
struct AssertionInfo {
  std::string_view condition;
  std::string_view message;
  std::string_view file;
  int line;
};

/// A handler must not return normally: it aborts, throws or exits. If it returns anyway,
/// `assertion_failed` aborts.
using AssertHandler = void (*)(const AssertionInfo& info);

/// Installs `handler` (nullptr restores the default) and returns the previous one.
AssertHandler set_assert_handler(AssertHandler handler) noexcept;

/// Writes "assertion failed: <message> (<condition>) at <file>:<line>" through the log hook at
/// LogLevel::Critical, then aborts.
[[noreturn]] void default_assert_handler(const AssertionInfo& info);

/// Called by QUADPOOL_ASSERT; runs the installed handler.
[[noreturn]] void assertion_failed(const AssertionInfo& info);

/// True when QUADPOOL_ASSERT is compiled in.
inline constexpr bool kAssertsEnabled = QUADPOOL_CONFIG_ASSERTS != 0;

}  // namespace quadpool

#if QUADPOOL_CONFIG_ASSERTS
#define QUADPOOL_ASSERT(cond, message)                                                   \
  do {                                                                                   \
    if (!(cond)) [[unlikely]] {                                                          \
      ::quadpool::assertion_failed(                                                      \
          ::quadpool::AssertionInfo{#cond, (message), __FILE__, __LINE__});              \
    }                                                                                    \
  } while (false)
#else
// The condition is not evaluated, but it still has to compile.
#define QUADPOOL_ASSERT(cond, message) \
  do {                                 \
    if (false) {                       \
      (void)(cond);                    \
      (void)(message);                 \
    }                                  \
  } while (false)
#endif
