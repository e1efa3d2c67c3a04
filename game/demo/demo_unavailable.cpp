// Temporary: replaced by the SDL2 + Dear ImGui demo in its issue.
#include <cstdio>

#include "game/demo/demo.hpp"

namespace quadpool::game {

int run_demo(const DemoOptions&) {
  std::fputs("quadpool: the interactive demo is not built yet; run with --headless\n", stderr);
  return 2;
}

}  // namespace quadpool::game
