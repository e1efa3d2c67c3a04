#include "game/util/shown_value.hpp"

#include <algorithm>
#include <system_error>

#include <fmt/format.h>

namespace quadpool::game::util {

std::string shown_value(std::string_view text, std::size_t longest) {
  std::size_t cut = std::min(longest, text.size());
  while (cut > 0 && cut < text.size() && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) {
    --cut;  // text[cut] continues a character that starts before it
  }
  std::string out;
  out.reserve(cut + 3);
  for (const char c : text.substr(0, cut)) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte == '\n') {
      out += "\\n";
    } else if (byte == '\r') {
      out += "\\r";
    } else if (byte == '\t') {
      out += "\\t";
    } else if (byte < 0x20 || byte == 0x7F) {
      out += fmt::format("\\x{:02x}", byte);
    } else {
      out += c;
    }
  }
  if (cut < text.size()) out += "...";
  return out;
}

std::string shown_path(std::string_view path) {
  return shown_value(path, kShownPathBytes);
}

std::string system_words(int error) {
  return std::generic_category().message(error);
}

}  // namespace quadpool::game::util
