#include "game/util/decimal.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <system_error>

namespace quadpool::game::util {

std::optional<std::uint64_t> parse_decimal(std::string_view text) {
  const bool digits = !text.empty() && std::all_of(text.begin(), text.end(), [](unsigned char c) {
    return std::isdigit(c) != 0;
  });
  if (!digits) return std::nullopt;
  std::uint64_t value = 0;
  const char* last = text.data() + text.size();
  const auto [end, code] = std::from_chars(text.data(), last, value);
  if (code != std::errc{} || end != last) return std::nullopt;
  return value;
}

}  // namespace quadpool::game::util
