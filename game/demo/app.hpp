#pragma once
/// The demo application: the frame loop, which wires the demo's parts together. It has two
/// modes one key (Tab) apart: the game (PlayScreen: the play session, its pilot, sound, high
/// score and drawing) and the lab (SimRunner, the simulation and its ticks, and Selection, the
/// query tool). Each part has one job: Input (scripted keys, mouse gestures, keys to actions
/// through the key map), Camera, AbExperiment (in the game the bot flies its legs), Overlay
/// (the panels, which see only an OverlayView), and summary_json (the JSON printed at exit).
/// run_demo() (demo.cpp) sets SDL up and hands the window and renderer to an App.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "game/demo/input.hpp"
#include "game/demo/key_map.hpp"
#include "game/demo/overlay.hpp"
#include "game/demo/play_screen.hpp"
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
#include "game/play/replay.hpp"
#include "scene/scene.hpp"

struct SDL_Window;
struct SDL_Renderer;

namespace quadpool::game::demo {

class App {
 public:
  /// Takes the window, renderer and atlas (owned by the caller, run_demo) and builds the lab's
  /// scene and the game from `options` (the game from `replay` when there is one);
  /// options.heap_counter may be nullptr (then no allocation counts).
  App(SDL_Window* window, SDL_Renderer* renderer, const Atlas& atlas, const DemoOptions& options,
      std::vector<ScriptedKey> script, std::optional<play::Replay> replay);
  App(const App&) = delete;
  App& operator=(const App&) = delete;

  /// Runs until Esc, the window closing or options.frames frames. Returns the exit code.
  int run();

  /// Logs `text` as a warning and shows it as the notice for a while: for what the user asked
  /// for and did not get (an SDL_RENDER_DRIVER that SDL ignored).
  void warn(std::string text);

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
  // The lab's own parts: its simulation, its query tool, and where its A/B legs start.
  struct Lab {
    lab::SimRunner runner;
    lab::Selection selection;
    std::vector<scene::Sprite> ab_start;  // the sprites as B found them: every A/B leg's start
  };
  // The frame loop's state.
  struct Loop {
    Mode mode = Mode::Play;
    std::uint64_t frame = 0;
    bool quit = false;
  };
  // Why the last request changed nothing, shown at the top of the panel for a few seconds.
  struct Notice {
    std::string text;  // the last one (the summary reports it after it has gone from the panel)
    std::chrono::steady_clock::time_point until{};
  };

  void handle_events();
  void tick(lab::FrameSample& sample);
  void switch_mode();
  void switch_allocator();
  memory::AllocatorKind allocator() const noexcept;
  const Simulation& shown_sim() const noexcept;
  void update_layout();
  void apply(Action action);
  void apply(const OverlayRequests& requests);
  void reset(std::size_t sprites, std::uint64_t seed);
  void reset(scene::SceneKind kind);
  void resize_scene(std::size_t wanted, const char* key);
  void notify(std::string text);
  void show_notice(std::string text, std::chrono::seconds shown_for);
  void after_reset();
  void fit_camera();
  void start_ab();
  void start_ab_leg();
  void cancel_ab();
  void end_ab();
  void advance_ab(const lab::FrameSample& sample);
  OverlayRequests render();
  void draw_world();
  OverlayRequests draw_overlay();
  bool save_frame(bool last_frame);
  int finish();
  void print_summary(bool screenshot_written, double cpu_ms_per_frame) const;

  Target target_;
  LayoutWatch layout_;
  DemoOptions options_;
  Input input_;
  Lab lab_;
  PlayScreen play_;
  lab::Camera camera_;
  lab::VertexStream stream_;
  SpriteRenderer sprite_renderer_;
  lab::FrameStats stats_;
  lab::Controls controls_;
  Overlay overlay_;
  lab::AbExperiment ab_;
  Notice notice_;
  Loop loop_;
};

}  // namespace quadpool::game::demo
