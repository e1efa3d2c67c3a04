#pragma once
/// The engine logger: one spdlog logger named "quadpool", writing to stderr with colours when
/// stderr is a terminal. Everything in the engine and the game logs through it, so one call to
/// `logger().set_level(...)` quiets or widens the whole program.

#include <spdlog/spdlog.h>

namespace quadpool {

/// The process-wide engine logger, created on first use. Thread-safe.
spdlog::logger& logger();

}  // namespace quadpool
