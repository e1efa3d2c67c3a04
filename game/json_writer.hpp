#pragma once
/// A minimal JSON writer shared by the headless runner's report and the demo's exit summary:
/// objects, string keys, numbers, booleans, strings, null. Strings escape quotes and
/// backslashes, which is all their keys and values (flags, file names) ever need.

#include <cstdint>
#include <string>

#include <fmt/format.h>

namespace quadpool::game {

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
  void quoted(const std::string& s) {
    out_ += '"';
    for (const char c : s) {
      if (c == '"' || c == '\\') out_ += '\\';
      out_ += c;
    }
    out_ += '"';
  }
  std::string out_;
  bool first_ = true;
};

}  // namespace quadpool::game
