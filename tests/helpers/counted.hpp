#pragma once
// Objects that count their constructions and destructions in LifetimeCounter, for the tests of
// the pools that construct in place: a plain one and one whose constructor throws when asked.

#include <stdexcept>

#include "tests/helpers/assert_throws.hpp"

namespace quadpool::test {

struct Counted {
  explicit Counted(int v) : value(v) { ++LifetimeCounter::constructed; }
  ~Counted() { ++LifetimeCounter::destroyed; }
  Counted(const Counted&) = delete;
  Counted& operator=(const Counted&) = delete;
  int value;
};

struct ThrowsWhenAsked {
  explicit ThrowsWhenAsked(bool fail) {
    if (fail) throw std::runtime_error("constructor failed");
    ++LifetimeCounter::constructed;
  }
  ~ThrowsWhenAsked() { ++LifetimeCounter::destroyed; }
  char payload[40];
};

}  // namespace quadpool::test
