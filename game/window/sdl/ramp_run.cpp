// The ramp in the window: start, steps, legs, end.
#include "game/window/sdl/ramp_run.hpp"

namespace quadpool::game::window::sdl {

void RampRun::start(const Parts& parts, std::size_t top) {
  if (experiment_.running()) return;
  const window::RampExperiment::Next first =
      experiment_.start(parts.lab.sim().config().scene, top, parts.controls, parts.lab.allocator());
  parts.controls.paused = false;
  parts.controls.speed = 1.0f;
  apply(first, parts);
}

void RampRun::record(const window::FrameSample& sample, const Parts& parts) {
  apply(experiment_.record(sample), parts);
}

void RampRun::stop(const Parts& parts) {
  if (!experiment_.running()) return;
  experiment_.stop();
  parts.controls = experiment_.saved_controls();
  parts.lab.set_allocator(experiment_.saved_allocator());
}

void RampRun::apply(window::RampExperiment::Next next, const Parts& parts) {
  switch (next) {
    case window::RampExperiment::Next::Continue:
      break;
    case window::RampExperiment::Next::Grow:
      parts.lab.start_ramp_step(experiment_.step_sprites(), experiment_.scene().seed,
                                experiment_.leg_allocator(), parts.camera, parts.area);
      break;
    case window::RampExperiment::Next::Switch:
      parts.lab.set_allocator(experiment_.leg_allocator());
      break;
    case window::RampExperiment::Next::Done:
      // The field stays at the top, on the allocator and controls the user had.
      parts.controls = experiment_.saved_controls();
      parts.lab.set_allocator(experiment_.saved_allocator());
      break;
  }
}

}  // namespace quadpool::game::window::sdl
