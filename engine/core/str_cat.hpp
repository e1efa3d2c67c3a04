#pragma once
/// str_cat(parts...): one std::string from strings and numbers, for the engine's error messages.
/// The engine cannot use fmt (it depends on nothing but the standard library) nor <format>
/// (GCC 12 has none). Numbers are written as fmt's "{}" writes them: integers in decimal,
/// `signed char` and `unsigned char` (std::uint8_t) as numbers too, bool as true or false,
/// floating point in its shortest round-trip form; never through the C locale.

#include <algorithm>
#include <charconv>
#include <concepts>
#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>

namespace quadpool {
namespace detail {

inline void append_part(std::string& out, std::string_view text) { out += text; }

// A literal or a char array, up to its first NUL. Without this overload GCC 12 weighs the
// array-to-bool conversion of the bool overload and warns that the array is never null.
template <std::size_t N>
void append_part(std::string& out, const char (&text)[N]) {
  out.append(text, static_cast<std::size_t>(std::find(text, text + N, '\0') - text));
}

template <class T>
  requires std::same_as<T, char>
void append_part(std::string& out, T c) {
  out += c;
}

template <class T>
  requires std::same_as<T, bool>
void append_part(std::string& out, T value) {
  out += value ? "true" : "false";
}

template <class T>
  requires(std::is_arithmetic_v<T> && !std::same_as<T, bool> && !std::same_as<T, char>)
void append_part(std::string& out, T value) {
  char buffer[64];  // the longest double in shortest form is 24 characters
  const auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value);
  if (error == std::errc{}) out.append(buffer, end);
}

}  // namespace detail

/// Concatenates `parts`: anything convertible to std::string_view, a char, a bool or a number.
/// Allocates; meant for messages on error paths, not for hot loops.
template <class... Parts>
std::string str_cat(const Parts&... parts) {
  std::string out;
  (detail::append_part(out, parts), ...);
  return out;
}

}  // namespace quadpool
