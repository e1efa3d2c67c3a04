#pragma once
// A strict JSON reader for tests of the programs' JSON output (the headless runner's report, the
// demo's exit summary).

#include <cctype>
#include <map>
#include <optional>
#include <string>

namespace quadpool::test {

// A strict reader for the JSON subset the runner writes (objects, arrays, strings without
// escapes other than \" and \\, numbers, true, false, null). It flattens nested keys with dots:
// {"tick_ms": {"median": 1}} gives "tick_ms.median" -> "1", {"scores": [5, 7]} gives
// "scores" -> "2", "scores.0" -> "5", "scores.1" -> "7". Anything else fails the parse.
class FlatJson {
 public:
  static std::optional<std::map<std::string, std::string>> parse(const std::string& text) {
    FlatJson reader(text);
    if (!reader.object("")) return std::nullopt;
    reader.skip_space();
    if (reader.pos_ != text.size()) return std::nullopt;  // exactly one object, nothing after
    return reader.values_;
  }

 private:
  explicit FlatJson(const std::string& text) : text_(text) {}

  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool eat(char c) {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  std::optional<std::string> string() {
    if (!eat('"')) return std::nullopt;
    std::string out;
    while (pos_ < text_.size() && text_[pos_] != '"') {
      if (text_[pos_] == '\\') ++pos_;
      if (pos_ < text_.size()) out += text_[pos_++];
    }
    if (pos_ >= text_.size()) return std::nullopt;
    ++pos_;
    return out;
  }
  bool object(const std::string& prefix) {
    if (!eat('{')) return false;
    if (eat('}')) return true;
    do {
      const auto key = string();
      if (!key || !eat(':')) return false;
      const std::string path = prefix.empty() ? *key : prefix + "." + *key;
      if (values_.count(path) != 0) return false;  // duplicate key
      if (!value(path)) return false;
    } while (eat(','));
    return eat('}');
  }
  // An array's elements are "path.0", "path.1", ...; "path" holds its length.
  bool array(const std::string& path) {
    if (!eat('[')) return false;
    std::size_t n = 0;
    if (!eat(']')) {
      do {
        if (!value(path + "." + std::to_string(n++))) return false;
      } while (eat(','));
      if (!eat(']')) return false;
    }
    values_[path] = std::to_string(n);
    return true;
  }
  bool value(const std::string& path) {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == '{') {
      values_[path] = "{}";
      return object(path);
    }
    if (pos_ < text_.size() && text_[pos_] == '[') return array(path);
    if (pos_ < text_.size() && text_[pos_] == '"') {
      const auto text = string();
      if (!text) return false;
      values_[path] = *text;
      return true;
    }
    const std::size_t start = pos_;
    while (pos_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '.' ||
            text_[pos_] == '-' || text_[pos_] == '+')) {
      ++pos_;
    }
    const std::string scalar = text_.substr(start, pos_ - start);
    if (scalar.empty()) return false;
    if (scalar != "true" && scalar != "false" && scalar != "null") {
      std::size_t used = 0;
      try {
        (void)std::stod(scalar, &used);
      } catch (...) {
        return false;
      }
      if (used != scalar.size()) return false;
    }
    values_[path] = scalar;
    return true;
  }

  const std::string& text_;
  std::size_t pos_ = 0;
  std::map<std::string, std::string> values_;
};

}  // namespace quadpool::test
