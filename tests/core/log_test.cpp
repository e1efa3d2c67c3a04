// The engine's log hook (engine/core/log.hpp) and the assert handler's use of it.
#include "engine/core/log.hpp"

#include <cstdio>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "engine/core/assert.hpp"

namespace quadpool {
namespace {

std::vector<std::pair<LogLevel, std::string>>& received() {
  static std::vector<std::pair<LogLevel, std::string>> messages;
  return messages;
}

void record(LogLevel level, std::string_view message) {
  received().emplace_back(level, std::string(message));
}

// Installs `record` for one test and puts the previous handler back.
class LogHook : public ::testing::Test {
 protected:
  void SetUp() override {
    received().clear();
    previous_ = set_log_handler(&record);
  }
  void TearDown() override { set_log_handler(previous_); }

 private:
  LogHandler previous_ = nullptr;
};

TEST_F(LogHook, AnInstalledHandlerReceivesEachMessageWithItsLevel) {
  log_message(LogLevel::Warning, "first");
  log_message(LogLevel::Critical, "second");
  ASSERT_EQ(received().size(), 2u);
  EXPECT_EQ(received()[0], std::make_pair(LogLevel::Warning, std::string("first")));
  EXPECT_EQ(received()[1], std::make_pair(LogLevel::Critical, std::string("second")));
}

TEST_F(LogHook, SetReturnsThePreviousHandlerAndNullRestoresTheDefault) {
  EXPECT_EQ(set_log_handler(nullptr), &record);
  testing::internal::CaptureStderr();
  log_message(LogLevel::Warning, "to stderr");
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(err, "[quadpool] [warning] to stderr\n");
  EXPECT_TRUE(received().empty());
}

// The default assert handler writes through the hook, then aborts (in every build: this calls
// the handler directly rather than through QUADPOOL_ASSERT).
TEST(LogHookDeathTest, TheDefaultAssertHandlerWritesThroughTheHookThenAborts) {
  EXPECT_DEATH(
      {
        set_log_handler([](LogLevel level, std::string_view message) {
          std::fprintf(stderr, "hook got %s: %.*s\n", log_level_name(level).data(),
                       static_cast<int>(message.size()), message.data());
        });
        assertion_failed(AssertionInfo{"x > 0", "x must be positive", "file.cpp", 7});
      },
      "hook got critical: assertion failed: x must be positive \\(x > 0\\) at file.cpp:7");
}

}  // namespace
}  // namespace quadpool
