#pragma once
// The one way a test says it cannot run in this build: a GTEST_SKIP with the reason, which ctest
// and the gtest summary count as skipped (never as passed). Use it at the top of a test body.

#include <gtest/gtest.h>

#include "engine/core/assert.hpp"

/// Skips the current test, naming `what`, when `compiled_in` is false.
#define QUADPOOL_SKIP_UNLESS(compiled_in, what) \
  if (!(compiled_in)) GTEST_SKIP() << what << " is compiled out in this build"

/// Skips a test that needs QUADPOOL_ASSERT: death tests, assert-handler tests, validate().
#define QUADPOOL_SKIP_WITHOUT_ASSERTS() \
  QUADPOOL_SKIP_UNLESS(::quadpool::kAssertsEnabled, "QUADPOOL_ASSERT (QUADPOOL_ASSERTS=OFF)")
