#pragma once
/// An A/B run in the window: the AbExperiment of game/window/ applied to the screens. It starts
/// on what the shown screen measures, with the controls saved and set to run at speed 1;
/// restarts the shown screen's world on every leg's allocator (the lab's allocator follows the
/// legs in either mode: it is the one the panel and the summary show); and when the run ends or
/// is cancelled restores the saved controls and allocator.

#include <chrono>
#include <optional>

#include "game/window/sdl/lab_screen.hpp"
#include "game/window/sdl/screen.hpp"
#include "game/window/ab_experiment.hpp"
#include "game/window/camera.hpp"
#include "game/window/controls.hpp"
#include "game/window/frame_stats.hpp"

namespace quadpool::game::window::sdl {

class AbRun {
 public:
  /// What a run changes: the shown screen's world and the lab's allocator, the controls, and
  /// the camera the lab frames on each leg's scene (in `area`).
  struct Parts {
    Screen& shown;
    LabScreen& lab;
    window::Controls& controls;
    window::Camera& camera;
    const window::ScreenRect& area;
  };

  bool running() const noexcept { return experiment_.running(); }
  const window::AbExperiment& experiment() const noexcept { return experiment_; }

  /// Starts a run and its first leg; nothing while one runs.
  void start(const Parts& parts);
  /// A run in the game ends the player's game (the bot flies every leg): the B that asks for
  /// it counts only as a second press within kConfirmWindow of the first. True when this press
  /// (at `now`) confirms one; false when it is the first, and the caller says to press again.
  bool confirmed(std::chrono::steady_clock::time_point now) noexcept;
  static constexpr std::chrono::seconds kConfirmWindow{3};
  /// Records one frame, and starts the next leg or ends the run when it is time.
  void record(const window::FrameSample& sample, const Parts& parts);
  /// Stops a running run without a result.
  void cancel(const Parts& parts);

 private:
  void start_leg(const Parts& parts);
  void end(const Parts& parts);

  window::AbExperiment experiment_;
  std::optional<std::chrono::steady_clock::time_point> asked_;  // the unconfirmed first B
};

}  // namespace quadpool::game::window::sdl
