#pragma once
/// The game's logger: one spdlog logger named "quadpool", writing to stderr with colours when
/// stderr is a terminal. The game logs through it, and the engine's messages reach it too once
/// `send_engine_log_to_logger()` has run (the engine itself has no spdlog: engine/core/log.hpp),
/// so one call to `logger().set_level(...)` quiets or widens the whole program.

#include <spdlog/spdlog.h>

namespace quadpool::game::util {

/// The process-wide game logger, created on first use. Thread-safe.
spdlog::logger& logger();

/// Installs an engine log handler (quadpool::set_log_handler) that writes each engine message
/// through logger() at the matching level, flushing after a critical one (a failed assertion,
/// right before the abort). Call it once at start-up.
void send_engine_log_to_logger();

}  // namespace quadpool::game::util
