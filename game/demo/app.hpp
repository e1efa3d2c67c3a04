#pragma once
/// The demo application: the frame loop, which wires the demo's parts together. Each part has
/// one job: Input (scripted keys, mouse gestures, keys to actions through the key map),
/// Camera, SimRunner (the simulation and its ticks), Selection, AbExperiment, Overlay (the
/// panels, which see only an OverlayView), and summary_json (the JSON printed at exit).
/// run_demo() (demo.cpp) sets SDL up and hands the window and renderer to an App.

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "game/demo/input.hpp"
#include "game/demo/key_map.hpp"
#include "game/demo/overlay.hpp"
#include "game/demo/sprite_renderer.hpp"
#include "game/demo/textures.hpp"
#include "game/demo_options.hpp"
#include "game/lab/ab_experiment.hpp"
#include "game/lab/camera.hpp"
#include "game/lab/controls.hpp"
#include "game/lab/frame_stats.hpp"
#include "game/lab/layout.hpp"
#include "game/lab/selection.hpp"
#include "game/lab/sim_runner.hpp"
#include "game/lab/vertex_stream.hpp"
#include "scene/scene.hpp"

struct SDL_Window;
struct SDL_Renderer;

namespace quadpool::game::demo {

class App {
 public:
  /// Takes the window, renderer and atlas (owned by the caller, run_demo) and builds the scene
  /// from `options`; options.heap_counter may be nullptr (then no allocation counts).
  App(SDL_Window* window, SDL_Renderer* renderer, const Atlas& atlas, const DemoOptions& options,
      std::vector<ScriptedKey> script);
  App(const App&) = delete;
  App& operator=(const App&) = delete;

  /// Runs until Esc, the window closing or options.frames frames. Returns the exit code.
  int run();

 private:
  // The window the App draws into.
  struct Target {
    SDL_Window* window;
    SDL_Renderer* renderer;
    std::string renderer_name;
    std::string last_f12_screenshot;  // empty: none saved
  };
  // The layout, and what the summary reports about it.
  struct LayoutWatch {
    lab::Layout layout;
    std::uint64_t refits = 0;              // camera fits after a resize or the panel toggling
    std::uint64_t frames_overlapping = 0;  // frames the drawn panel shared pixels with the world
  };
  // Why the last request changed nothing, shown at the top of the panel for a few seconds.
  struct Notice {
    std::string text;  // the last one (the summary reports it after it has gone from the panel)
    std::chrono::steady_clock::time_point until{};
  };

  void handle_events();
  void update_layout();
  void apply(Action action);
  void apply(const OverlayRequests& requests);
  void reset(std::size_t sprites, std::uint64_t seed);
  void reset(scene::SceneKind kind);
  void resize_scene(std::size_t wanted, const char* key);
  void notify(std::string text);
  void after_reset();
  void fit_camera();
  void start_ab();
  void start_ab_leg();
  void cancel_ab();
  void advance_ab(const lab::FrameSample& sample);
  OverlayRequests render();
  bool save_frame(bool last_frame);
  void print_summary(bool screenshot_written, double cpu_ms_per_frame) const;

  Target target_;
  LayoutWatch layout_;
  DemoOptions options_;
  Input input_;
  lab::SimRunner runner_;
  lab::Camera camera_;
  lab::Selection selection_;
  lab::VertexStream stream_;
  SpriteRenderer sprite_renderer_;
  lab::FrameStats stats_;
  lab::Controls controls_;
  Overlay overlay_;
  lab::AbExperiment ab_;
  std::vector<scene::Sprite> ab_start_;  // the sprites as B found them: where every A/B leg starts
  Notice notice_;
  std::uint64_t frame_ = 0;
  bool quit_ = false;
};

}  // namespace quadpool::game::demo
