// str_cat (engine/core/str_cat.hpp) writes what fmt's "{}" wrote for the engine's messages.
#include "engine/core/str_cat.hpp"

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include <gtest/gtest.h>

namespace quadpool {
namespace {

TEST(StrCat, WritesIntegersInDecimalAtTheirFullRange) {
  EXPECT_EQ(str_cat(std::numeric_limits<std::uint64_t>::max()), "18446744073709551615");
  EXPECT_EQ(str_cat(std::numeric_limits<std::int64_t>::min()), "-9223372036854775808");
  EXPECT_EQ(str_cat(0), "0");
}

TEST(StrCat, WritesSmallIntegerTypesAsNumbersAndCharAsACharacter) {
  EXPECT_EQ(str_cat(std::uint8_t{200}, std::int8_t{-3}, 'x'), "200-3x");
}

TEST(StrCat, WritesBoolAsAWordAndFloatingPointInItsShortestForm) {
  EXPECT_EQ(str_cat(true, " ", false), "true false");
  EXPECT_EQ(str_cat(0.1, " ", 1.5f, " ", 1e300), "0.1 1.5 1e+300");
}

TEST(StrCat, JoinsLiteralsViewsStringsAndArraysUpToTheirNul) {
  const std::string text = "string";
  const char buffer[16] = "array";
  EXPECT_EQ(str_cat("literal ", std::string_view("view "), text, " ", buffer, "."),
            "literal view string array.");
}

}  // namespace
}  // namespace quadpool
