#pragma once
/// The A/B run's part of the panel's pool vs new/delete section: the last result's ratio line
/// (the scene it ran in its tooltip) and its table of tick and frame times, the better figure
/// of each row green. The buttons and the progress bar are the overlay's; the ramp's part is
/// ramp_panel.hpp.

#include "game/window/ab_experiment.hpp"

namespace quadpool::game::window::sdl {

/// Nothing before the first result. `with_table` false: the ratio line and a hint, for a panel
/// with no room for the table (a query's answer shows).
void draw_ab_result(const window::AbExperiment& ab, bool with_table);

}  // namespace quadpool::game::window::sdl
