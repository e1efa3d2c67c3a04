// run_window(): SDL and ImGui set-up and tear-down around the App, and the no-display error.
#include "game/window/window_options.hpp"

#include <SDL.h>
#include <imgui.h>
#include <imgui_impl_sdl.h>
#include <imgui_impl_sdlrenderer.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "common/scene/scene.hpp"
#include "common/worker_pool.hpp"
#include "engine/spatial/quad_tree.hpp"
#include "game/play/play_config.hpp"
#include "game/play/replay.hpp"
#include "game/util/decimal.hpp"
#include "game/util/log.hpp"
#include "game/util/regular_file.hpp"
#include "game/util/shown_value.hpp"
#include "game/window/fixed_step.hpp"
#include "game/window/sdl/app.hpp"
#include "game/window/sdl/input.hpp"
#include "game/window/sdl/textures.hpp"

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

// libwayland's rule for wl_display_connect(NULL): $WAYLAND_SOCKET, an absolute
// $WAYLAND_DISPLAY, or a socket under an absolute $XDG_RUNTIME_DIR. Without any of them it can
// only fail, and it says so on stderr ("error: XDG_RUNTIME_DIR is invalid or not set in the
// environment."), which SDL's Wayland backend makes it do whenever X11 cannot open $DISPLAY.
bool wayland_can_connect() {
  if (set_in_environment("WAYLAND_SOCKET")) return true;
  const char* display = std::getenv("WAYLAND_DISPLAY");
  const char* runtime_dir = std::getenv("XDG_RUNTIME_DIR");
  return (display != nullptr && display[0] == '/') ||
         (runtime_dir != nullptr && runtime_dir[0] == '/');
}

// A size from --window is kept as asked. The default shrinks to the display's usable area (the
// desktop less its panels and docks), so that on a 1280x720 screen the panel's title and the
// FPS line are not off screen. False when there is nothing to fit.
bool usable_area(const window::WindowOptions& options, SDL_Rect& usable) {
  return !options.window_size_given && SDL_GetDisplayUsableBounds(0, &usable) == 0 &&
         usable.w > 0 && usable.h > 0;
}

// A window manager's title bar and borders, around the client area.
struct Frame {
  int top = 0, left = 0, bottom = 0, right = 0;
};

// The client area of a `width` x `height` window shrunk to fit `usable` with its frame, centred.
SDL_Rect fit_in(const SDL_Rect& usable, int width, int height, const Frame& frame) {
  const int room_w = usable.w - frame.left - frame.right;
  const int room_h = usable.h - frame.top - frame.bottom;
  SDL_Rect r{};
  r.w = std::max(std::min(width, room_w), window::kMinWindowWidth);
  r.h = std::max(std::min(height, room_h), window::kMinWindowHeight);
  r.x = usable.x + frame.left + std::max(0, (room_w - r.w) / 2);
  r.y = usable.y + frame.top + std::max(0, (room_h - r.h) / 2);
  return r;
}

SDL_Rect first_window(const window::WindowOptions& options) {
  SDL_Rect usable{};
  if (!usable_area(options, usable)) {
    return {SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, options.window_width,
            options.window_height};
  }
  return fit_in(usable, options.window_width, options.window_height, Frame{});
}

// The frame is known only once the window exists: shrink the default-sized window by it.
void fit_frame_to_display(SDL_Window* window, const window::WindowOptions& options) {
  SDL_Rect usable{};
  Frame frame;
  if (!usable_area(options, usable) ||
      SDL_GetWindowBordersSize(window, &frame.top, &frame.left, &frame.bottom, &frame.right) != 0 ||
      frame.top + frame.left + frame.bottom + frame.right == 0) {
    return;
  }
  int w = 0, h = 0;
  SDL_GetWindowSize(window, &w, &h);
  const SDL_Rect r = fit_in(usable, w, h, frame);
  SDL_SetWindowSize(window, r.w, r.h);
  SDL_SetWindowPosition(window, r.x, r.y);
}

// SDL ignores an SDL_RENDER_DRIVER it has no renderer of, or whose renderer cannot start here,
// and takes the first that works, saying nothing. What was asked for and not given, or empty.
std::string renderer_not_requested(const char* in_use) {
  const char* requested = std::getenv("SDL_RENDER_DRIVER");
  if (requested == nullptr || requested[0] == '\0' || SDL_strcasecmp(requested, in_use) == 0) {
    return {};
  }
  std::string available;
  bool known = false;
  for (int i = 0; i < SDL_GetNumRenderDrivers(); ++i) {
    SDL_RendererInfo info{};
    if (SDL_GetRenderDriverInfo(i, &info) != 0 || info.name == nullptr) continue;
    known = known || SDL_strcasecmp(requested, info.name) == 0;
    available += fmt::format("{}{}", available.empty() ? "" : ", ", info.name);
  }
  if (known) {
    return fmt::format("SDL_RENDER_DRIVER '{}' could not start here, so SDL uses renderer {}",
                       util::shown_value(requested), in_use);
  }
  return fmt::format(
      "SDL_RENDER_DRIVER '{}' is not a renderer SDL knows (it has {}), so SDL uses renderer {}",
      util::shown_value(requested), available, in_use);
}

// SDL 2.26 opens the file SDL_GAMECONTROLLERCONFIG_FILE names with SDL_RWFromFile, which opens
// a folder too and takes its size as 2^63 - 1 bytes, then asks for that much memory (a FIFO
// would block it). A value that is not a regular file is refused with one warning and taken
// out of the environment, before SDL reads it: the controllers then use SDL's own mappings.
void refuse_a_controller_config_that_is_no_file() {
  constexpr const char* kVariable = "SDL_GAMECONTROLLERCONFIG_FILE";
  constexpr std::uint64_t kMostBytes = 64u << 20;  // SDL's own mapping file is under 200 KB
  const char* file = std::getenv(kVariable);
  if (file == nullptr || file[0] == '\0') return;
  const util::OpenedRegularFile opened = util::open_regular_file(file, kMostBytes);
  if (opened.outcome == util::RegularFileRead::Outcome::Read) return;
  const std::string problem =
      opened.outcome == util::RegularFileRead::Outcome::Oversized
          ? fmt::format("{} bytes, more than a mapping file's {}", opened.size, kMostBytes)
          : opened.problem;
  util::logger().warn("{} '{}': {}; ignored, controllers use SDL's own mappings", kVariable,
                      util::shown_path(file), problem);
  ::unsetenv(kVariable);
}

}  // namespace

// The key script, the replay file and the sprite atlas: bad input when malformed, said before
// any window opens. Returns 0, or the exit code.
int read_inputs(window::WindowOptions& options, std::vector<window::sdl::ScriptedKey>& script,
                std::optional<play::Replay>& replay,
                std::optional<window::sdl::AtlasImage>& atlas) {
  refuse_a_controller_config_that_is_no_file();
  if (const char* ticks = std::getenv("QUADPOOL_FRAME_TICKS"); ticks != nullptr) {
    const std::optional<std::uint64_t> value = util::parse_decimal(ticks);
    if (!value || *value < window::FixedStep::kMinFrameTicks ||
        *value > window::FixedStep::kMaxFrameTicks) {
      std::fprintf(stderr,
                   "quadpool: $QUADPOOL_FRAME_TICKS is '%s': it must be an integer in [%d, %d], "
                   "the game's ticks in every frame of a scripted run\n",
                   util::shown_value(ticks).c_str(), window::FixedStep::kMinFrameTicks,
                   window::FixedStep::kMaxFrameTicks);
      return 2;
    }
    options.frame_ticks = static_cast<int>(*value);
  }
  if (const char* keys = std::getenv("QUADPOOL_DEMO_KEYS"); keys != nullptr) {
    std::string error;
    script = window::sdl::parse_key_script(keys, error);
    if (!error.empty()) {
      std::fprintf(stderr, "quadpool: %s\n", error.c_str());
      return 2;
    }
  }
  if (!options.game.replay.empty()) {
    try {
      replay = play::read_replay(options.game.replay);
    } catch (const play::ReplayError& e) {
      std::fprintf(stderr, "quadpool: %s\n", e.what());
      return 2;
    }
  }
  window::sdl::AtlasError atlas_error;
  atlas = window::sdl::read_atlas(atlas_error);
  if (!atlas) {
    std::fprintf(stderr, "quadpool: %s\n", atlas_error.message.c_str());
    return atlas_error.exit_code;
  }
  return 0;
}

// SDL's video subsystem started on a driver that can show a window. Returns 0, or the exit
// code after the project's one line on why there is no display.
int start_video() {
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
  // Where Wayland cannot connect, only X11 can show a window: SDL is asked for nothing else, so
  // that a bad $DISPLAY gives the message below and no line from libwayland before it.
  const bool x11_only = !set_in_environment("SDL_VIDEODRIVER") && !wayland_can_connect();
  if (x11_only) SDL_SetHintWithPriority(SDL_HINT_VIDEODRIVER, "x11", SDL_HINT_DEFAULT);
  if (SDL_Init(SDL_INIT_VIDEO) != 0) {
    if (!x11_only) return no_display("no video driver could start");
    const char* display = std::getenv("DISPLAY");
    const std::string detail = fmt::format(
        "X11 cannot open DISPLAY '{}', and Wayland needs WAYLAND_DISPLAY or XDG_RUNTIME_DIR",
        util::shown_value(display != nullptr ? display : ""));
    return no_display("no X11 or Wayland display", detail.c_str());
  }
  return 0;
}

int window::run_window(const window::WindowOptions& given, sim::HeapCounter heap_counter) {
  std::vector<window::sdl::ScriptedKey> script;
  std::optional<play::Replay> replay;
  std::optional<window::sdl::AtlasImage> atlas_image;
  window::WindowOptions options = given;
  if (const int bad = read_inputs(options, script, replay, atlas_image); bad != 0) return bad;
  if (const int no_video = start_video(); no_video != 0) return no_video;
  SdlVideo video;
  // The pilot reads game controllers; without the subsystem it plays on keyboard and mouse.
  if (SDL_InitSubSystem(SDL_INIT_GAMECONTROLLER) != 0) {
    util::logger().info("no game controller support: {}", SDL_GetError());
  }
  if (fell_back_to_invisible_driver()) {
    return no_display("no X11 or Wayland display", "DISPLAY and WAYLAND_DISPLAY are not usable");
  }
  // Without this, SDL turns command batching off as soon as a render driver is chosen by hint
  // (e.g. SDL_RENDER_DRIVER=software), and every sprite batch becomes its own flush.
  SDL_SetHint(SDL_HINT_RENDER_BATCHING, "1");

  // Not SDL_WINDOW_ALLOW_HIGHDPI: mouse events arrive in window units and everything is drawn
  // in renderer pixels, which then stay the same thing.
  const SDL_Rect at = first_window(options);
  std::unique_ptr<SDL_Window, WindowDeleter> window(
      SDL_CreateWindow("quadpool", at.x, at.y, at.w, at.h, SDL_WINDOW_RESIZABLE));
  if (!window) return no_display("SDL_CreateWindow failed");
  fit_frame_to_display(window.get(), options);
  int window_w = 0, window_h = 0;
  SDL_GetWindowSize(window.get(), &window_w, &window_h);
  const Uint32 flags = options.vsync ? SDL_RENDERER_PRESENTVSYNC : 0;
  std::unique_ptr<SDL_Renderer, RendererDeleter> renderer(
      SDL_CreateRenderer(window.get(), -1, flags));
  if (!renderer) return no_display("SDL_CreateRenderer failed");

  std::string error;
  window::sdl::Atlas atlas = window::sdl::load_atlas(renderer.get(), *atlas_image, error);
  if (atlas.texture == nullptr) {
    std::fprintf(stderr, "quadpool: %s\n", error.c_str());
    return 1;
  }
  window::sdl::TexturePtr atlas_texture(atlas.texture);

  SDL_RendererInfo info{};
  SDL_GetRendererInfo(renderer.get(), &info);
  const std::string renderer_warning = renderer_not_requested(info.name ? info.name : "?");
  // A replay decides the game: its start is what runs, not the command line's.
  const play::PlayConfig played = replay ? play::play_config_of(replay->start) : options.game.config;
  util::logger().info(
      "demo: {} sprites, seed {}, scene {}, storm {}, {} thread(s), {}x{} window, renderer {} "
      "(video driver {}), vsync {}, pair kernel {}",
      played.field.scene.sprites, played.field.scene.seed,
      scene::scene_name(played.field.scene.kind), played.storm ? "on" : "off",
      options.game.threads, window_w, window_h, info.name ? info.name : "?",
      SDL_GetCurrentVideoDriver(), options.vsync ? "on" : "off",
      quadpool::spatial::pair_kernel_name());

  ImGuiSession imgui(window.get(), renderer.get());
  // The tick's workers live as long as the App that ticks on them.
  WorkerPool workers(options.game.threads);
  const window::WindowRuntime runtime{workers.task_system(), heap_counter};
  window::sdl::App app(window.get(), renderer.get(), atlas, options, runtime, std::move(script),
                       std::move(replay));
  if (!renderer_warning.empty()) app.warn(renderer_warning);
  return app.run();
}

}  // namespace quadpool::game
