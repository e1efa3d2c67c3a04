#pragma once
/// The face both of the window's modes show the App: PlayScreen (the game) and LabScreen (the
/// lab) each hold their own world and implement Screen, so the frame loop runs, draws and
/// measures whichever is shown the same way, with no branch on the mode.

#include <optional>
#include <span>

#include "engine/memory/allocator_kind.hpp"
#include "game/play/entity_stores.hpp"
#include "game/sim/simulation.hpp"
#include "game/window/camera.hpp"
#include "game/window/controls.hpp"
#include "game/window/frame_stats.hpp"
#include "game/window/sdl/sprite_renderer.hpp"
#include "game/window/vertex_stream.hpp"

union SDL_Event;
struct SDL_Renderer;

namespace quadpool::game::window::sdl {

/// What the App hands the shown screen's tick every frame.
struct TickInput {
  window::Pace pace = window::Pace::Run;  // take_pace()'s one decision, the same for both modes
  float speed = 1.0f;                     // the lab's ticks per frame while running
  int game_ticks = 1;  // the game's ticks this frame while running (window::FixedStep)
  const window::Camera& camera;           // the game aims the mouse from the ship through it
  std::optional<window::ScreenPoint> spawn_at;  // window pixels: the lab spawns sprites there
  bool ab_running = false;                      // an A/B run is measuring these ticks
};

class Screen {
 public:
  virtual ~Screen() = default;

  /// Feeds one event (after ImGui saw it) to the screen's own input; true when it was the
  /// screen's, and nothing else sees it.
  virtual bool handle(const SDL_Event& event, bool ui_wants_mouse, bool ui_wants_keyboard) = 0;
  /// Runs this frame's ticks as `in` allows and adds them to `sample`.
  virtual void tick(const TickInput& in, window::FrameSample& sample) = 0;
  /// The camera on entering the mode, on F and after the lab's scene is rebuilt.
  virtual void frame(window::Camera& camera, const window::ScreenRect& area) const = 0;
  /// The camera before each frame is drawn.
  virtual void follow(window::Camera& camera, const window::ScreenRect& area) const = 0;
  /// Draws the world into `area` (clipped to it by the caller).
  virtual DrawCounts draw_world(SDL_Renderer* renderer, SpriteRenderer& sprites,
                                window::VertexStream& stream, const window::Camera& camera,
                                const window::ScreenRect& area,
                                const window::Controls& controls) = 0;
  /// What the screen draws over the world besides the panel (inside an ImGui frame).
  virtual void draw_hud(const window::ScreenRect& area, bool paused) const = 0;

  /// The simulation the panel and the summary describe.
  virtual const sim::Simulation& sim() const noexcept = 0;
  /// The game's entity stores for the panel; empty in the lab.
  virtual std::span<const play::EntityReport> entities() = 0;
  /// The tree's (and the game's entities') allocator from the next tick on.
  virtual void set_allocator(memory::AllocatorKind kind) = 0;

  /// An A/B run starts here: what it measures (scene and tree settings).
  virtual sim::SimulationConfig ab_subject() = 0;
  /// Restarts the world for a leg on `kind`. The lab frames `camera` on its rebuilt scene.
  virtual void start_ab_leg(memory::AllocatorKind kind, window::Camera& camera,
                            const window::ScreenRect& area) = 0;
  /// The run is over or cancelled: back to `saved`.
  virtual void end_ab(memory::AllocatorKind saved) = 0;
};

}  // namespace quadpool::game::window::sdl
