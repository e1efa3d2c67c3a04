#pragma once
/// The demo's switches that keys and the overlay's widgets both change, and the one decision
/// every frame makes from them: whether it ticks (take_pace), the same for the game and the lab.

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

/// What a frame may tick.
enum class Pace {
  Paused,  // nothing
  Step,    // one tick (the step key; it pauses too)
  Run,     // running: the lab at controls.speed, the game one tick
};

/// This frame's pace: a pending step first (taken: step_once is cleared), else paused or
/// running. Called once a frame, whichever mode is shown.
inline Pace take_pace(Controls& controls) noexcept {
  if (controls.step_once) {
    controls.step_once = false;
    return Pace::Step;
  }
  return controls.paused ? Pace::Paused : Pace::Run;
}

}  // namespace quadpool::game::window
