#include "engine/core/log.hpp"

#include <memory>

#include <spdlog/sinks/stdout_color_sinks.h>

namespace quadpool {

spdlog::logger& logger() {
  // stderr, so that stdout stays clean for the headless runner's JSON.
  static const std::shared_ptr<spdlog::logger> instance = [] {
    auto created = spdlog::stderr_color_mt("quadpool");
    created->set_pattern("[%H:%M:%S.%e] [%^%l%$] %v");
    return created;
  }();
  return *instance;
}

}  // namespace quadpool
