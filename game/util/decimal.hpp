#pragma once
/// The one reading of a user's whole number (a flag's value, a frame in a key script).

#include <cstdint>
#include <optional>
#include <string_view>

namespace quadpool::game::util {

/// `text` as a decimal number: digits only (no sign, space, exponent or hex prefix; leading
/// zeros allowed, and never octal), in 0..2^64-1. Empty for anything else, including a value
/// that does not fit (strtoull would saturate it, and wrap " -1" to 2^64-1).
std::optional<std::uint64_t> parse_decimal(std::string_view text);

}  // namespace quadpool::game::util
