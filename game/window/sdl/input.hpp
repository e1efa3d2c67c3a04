#pragma once
/// The demo's input: scripted key presses, the mouse's gestures (spawn, select, pan, zoom) and
/// keys turned into actions through the key map (key_map.hpp).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/scene/scene.hpp"
#include "game/window/camera.hpp"
#include "game/window/sdl/key_map.hpp"
#include "game/window/selection.hpp"
#include "game/window/timed_query.hpp"

union SDL_Event;
struct SDL_Window;

namespace quadpool::game::window::sdl {

/// Input to inject at the start of a frame: a key press through SDL_PushEvent (the path a real
/// key press takes), a window resize (SDL_SetWindowSize, as a user dragging its border), a
/// shift + left drag or click of the query tool in a given mode (mouse events through
/// SDL_PushEvent, with shift held), or a pick in the overlay's scene list. Scripts come from
/// $QUADPOOL_DEMO_KEYS (see parse_key_script).
struct ScriptedKey {
  enum class Kind { Key, KeyDown, KeyUp, Resize, Query, Ray, Pick, Nearest, Scene, Spawn };
  std::uint64_t frame;
  int keycode;  // SDL_Keycode of a Key (pressed and released), a KeyDown or a KeyUp
  Kind kind = Kind::Key;
  int width = 0, height = 0;             // a Resize's window size
  int x0 = 0, y0 = 0;                    // window pixels: a Query's first corner, a Ray's
                                         // start, a Pick's, a Nearest's or a Spawn's point
  int x1 = 0, y1 = 0;                    // a Query's second corner, a Ray's end
  scene::SceneKind scene = scene::SceneKind::Uniform;  // a Scene's pick
};

/// Parses "FRAME:WHAT[,FRAME:WHAT...]", WHAT being an SDL key name ("A", "Space", "."), pressed
/// and released in that frame, "down=KEY" or "up=KEY" (a key held from one frame to another, as
/// the pilot holds thrust), a window size WxH (in --window's range), "query=X0/Y0/X1/Y1" (a
/// shift-drag between two window points in the box mode), "ray=X0/Y0/X1/Y1" (the same in the
/// ray mode), "pick=X/Y" (a shift-click in the box mode), "nearest=X/Y" (a shift-click in the
/// nearest mode), "spawn=X/Y" (the left
/// button held there for one frame: a spawn) or "scene=KIND" (the overlay's scene list, e.g.
/// scene=mixed), e.g.
/// "100:A,150:1024x600,160:pick=700/300,200:scene=streams". Empty entries (",,", a comma at
/// either end) are skipped. Returns the entries sorted by frame, or an error naming the bad
/// entry.
std::vector<ScriptedKey> parse_key_script(const std::string& text, std::string& error);

class Input {
 public:
  explicit Input(std::vector<ScriptedKey> script) : script_(std::move(script)) {}

  /// Pushes the scripted presses (and releases) due by `frame` into SDL's event queue for
  /// `window`, and applies the resizes due. Returns the scene the script picks at this frame,
  /// if any, for the caller to apply as the overlay's scene list would.
  std::optional<scene::SceneKind> inject_script(std::uint64_t frame, SDL_Window* window);

  /// Handles one SDL event, after ImGui has seen it (`ui_wants_mouse` / `ui_wants_keyboard`:
  /// ImGui's WantCapture flags). Mouse gestures move `camera` and drag `selection` (in the
  /// game only the wheel's zoom: the buttons are the pilot's). Returns the action of a key
  /// press in `mode`, Action::CloseWindow when the window is closed, else Action::None.
  Action handle(const SDL_Event& event, bool ui_wants_mouse, bool ui_wants_keyboard,
                window::Camera& camera, window::Selection& selection, Mode mode);

  /// The left button is held outside the UI, without shift: spawn sprites under the cursor.
  bool spawning() const noexcept { return spawning_; }
  /// The cursor, in window pixels.
  window::ScreenPoint mouse() const noexcept { return mouse_; }

 private:
  std::vector<ScriptedKey> script_;
  std::size_t next_script_key_ = 0;
  bool script_holds_shift_ = false;  // a scripted drag or click holds shift until the next frame
  // A scripted query's mode, set on the query tool when its button goes down.
  std::optional<window::QueryMode> script_query_mode_;
  std::optional<window::ScreenPoint> script_holds_button_;  // a scripted spawn: released next frame
  bool spawning_ = false;
  bool panning_ = false;
  window::ScreenPoint mouse_{0, 0};
};

}  // namespace quadpool::game::window::sdl
