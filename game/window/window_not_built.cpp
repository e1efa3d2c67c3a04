// run_window() in a build without the demo (QUADPOOL_BUILD_DEMO=OFF): the executable then has only
// the headless runner, and says so instead of failing to link or opening nothing.
#include <cstdio>

#include "game/window/window_options.hpp"

namespace quadpool::game::window {

int run_window(const WindowOptions& /*options*/, sim::HeapCounter /*heap_counter*/) {
  std::fputs(
      "quadpool: this build has no demo (it was configured with QUADPOOL_BUILD_DEMO=OFF, for "
      "machines without SDL2 and Dear ImGui); run 'quadpool --headless', or build the demo with "
      "the Debian packages libsdl2-dev, libimgui-dev and libstb-dev installed\n",
      stderr);
  return 2;
}

}  // namespace quadpool::game::window
