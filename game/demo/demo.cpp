// run_demo(): SDL and ImGui set-up and tear-down around the App, and the no-display error.
#include "game/demo/demo.hpp"

#include <SDL.h>
#include <imgui.h>
#include <imgui_impl_sdl.h>
#include <imgui_impl_sdlrenderer.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "game/log.hpp"
#include "engine/spatial/quad_tree.hpp"
#include "game/demo/app.hpp"

namespace quadpool::game {

namespace {

struct SdlVideo {
  ~SdlVideo() { SDL_Quit(); }
};
struct WindowDeleter {
  void operator()(SDL_Window* w) const noexcept { SDL_DestroyWindow(w); }
};
struct RendererDeleter {
  void operator()(SDL_Renderer* r) const noexcept { SDL_DestroyRenderer(r); }
};
struct TextureDeleter {
  void operator()(SDL_Texture* t) const noexcept { SDL_DestroyTexture(t); }
};

struct ImGuiSession {
  ImGuiSession(SDL_Window* window, SDL_Renderer* renderer) {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // no imgui.ini left in the user's working directory
    ImGui::StyleColorsDark();
    // SDL's software renderer draws a quad whose two triangles form an axis-aligned rectangle as
    // one fast blit, and any other triangle through a slow rasterizer. Square corners and no
    // anti-aliasing fringes keep nearly all of ImGui's geometry on the fast path.
    ImGuiStyle& style = ImGui::GetStyle();
    style.AntiAliasedLines = false;
    style.AntiAliasedLinesUseTex = false;
    style.AntiAliasedFill = false;
    style.WindowRounding = style.FrameRounding = style.GrabRounding = 0.0f;
    style.ChildRounding = style.PopupRounding = style.ScrollbarRounding = style.TabRounding = 0.0f;
    ImGui_ImplSDL2_InitForSDLRenderer(window);
    ImGui_ImplSDLRenderer_Init(renderer);
  }
  ~ImGuiSession() {
    ImGui_ImplSDLRenderer_Shutdown();
    ImGui_ImplSDL2_Shutdown();
    ImGui::DestroyContext();
  }
  ImGuiSession(const ImGuiSession&) = delete;
  ImGuiSession& operator=(const ImGuiSession&) = delete;
};

int no_display(const char* what, const char* detail) {
  std::fprintf(stderr,
               "quadpool: cannot open a window: %s (%s).\n"
               "  The demo needs a display. Without one, run the simulation with --headless,\n"
               "  or give the demo a virtual display: xvfb-run -a quadpool [flags]\n",
               what, detail);
  return 2;
}

int no_display(const char* what) {
  return no_display(what, SDL_GetError());
}

bool set_in_environment(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && value[0] != '\0';
}

// True when SDL fell back to a driver that shows nothing (no X or Wayland display) without
// being asked for it by name: the window would be invisible and the demo would run forever.
// Asking by name (SDL_VIDEODRIVER=dummy, as the smoke tests do) is a scripted run, and allowed.
bool fell_back_to_invisible_driver() {
  const char* driver = SDL_GetCurrentVideoDriver();
  if (driver == nullptr) return true;
  if (std::strcmp(driver, "offscreen") != 0 && std::strcmp(driver, "dummy") != 0) return false;
  const char* requested = std::getenv("SDL_VIDEODRIVER");
  return requested == nullptr || std::strcmp(requested, driver) != 0;
}

}  // namespace

int run_demo(const DemoOptions& options) {
  std::vector<demo::ScriptedKey> script;
  if (const char* keys = std::getenv("QUADPOOL_DEMO_KEYS"); keys != nullptr) {
    std::string error;
    script = demo::parse_key_script(keys, error);
    if (!error.empty()) {
      std::fprintf(stderr, "quadpool: %s\n", error.c_str());
      return 2;
    }
  }

  // Defaults only (SDL_HINT_DEFAULT): the SDL_RENDER_DRIVER and SDL_FRAMEBUFFER_ACCELERATION
  // environment variables still win. The software renderer is the one this demo is measured
  // with; under xvfb SDL would otherwise pick OpenGL on Mesa's llvmpipe (about 3x slower here),
  // and present the software renderer's frames through it too instead of through XShm.
  SDL_SetHintWithPriority(SDL_HINT_RENDER_DRIVER, "software", SDL_HINT_DEFAULT);
  SDL_SetHintWithPriority(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0", SDL_HINT_DEFAULT);
  // Nothing to connect to and no driver asked for: say so before SDL_Init, whose Wayland
  // backend would otherwise print "XDG_RUNTIME_DIR is invalid or not set" on stderr first.
  if (!set_in_environment("SDL_VIDEODRIVER") && !set_in_environment("DISPLAY") &&
      !set_in_environment("WAYLAND_DISPLAY")) {
    return no_display("no X11 or Wayland display", "DISPLAY and WAYLAND_DISPLAY are not set");
  }
  if (SDL_Init(SDL_INIT_VIDEO) != 0) return no_display("no video driver could start");
  SdlVideo video;
  if (fell_back_to_invisible_driver()) {
    return no_display("no X11 or Wayland display", "DISPLAY and WAYLAND_DISPLAY are not usable");
  }
  // Without this, SDL turns command batching off as soon as a render driver is chosen by hint
  // (e.g. SDL_RENDER_DRIVER=software), and every sprite batch becomes its own flush.
  SDL_SetHint(SDL_HINT_RENDER_BATCHING, "1");

  // Not SDL_WINDOW_ALLOW_HIGHDPI: mouse events arrive in window units and everything is drawn
  // in renderer pixels, which then stay the same thing.
  std::unique_ptr<SDL_Window, WindowDeleter> window(
      SDL_CreateWindow("quadpool", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED,
                       options.window_width, options.window_height, SDL_WINDOW_RESIZABLE));
  if (!window) return no_display("SDL_CreateWindow failed");
  const Uint32 flags = options.vsync ? SDL_RENDERER_PRESENTVSYNC : 0;
  std::unique_ptr<SDL_Renderer, RendererDeleter> renderer(
      SDL_CreateRenderer(window.get(), -1, flags));
  if (!renderer) return no_display("SDL_CreateRenderer failed");

  std::string error;
  demo::Atlas atlas = demo::load_atlas(renderer.get(), error);
  if (atlas.texture == nullptr) {
    std::fprintf(stderr, "quadpool: %s\n", error.c_str());
    return 1;
  }
  std::unique_ptr<SDL_Texture, TextureDeleter> atlas_texture(atlas.texture);

  SDL_RendererInfo info{};
  SDL_GetRendererInfo(renderer.get(), &info);
  logger().info(
      "demo: {} sprites, seed {}, {}x{} window, renderer {} (video driver {}), vsync {}, pair "
      "kernel {}",
      options.sprites, options.seed, options.window_width, options.window_height,
      info.name ? info.name : "?", SDL_GetCurrentVideoDriver(), options.vsync ? "on" : "off",
      quadpool::spatial::pair_kernel_name());

  ImGuiSession imgui(window.get(), renderer.get());
  demo::App app(window.get(), renderer.get(), atlas, options, std::move(script));
  return app.run();
}

}  // namespace quadpool::game
