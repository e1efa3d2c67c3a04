#include "game/util/log.hpp"

#include <memory>
#include <string_view>

#include <spdlog/sinks/stdout_color_sinks.h>

#include "engine/core/log.hpp"

namespace quadpool::game::util {
namespace {

spdlog::level::level_enum spdlog_level(LogLevel level) {
  switch (level) {
    case LogLevel::Debug:
      return spdlog::level::debug;
    case LogLevel::Info:
      return spdlog::level::info;
    case LogLevel::Warning:
      return spdlog::level::warn;
    case LogLevel::Error:
      return spdlog::level::err;
    case LogLevel::Critical:
      return spdlog::level::critical;
  }
  return spdlog::level::critical;
}

void write_engine_message(LogLevel level, std::string_view message) {
  logger().log(spdlog_level(level), "{}", message);
  if (level == LogLevel::Critical) logger().flush();
}

}  // namespace

spdlog::logger& logger() {
  // stderr, so that stdout stays clean for the headless runner's JSON.
  static const std::shared_ptr<spdlog::logger> instance = [] {
    auto created = spdlog::stderr_color_mt("quadpool");
    created->set_pattern("[%H:%M:%S.%e] [%^%l%$] %v");
    return created;
  }();
  return *instance;
}

void send_engine_log_to_logger() {
  set_log_handler(&write_engine_message);
}

}  // namespace quadpool::game::util
