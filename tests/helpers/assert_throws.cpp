#include "tests/helpers/assert_throws.hpp"

#include <cstdio>
#include <cstdlib>

#include <gtest/gtest.h>

namespace quadpool::test {
namespace {
[[noreturn]] void throwing_handler(const AssertionInfo& info) {
  throw AssertionError(std::string(info.message));
}
}  // namespace

ScopedThrowingAsserts::ScopedThrowingAsserts() : previous_(set_assert_handler(&throwing_handler)) {}
ScopedThrowingAsserts::~ScopedThrowingAsserts() { set_assert_handler(previous_); }

unsigned long long announce_seed(const char* test_name, unsigned long long default_seed) {
  unsigned long long seed = default_seed;
  if (const char* env = std::getenv("QUADPOOL_TEST_SEED"); env != nullptr && *env != '\0') {
    seed = std::strtoull(env, nullptr, 0);
  }
  std::printf("[ seed     ] %s: seed %llu (replay with QUADPOOL_TEST_SEED=%llu)\n", test_name, seed,
              seed);
  std::fflush(stdout);
  ::testing::Test::RecordProperty("seed", std::to_string(seed));
  return seed;
}

}  // namespace quadpool::test
