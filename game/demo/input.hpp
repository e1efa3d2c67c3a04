#pragma once
/// The demo's input: scripted key presses, the mouse's gestures (spawn, select, pan, zoom) and
/// keys turned into actions through the key map (key_map.hpp).

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "game/demo/camera.hpp"
#include "game/demo/key_map.hpp"
#include "game/demo/selection.hpp"

union SDL_Event;
struct SDL_Window;

namespace quadpool::game::demo {

/// A key press to inject at the start of a frame, through SDL_PushEvent: the same path a real
/// key press takes; or a window resize (SDL_SetWindowSize), as a user dragging its border.
/// Scripts come from $QUADPOOL_DEMO_KEYS (see parse_key_script).
struct ScriptedKey {
  std::uint64_t frame;
  int keycode;    // SDL_Keycode; 0 for a resize
  int width = 0;  // > 0: resize the window to width x height
  int height = 0;
};

/// Parses "FRAME:KEY[,FRAME:KEY...]", KEY being an SDL key name ("A", "Space", ".") or a window
/// size WxH (e.g. "100:A,150:1024x600"). Returns the keys sorted by frame, or an error naming
/// the bad entry.
std::vector<ScriptedKey> parse_key_script(const std::string& text, std::string& error);

class Input {
 public:
  explicit Input(std::vector<ScriptedKey> script) : script_(std::move(script)) {}

  /// Pushes the scripted presses (and releases) due by `frame` into SDL's event queue for
  /// `window`, and applies the resizes due.
  void inject_script(std::uint64_t frame, SDL_Window* window);

  /// Handles one SDL event, after ImGui has seen it (`ui_wants_mouse` / `ui_wants_keyboard`:
  /// ImGui's WantCapture flags). Mouse gestures move `camera` and drag `selection`. Returns
  /// the action of a key press, Action::CloseWindow when the window is closed, else Action::None.
  Action handle(const SDL_Event& event, bool ui_wants_mouse, bool ui_wants_keyboard, Camera& camera,
                Selection& selection);

  /// The left button is held outside the UI, without shift: spawn sprites under the cursor.
  bool spawning() const noexcept { return spawning_; }
  /// The cursor, in window pixels.
  ScreenPoint mouse() const noexcept { return mouse_; }

 private:
  std::vector<ScriptedKey> script_;
  std::size_t next_script_key_ = 0;
  bool spawning_ = false;
  bool panning_ = false;
  ScreenPoint mouse_{0, 0};
};

}  // namespace quadpool::game::demo
