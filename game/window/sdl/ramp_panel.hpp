#pragma once
/// The ramp's part of the panel's pool vs new/delete section: while it runs, Stop and a
/// progress bar; then the plot of each step's tick median with the pools (green) and with
/// new/delete (red) against the sprite count, both axes logarithmic, with new/delete's median
/// over the pool's under each step. Drawn with ImGui's draw list, since ImGui 1.86's PlotLines
/// draws one series.

#include <cstddef>
#include <string>

#include "game/window/ramp_experiment.hpp"

namespace quadpool::game::window::sdl {

/// "10k", "1M", "500": a sprite count short enough for seven under the panel.
std::string sprites_label(std::size_t sprites);

/// Stop and the progress bar of a running ramp, on one line; true when Stop was pressed.
bool draw_ramp_progress(const window::RampExperiment& ramp);

/// The scene line and the plot of the steps measured so far, `width` pixels wide at UI scale
/// `scale` (inside the panel's ImGui window).
void draw_ramp_result(const window::RampExperiment& ramp, float width, float scale);

}  // namespace quadpool::game::window::sdl
