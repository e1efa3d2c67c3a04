#include "engine/core/log.hpp"

#include <atomic>
#include <cstdio>

namespace quadpool {
namespace {
std::atomic<LogHandler> g_handler{nullptr};
}  // namespace

std::string_view log_level_name(LogLevel level) noexcept {
  switch (level) {
    case LogLevel::Debug:
      return "debug";
    case LogLevel::Info:
      return "info";
    case LogLevel::Warning:
      return "warning";
    case LogLevel::Error:
      return "error";
    case LogLevel::Critical:
      return "critical";
  }
  return "unknown";
}

LogHandler set_log_handler(LogHandler handler) noexcept {
  return g_handler.exchange(handler);
}

void default_log_handler(LogLevel level, std::string_view message) noexcept {
  const std::string_view name = log_level_name(level);
  // One fprintf per message: stdio locks the stream for the call, so lines from two threads
  // never interleave. stderr, so that stdout stays clean for a program's own output.
  std::fprintf(stderr, "[quadpool] [%.*s] %.*s\n", static_cast<int>(name.size()), name.data(),
               static_cast<int>(message.size()), message.data());
}

void log_message(LogLevel level, std::string_view message) noexcept {
  const LogHandler handler = g_handler.load();
  if (handler == nullptr) {
    default_log_handler(level, message);
  } else {
    handler(level, message);
  }
}

}  // namespace quadpool
