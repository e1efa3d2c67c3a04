#pragma once
/// How an error line quotes a user's value (a flag's value, an environment variable's, a file
/// name), so that the line stays one line and short whatever the user typed, and how it words
/// the system's error.

#include <cstddef>
#include <string>
#include <string_view>

namespace quadpool::game::util {

/// The longest part of a value an error line quotes, in bytes.
inline constexpr std::size_t kShownValueBytes = 40;

/// `text` as an error message quotes it: cut after `longest` bytes (never inside a UTF-8
/// character) with "..." added when cut, and each control character written as an escape
/// ("\n", "\t", "\x1b") so that the message stays on one line.
std::string shown_value(std::string_view text, std::size_t longest = kShownValueBytes);

/// The longest part of a file's path an error line quotes: paths are quoted whole (a user may
/// well have a long home folder), only their control characters escaped.
inline constexpr std::size_t kShownPathBytes = 4096;

/// A file's path as every message about the file quotes it (the replay, the high score, a
/// screenshot): shown_value(path, kShownPathBytes), so that a newline or an escape sequence in
/// a name never splits the line or reaches the terminal.
std::string shown_path(std::string_view path);

/// The system's words for an errno value ("No such file or directory"), as every error line
/// about a file gives them.
std::string system_words(int error);

}  // namespace quadpool::game::util
