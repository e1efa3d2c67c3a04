// An A/B run in the window: start, legs, end.
#include "game/window/sdl/ab_run.hpp"

namespace quadpool::game::window::sdl {

// In the lab every leg starts from the sprites as they are now, spawned ones included: the run
// measures the scene the user is looking at. In the game every leg is the game restarted from
// its config and seed with the bot flying, so both allocators play the same game.
bool AbRun::confirmed(std::chrono::steady_clock::time_point now) noexcept {
  if (asked_ && now - *asked_ <= kConfirmWindow) {
    asked_.reset();
    return true;
  }
  asked_ = now;
  return false;
}

void AbRun::start(const Parts& parts) {
  if (experiment_.running()) return;
  experiment_.start(parts.shown.ab_subject(), parts.controls, parts.lab.allocator());
  parts.controls.paused = false;
  parts.controls.speed = 1.0f;
  start_leg(parts);
}

void AbRun::record(const window::FrameSample& sample, const Parts& parts) {
  switch (experiment_.record(sample)) {
    case window::AbExperiment::Next::Continue:
      break;
    case window::AbExperiment::Next::NewLeg:
      start_leg(parts);
      break;
    case window::AbExperiment::Next::Done:
      end(parts);
      break;
  }
}

void AbRun::cancel(const Parts& parts) {
  if (!experiment_.running()) return;
  experiment_.cancel();
  end(parts);
}

void AbRun::start_leg(const Parts& parts) {
  const memory::AllocatorKind leg = experiment_.leg_allocator();
  parts.lab.set_allocator(leg);
  parts.shown.start_ab_leg(leg, parts.camera, parts.area);
}

// The saved controls and allocator again, and in the game a new game for whoever flew before.
void AbRun::end(const Parts& parts) {
  parts.controls = experiment_.saved_controls();
  parts.lab.set_allocator(experiment_.saved_allocator());
  parts.shown.end_ab(experiment_.saved_allocator());
}

}  // namespace quadpool::game::window::sdl
