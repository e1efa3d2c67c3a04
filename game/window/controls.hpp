#pragma once
/// The demo's switches that keys and the overlay's widgets both change.

namespace quadpool::game::window {

struct Controls {
  bool paused = false;
  bool step_once = false;
  bool draw_tree = true;
  bool highlight_contacts = true;
  bool show_ui = true;
  bool show_help = false;
  bool screenshot = false;  // save this frame (F12), then clear
  float speed = 1.0f;       // ticks per frame
};

}  // namespace quadpool::game::window
