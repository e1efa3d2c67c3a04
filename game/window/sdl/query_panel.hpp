#pragma once
/// The panel's query section (the lab's box, ray and nearest queries, Q and X): the last query's
/// answer and its time beside brute force's, a red line when the two disagree, and the picked
/// sprite with its leaf. Nothing while there is no query, no pick and the mode is the default.

#include <span>

#include "common/scene/scene.hpp"
#include "game/window/selection.hpp"

namespace quadpool::game::window::sdl {

/// Inside the panel's ImGui window; `sprites` are the simulation's, which the pick indexes.
void draw_query_panel(const window::Selection& selection, std::span<const scene::Sprite> sprites);

}  // namespace quadpool::game::window::sdl
