// Tests of game/shown_value.*: how every error line quotes a user's value.
#include "game/util/shown_value.hpp"

#include <string>

#include <gtest/gtest.h>

namespace quadpool::game {
namespace {

TEST(ShownValue, ControlCharactersAreEscapedSoTheLineStaysOneLine) {
  EXPECT_EQ(util::shown_value("1\n2"), "1\\n2");
  EXPECT_EQ(util::shown_value("a\tb\rc"), "a\\tb\\rc");
  EXPECT_EQ(util::shown_value("\x1b[31mred"), "\\x1b[31mred");
  EXPECT_EQ(util::shown_value(std::string("nul\0here", 8)), "nul\\x00here");
  EXPECT_EQ(util::shown_value("del\x7f"), "del\\x7f");
  EXPECT_EQ(util::shown_value("plain -1:A"), "plain -1:A");
}

TEST(ShownValue, ALongValueIsCutAtFortyBytesAndSaysSo) {
  const std::string value(100, 'v');
  EXPECT_EQ(util::shown_value(value), std::string(util::kShownValueBytes, 'v') + "...");
  EXPECT_EQ(util::shown_value(std::string(util::kShownValueBytes, 'v')),
            std::string(util::kShownValueBytes, 'v'));
  EXPECT_EQ(util::shown_value(value, 10), std::string(10, 'v') + "...");
}

TEST(ShownValue, TheCutNeverSplitsAUtf8Character) {
  std::string value = "a";  // byte 40 falls inside the twentieth two-byte character
  for (int i = 0; i < 30; ++i) value += "\xc3\xa9";
  const std::string shown = util::shown_value(value);
  EXPECT_EQ(shown.size(), 39u + 3u);
  EXPECT_EQ(shown.substr(shown.size() - 5), "\xc3\xa9...");
}

}  // namespace
}  // namespace quadpool::game
