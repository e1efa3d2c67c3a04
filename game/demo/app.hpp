#pragma once
/// The demo application: the frame loop, input, the A/B comparison and the summary. run_demo()
/// (demo.cpp) sets SDL up and hands the window and renderer to an App; the overlay's panels
/// are App members defined in overlay.cpp.
///
/// Sections: scripted input, A/B comparison, the App.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/memory/pool_allocator.hpp"
#include "game/demo/camera.hpp"
#include "game/demo/demo.hpp"
#include "game/demo/frame_stats.hpp"
#include "game/demo/sprite_renderer.hpp"
#include "game/demo/textures.hpp"
#include "game/demo/vertex_stream.hpp"
#include "game/simulation.hpp"

struct SDL_Window;
struct SDL_Renderer;
union SDL_Event;

namespace quadpool::game::demo {

// --- scripted input ----------------------------------------------------------------------------

/// A key press to inject at the start of a frame, through SDL_PushEvent: the same path a real
/// key press takes. Scripts come from $QUADPOOL_DEMO_KEYS (see parse_key_script).
struct ScriptedKey {
  std::uint64_t frame;
  int keycode;  // SDL_Keycode
};

/// Parses "FRAME:KEY[,FRAME:KEY...]", KEY being an SDL key name ("A", "Space", "."), e.g.
/// "100:A,200:A". Returns the keys sorted by frame, or an error naming the bad entry.
std::vector<ScriptedKey> parse_key_script(const std::string& text, std::string& error);

// --- A/B comparison ----------------------------------------------------------------------------

/// Runs the same seeded scene for kLegFrames frames per leg in the order Pool, new-delete,
/// Pool, new-delete (alternating evens out drift in machine load), then compares.
struct AbRun {
  static constexpr int kLegs = 4;
  static constexpr std::uint64_t kLegFrames = 150;
  int leg = 0;
  std::uint64_t frames_in_leg = 0;
  std::vector<double> frame_ms[2], tick_ms[2];  // [0] pool, [1] new-delete
};

struct AbResult {
  std::size_t sprites = 0;
  std::uint64_t seed = 0;
  Percentiles frame_ms[2], tick_ms[2];  // [0] pool, [1] new-delete
};

// --- the App -------------------------------------------------------------------------------

class App {
 public:
  /// Width of the overlay's main window, pixels: the camera fits the world beside it.
  static constexpr float kOverlayWidth = 390.0f;

  /// Takes the window, renderer and atlas (owned by the caller, run_demo) and builds the scene
  /// from `options`; options.heap_counter may be nullptr (then no allocation counts).
  App(SDL_Window* window, SDL_Renderer* renderer, const Atlas& atlas, const DemoOptions& options,
      std::vector<ScriptedKey> script);
  ~App();
  App(const App&) = delete;
  App& operator=(const App&) = delete;

  /// Runs until Esc, the window closing or options.frames frames. Returns the exit code.
  int run();

 private:
  struct Controls {
    bool paused = false;
    bool step_once = false;
    bool draw_tree = true;
    bool highlight_contacts = true;
    bool show_ui = true;
    bool show_help = false;
    float speed = 1.0f;  // ticks per frame
  };

  // Frame loop (app.cpp).
  void handle_event(const SDL_Event& event);
  void handle_key(int keycode, bool shift);
  void reset(std::size_t sprites, std::uint64_t seed);
  void fit_camera();
  void set_allocator(AllocatorKind kind);
  void tick_simulation(FrameSample& sample);
  void update_contacts();
  void update_selection();
  void advance_ab(const FrameSample& sample);
  void start_ab();
  void render_world();
  void print_summary(bool screenshot_written) const;

  // Overlay (overlay.cpp).
  void draw_overlay();
  void draw_stats_panel();
  void draw_memory_panel();
  void draw_controls_panel();
  void draw_help_panel();

  SDL_Window* window_;
  SDL_Renderer* renderer_;
  DemoOptions options_;
  std::vector<ScriptedKey> script_;
  std::size_t next_script_key_ = 0;
  std::string renderer_name_;

  std::unique_ptr<Simulation> sim_;
  std::uint64_t ticks_since_reset_ = 0;
  std::uint64_t allocator_switches_ = 0;
  SceneConfig scene_;  // what reset() builds: seed and sprite count

  Camera camera_;
  int width_ = 0, height_ = 0;
  VertexStream stream_;
  SpriteRenderer sprite_renderer_;
  DrawCounts last_draw_{};
  FrameStats stats_;
  Controls controls_;
  std::uint64_t frame_ = 0;
  bool quit_ = false;
  double cpu_ms_per_frame_ = 0;
  float tick_debt_ = 0;  // fractional ticks owed at speeds below 1

  // Contacts and selection, recomputed after each tick.
  std::vector<std::uint8_t> in_contact_;
  std::vector<std::uint32_t> selected_;
  std::optional<spatial::Aabb> selection_;  // world rectangle of the last shift-drag

  // Mouse state.
  bool spawning_ = false, selecting_ = false, panning_ = false;
  float mouse_x_ = 0, mouse_y_ = 0;
  float select_from_x_ = 0, select_from_y_ = 0;

  // The per-chunk strip and the controls' widgets' state.
  std::vector<memory::BlockState> chunk_states_;
  int sprites_slider_ = 0;
  std::uint64_t seed_input_ = 1;

  std::optional<AbRun> ab_;
  std::optional<AbResult> ab_result_;
  Controls controls_before_ab_{};
  AllocatorKind allocator_before_ab_ = AllocatorKind::Pool;
};

}  // namespace quadpool::game::demo
