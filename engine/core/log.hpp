#pragma once
/// The engine's log hook. The engine writes a message only where nothing else can tell the user
/// (a pool destroyed with live blocks while the leak check is off, a failed assertion), and it
/// writes it through one function pointer, so that a game sends it to its own logger: the
/// quadpool game installs one that writes through spdlog (game/util/log.hpp). Without a handler the
/// message goes to stderr as one line, `[quadpool] [warning] ...`. The engine itself needs no
/// logging library.

#include <string_view>

namespace quadpool {

/// How serious a message is, from least to most.
enum class LogLevel { Debug, Info, Warning, Error, Critical };

/// "debug", "info", "warning", "error" or "critical".
std::string_view log_level_name(LogLevel level) noexcept;

/// Receives every engine message; `message` is only valid during the call. It may be called from
/// any thread that uses the engine, so it must be thread-safe. It must not throw.
using LogHandler = void (*)(LogLevel level, std::string_view message);

/// Installs `handler` (nullptr restores the default) and returns the previous one (nullptr when
/// it was the default). Thread-safe.
LogHandler set_log_handler(LogHandler handler) noexcept;

/// Writes `[quadpool] [<level>] <message>` and a newline to stderr, in one write.
void default_log_handler(LogLevel level, std::string_view message) noexcept;

/// Passes the message to the installed handler.
void log_message(LogLevel level, std::string_view message) noexcept;

}  // namespace quadpool
