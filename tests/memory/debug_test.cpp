// Tests of engine/memory/debug.*: the generated config header is one decision per build.
#include "engine/memory/debug.hpp"

#include <gtest/gtest.h>

namespace quadpool::memory::debug {
namespace {

TEST(DebugSwitches, TheTestSeesTheSwitchesTheLibraryWasCompiledWith) {
  const Switches library = compiled_switches();
  EXPECT_EQ(library, kSwitches) << "library: asserts " << library.asserts << " fill " << library.fill
                                << " slot_state " << library.slot_state << " pointer_checks "
                                << library.pointer_checks << " leak_check " << library.leak_check;
}

TEST(DebugSwitches, AnyChecksIsFalseOnlyWhenEverySwitchIsOff) {
  EXPECT_FALSE(any_checks(Switches{false, false, false, false, false}));
  EXPECT_TRUE(any_checks(Switches{false, false, false, false, true}));
  EXPECT_TRUE(any_checks(Switches{true, false, false, false, false}));
}

}  // namespace
}  // namespace quadpool::memory::debug
