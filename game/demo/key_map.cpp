#include "game/demo/key_map.hpp"

#include <SDL.h>

namespace quadpool::game::demo {

namespace {

constexpr KeyBinding kBindings[] = {
    {"Space", "pause / resume", Action::TogglePause, {SDLK_SPACE}},
    {".", "single step (pauses)", Action::Step, {SDLK_PERIOD}},
    {"A", "switch the tree's allocator: pool / new-delete", Action::SwitchAllocator, {SDLK_a}},
    {"T", "draw the quad-tree", Action::ToggleTree, {SDLK_t}},
    {"C", "highlight contacts", Action::ToggleContacts, {SDLK_c}},
    {"R", "reset the scene with the seed in the overlay's seed field", Action::Reset, {SDLK_r}},
    {"+",
     "double the sprites (a new scene; at the cap of 1,000,000 nothing changes and a notice says "
     "so)",
     Action::DoubleSprites,
     {SDLK_PLUS, SDLK_KP_PLUS}},
    {"-",
     "halve the sprites (a new scene; at 1 sprite nothing changes and a notice says so)",
     Action::HalveSprites,
     {SDLK_MINUS, SDLK_KP_MINUS}},
    {"B",
     "run the A/B comparison (pause, speed, scene, draw toggles and queries are locked while it "
     "runs)",
     Action::StartAb,
     {SDLK_b}},
    {"F", "fit the world in the window", Action::FitCamera, {SDLK_f}},
    {"H", "hide / show the overlay", Action::ToggleUi, {SDLK_h}},
    {"F1 or /",
     "show / hide this list of keys in the panel",
     Action::ToggleHelp,
     {SDLK_F1, SDLK_SLASH}},
    {"X",
     "clear the query or the pick (so does a shift + click on empty space)",
     Action::ClearSelection,
     {SDLK_x}},
    {"F12",
     "save a screenshot (quadpool-FRAME.png in the working directory)",
     Action::Screenshot,
     {SDLK_F12}},
    {"Esc", "quit, or cancel a running A/B comparison", Action::Quit, {SDLK_ESCAPE}},
    {"left drag", "spawn sprites under the cursor", Action::None, {}},
    {"shift + left drag",
     "box query: the sprites QuadTree::query returns get a yellow ring; the panel shows the hit "
     "count and the query's time beside a brute-force scan's",
     Action::None,
     {}},
    {"shift + click",
     "pick the sprite nearest the cursor (within 6 pixels of its edge) and outline the tree leaf "
     "that holds it",
     Action::None,
     {}},
    {"right drag", "pan", Action::None, {}},
    {"wheel", "zoom at the cursor", Action::None, {}},
};

}  // namespace

std::span<const KeyBinding> key_bindings() noexcept {
  return kBindings;
}

Action action_for_key(int keycode, bool shift) noexcept {
  if (keycode == SDLK_EQUALS && shift) keycode = SDLK_PLUS;  // '+' is shift+'=' on most layouts
  for (const KeyBinding& binding : kBindings) {
    for (const int key : binding.keys) {
      if (key != 0 && key == keycode) return binding.action;
    }
  }
  return Action::None;
}

}  // namespace quadpool::game::demo
