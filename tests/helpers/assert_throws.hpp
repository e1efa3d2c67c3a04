#pragma once
// Test helpers shared by every module's tests.

#include <cstddef>
#include <stdexcept>
#include <string>

#include "engine/core/assert.hpp"

namespace quadpool::test {

/// Thrown by the handler that ScopedThrowingAsserts installs; what() is the assert's message.
struct AssertionError : std::logic_error {
  using std::logic_error::logic_error;
};

/// While alive, a failed QUADPOOL_ASSERT throws AssertionError instead of aborting, so a test
/// can check the message without a death test's fork. Death tests still cover the real abort.
class ScopedThrowingAsserts {
 public:
  ScopedThrowingAsserts();
  ~ScopedThrowingAsserts();
  ScopedThrowingAsserts(const ScopedThrowingAsserts&) = delete;
  ScopedThrowingAsserts& operator=(const ScopedThrowingAsserts&) = delete;

 private:
  AssertHandler previous_;
};

/// Counts constructions and destructions of a type, to prove that a pool runs each exactly once.
struct LifetimeCounter {
  static inline std::size_t constructed = 0;
  static inline std::size_t destroyed = 0;
  static void reset() { constructed = destroyed = 0; }
  static std::size_t alive() { return constructed - destroyed; }
};

/// Prints the seed of a randomised test in its output and returns it. The seed comes from the
/// environment variable QUADPOOL_TEST_SEED when set, so a failure can be replayed.
unsigned long long announce_seed(const char* test_name, unsigned long long default_seed);

}  // namespace quadpool::test
