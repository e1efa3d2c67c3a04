#pragma once
/// A minimal JSON writer shared by the headless runner's report and the demo's exit summary:
/// objects, arrays, string keys, numbers, booleans, strings, null. Any string makes valid JSON:
/// quotes, backslashes and control characters are escaped, and bytes that are not UTF-8 become
/// U+FFFD.

#include <cstddef>
#include <cstdint>
#include <string>

#include <fmt/format.h>

namespace quadpool::game::util {

/// Usage: begin(); number("x", 1); begin("inner"); ...; end(); end(); then text().
class JsonWriter {
 public:
  /// Opens an object; `key` names it inside the enclosing object (nullptr at the top level).
  void begin(const char* key = nullptr) {
    comma(key);
    out_ += '{';
    first_ = true;
  }
  void end() {
    out_ += '}';
    first_ = false;
  }
  /// Opens an array; its values are written with a null key (integer(nullptr, 3), begin()).
  void begin_array(const char* key) {
    comma(key);
    out_ += '[';
    first_ = true;
  }
  void end_array() {
    out_ += ']';
    first_ = false;
  }
  void number(const char* key, double value) {
    comma(key);
    // Times in ms with microsecond-and-below resolution; never NaN or infinite here.
    out_ += fmt::format("{:.4f}", value);
  }
  // Shortest exact form: "0", "0.5".
  void real(const char* key, double value) {
    comma(key);
    out_ += fmt::format("{}", value);
  }
  void integer(const char* key, std::uint64_t value) {
    comma(key);
    out_ += fmt::format("{}", value);
  }
  void boolean(const char* key, bool value) {
    comma(key);
    out_ += value ? "true" : "false";
  }
  void null(const char* key) {
    comma(key);
    out_ += "null";
  }
  void string(const char* key, const std::string& value) {
    comma(key);
    quoted(value);
  }
  /// A file name or other text that may be absent: null when `value` is empty.
  void string_or_null(const char* key, const std::string& value) {
    if (value.empty()) {
      null(key);
    } else {
      string(key, value);
    }
  }
  const std::string& text() const noexcept { return out_; }

 private:
  void comma(const char* key) {
    if (!first_) out_ += ", ";
    first_ = false;
    if (key != nullptr) {
      quoted(key);
      out_ += ": ";
    }
  }
  // JSON strings may hold neither raw control characters nor bytes that are not UTF-8; a file
  // name (--screenshot) or a driver's name can hold both, and one such byte would make the
  // whole report unreadable to a strict parser. Control characters are escaped, and each byte
  // that does not belong to a well-formed UTF-8 character becomes U+FFFD.
  void quoted(const std::string& s) {
    out_ += '"';
    for (std::size_t i = 0; i < s.size();) {
      const auto c = static_cast<unsigned char>(s[i]);
      if (c == '"' || c == '\\') {
        out_ += '\\';
        out_ += static_cast<char>(c);
      } else if (c < 0x20) {
        out_ += fmt::format("\\u{:04x}", c);
      } else if (c >= 0x80) {
        const std::size_t length = utf8_length(s, i);
        out_ += length == 0 ? std::string("\\ufffd") : s.substr(i, length);
        i += length == 0 ? 1 : length;
        continue;
      } else {
        out_ += static_cast<char>(c);
      }
      ++i;
    }
    out_ += '"';
  }
  // The length of the well-formed UTF-8 character that starts at s[at] (a byte >= 0x80), or 0.
  static std::size_t utf8_length(const std::string& s, std::size_t at) {
    const auto lead = static_cast<unsigned char>(s[at]);
    const std::size_t length = lead >= 0xC2 && lead <= 0xDF   ? 2
                               : lead >= 0xE0 && lead <= 0xEF ? 3
                               : lead >= 0xF0 && lead <= 0xF4 ? 4
                                                              : 0;
    if (length == 0 || at + length > s.size()) return 0;
    for (std::size_t k = 1; k < length; ++k) {
      if ((static_cast<unsigned char>(s[at + k]) & 0xC0) != 0x80) return 0;
    }
    const auto second = static_cast<unsigned char>(s[at + 1]);
    // Overlong forms, UTF-16 surrogates and code points above U+10FFFF.
    if ((lead == 0xE0 && second < 0xA0) || (lead == 0xED && second > 0x9F) ||
        (lead == 0xF0 && second < 0x90) || (lead == 0xF4 && second > 0x8F)) {
      return 0;
    }
    return length;
  }
  std::string out_;
  bool first_ = true;
};

}  // namespace quadpool::game::util
