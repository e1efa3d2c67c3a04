// Tests of game/decimal.*: the one reading of a user's whole number.
#include "game/util/decimal.hpp"

#include <string>

#include <gtest/gtest.h>

namespace quadpool::game {
namespace {

TEST(ParseDecimal, ReadsDigitsOnlyAndLeadingZerosAreNotOctal) {
  EXPECT_EQ(util::parse_decimal("0"), 0u);
  EXPECT_EQ(util::parse_decimal("010"), 10u);
  EXPECT_EQ(util::parse_decimal("18446744073709551615"), 18446744073709551615u);
  EXPECT_EQ(util::parse_decimal(std::string(100, '0') + "7"), 7u);
}

TEST(ParseDecimal, RefusesSignsSpacesOtherBasesAndValuesPast64Bits) {
  for (const char* bad : {"", " 1", "1 ", " -1", "-1", "+1", "0x10", "1e3", "1.5", "nan",
                          "18446744073709551616", "99999999999999999999999"}) {
    EXPECT_FALSE(util::parse_decimal(bad).has_value()) << "'" << bad << "'";
  }
}

}  // namespace
}  // namespace quadpool::game
