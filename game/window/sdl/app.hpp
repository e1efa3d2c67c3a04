#pragma once
/// The demo application: the frame loop, which wires the demo's parts together. It has two
/// modes one key (Tab) apart, each a Screen with its own world: the game (PlayScreen: the play
/// session, its pilot, sound, high score and drawing) and the lab (LabScreen: the simulation,
/// its ticks and the query tool). The App decides pause and step for both (take_pace), and each
/// other part has one job: WindowTarget (layout, clip, screenshots), Input (scripted keys, mouse
/// gestures, keys to actions through the key map), Camera, AbRun (an A/B run; in the game the
/// bot flies its legs), RampRun (the lab's field ramped to a million sprites), Overlay (the panels,
/// which see only an OverlayView), and summary_json (the JSON printed at exit). run_window()
/// (run_window.cpp) sets SDL up and hands the window and renderer to an App.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/scene/scene.hpp"
#include "game/play/replay.hpp"
#include "game/window/camera.hpp"
#include "game/window/controls.hpp"
#include "game/window/fixed_step.hpp"
#include "game/window/frame_stats.hpp"
#include "game/window/sdl/ab_run.hpp"
#include "game/window/sdl/input.hpp"
#include "game/window/sdl/key_map.hpp"
#include "game/window/sdl/lab_screen.hpp"
#include "game/window/sdl/overlay.hpp"
#include "game/window/sdl/play_screen.hpp"
#include "game/window/sdl/ramp_run.hpp"
#include "game/window/sdl/screen.hpp"
#include "game/window/sdl/sprite_renderer.hpp"
#include "game/window/sdl/textures.hpp"
#include "game/window/sdl/window_target.hpp"
#include "game/window/vertex_stream.hpp"
#include "game/window/window_options.hpp"

struct SDL_Window;
struct SDL_Renderer;

namespace quadpool::game::window::sdl {

class App {
 public:
  /// Takes the window, renderer and atlas (owned by the caller, run_window) and builds the lab's
  /// scene and the game from `options` (the game from `replay` when there is one), both ticking
  /// on runtime.tasks; runtime.heap_counter may be nullptr (then no allocation counts).
  App(SDL_Window* window, SDL_Renderer* renderer, const Atlas& atlas,
      const window::WindowOptions& options, const window::WindowRuntime& runtime,
      std::vector<ScriptedKey> script, std::optional<play::Replay> replay);
  App(const App&) = delete;
  App& operator=(const App&) = delete;

  /// Runs until Esc, the window closing or options.frames frames. Returns the exit code.
  int run();

  /// Logs `text` as a warning and shows it as the notice for a while: for what the user asked
  /// for and did not get (an SDL_RENDER_DRIVER that SDL ignored).
  void warn(std::string text);

 private:
  // The frame loop's state.
  struct Loop {
    Mode mode = Mode::Play;
    std::uint64_t frame = 0;
    bool quit = false;
    bool other_mode_draws_tree = false;  // T of the mode not shown (each mode keeps its own)
    bool other_mode_shows_panel = false;  // H of the mode not shown
  };

  // The runs that time the ticks; while either runs, what would change them is locked.
  struct Measurements {
    AbRun ab;
    RampRun ramp;
    bool running() const noexcept { return ab.running() || ramp.running(); }
  };

  // The screen of the mode shown.
  Screen& shown() noexcept;
  const Screen& shown() const noexcept;
  void handle_events();
  void tick(window::FrameSample& sample);
  int game_ticks(window::Pace pace);
  void switch_mode();
  void switch_allocator();
  memory::AllocatorKind allocator() const noexcept;
  void update_layout();
  bool apply_while_measuring(Action action);
  void apply(Action action);
  void apply(const OverlayRequests& requests);
  void apply(const LabScreen::Change& change);
  void notify(std::string text);
  void fit_camera();
  void start_ab();
  AbRun::Parts ab_parts() noexcept;
  void toggle_ramp();
  RampRun::Parts ramp_parts() noexcept;
  OverlayRequests render();
  void draw_world();
  OverlayRequests draw_overlay();
  bool save_frame(bool last_frame);
  void print_summary(bool screenshot_written, double cpu_ms_per_frame) const;

  WindowTarget target_;
  window::WindowOptions options_;
  bool heap_counted_;  // the runtime has a heap counter: the summary says so
  window::FixedStep game_clock_;
  Input input_;
  LabScreen lab_;
  PlayScreen play_;
  window::Camera camera_;
  window::VertexStream stream_;
  SpriteRenderer sprite_renderer_;
  window::FrameStats stats_;
  window::Controls controls_;
  Overlay overlay_;
  Measurements runs_;
  Notice notice_;
  Loop loop_;
};

}  // namespace quadpool::game::window::sdl
