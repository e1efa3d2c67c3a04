#pragma once
/// The ramp in the window: the RampExperiment of game/window/ applied to the lab. It starts on
/// the lab's scene kind and seed with the controls saved and set to run at speed 1, builds each
/// step's field and frames the camera on it, switches the lab's allocator between legs, and at
/// the end (or when stopped) restores the saved controls and allocator; the field stays at the
/// last step's count and the result stays in the panel until the next ramp.

#include <cstddef>

#include "game/window/camera.hpp"
#include "game/window/controls.hpp"
#include "game/window/frame_stats.hpp"
#include "game/window/ramp_experiment.hpp"
#include "game/window/sdl/lab_screen.hpp"

namespace quadpool::game::window::sdl {

class RampRun {
 public:
  /// What a ramp changes: the lab's field and allocator, the controls, and the camera it frames
  /// on each step's field (in `area`).
  struct Parts {
    LabScreen& lab;
    window::Controls& controls;
    window::Camera& camera;
    const window::ScreenRect& area;
  };

  bool running() const noexcept { return experiment_.running(); }
  const window::RampExperiment& experiment() const noexcept { return experiment_; }

  /// Starts a ramp up to `top` sprites and builds its first step; nothing while one runs.
  void start(const Parts& parts, std::size_t top);
  /// Records one frame, and grows the field or switches the allocator when it is time.
  void record(const window::FrameSample& sample, const Parts& parts);
  /// Stops a running ramp, keeping the steps it measured.
  void stop(const Parts& parts);

 private:
  void apply(window::RampExperiment::Next next, const Parts& parts);

  window::RampExperiment experiment_;
};

}  // namespace quadpool::game::window::sdl
