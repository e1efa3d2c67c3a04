#include "engine/memory/debug.hpp"

namespace quadpool::memory::debug {

// Out of line on purpose: this is the value compiled into the library, whatever a caller's file
// saw in the header.
Switches compiled_switches() noexcept { return kSwitches; }

}  // namespace quadpool::memory::debug
