#include "game/window/sdl/key_map.hpp"

#include <SDL.h>

namespace quadpool::game::window::sdl {

namespace {

constexpr Modes kPlay = Modes::Play;
constexpr Modes kLab = Modes::Lab;
constexpr Modes kBoth = Modes::Both;

constexpr KeyBinding kBindings[] = {
    {"Tab", kBoth, "switch between the game and the lab", Action::SwitchMode, {SDLK_TAB}},
    // The pilot's (PilotInput's): listed for the help panel and the README, dispatched there.
    {"W or Up", kPlay, "thrust", Action::None, {}},
    {"A or Left, D or Right",
     kPlay,
     "turn left, turn right (turns mouse aim off until the mouse moves)",
     Action::None,
     {}},
    {"S or Down", kPlay, "nothing: the ship has no brake (turn and thrust)", Action::None, {}},
    {"Space", kPlay, "fire", Action::None, {}},
    {"mouse", kPlay, "aim the guns at the cursor", Action::None, {}},
    {"left button", kPlay, "fire at the cursor", Action::None, {}},
    {"Enter", kPlay, "play again after the game is over", Action::None, {}},
    {"game controller",
     kPlay,
     "left stick turns toward where it points and thrusts past half way, right stick aims, "
     "right trigger or A fires, the d-pad steers and thrusts, Start plays again",
     Action::None,
     {}},
    {"M", kBoth, "mute / unmute the sound", Action::ToggleMute, {SDLK_m}},
    {"F3", kBoth, "pause / resume", Action::TogglePause, {SDLK_F3}},
    {"F4", kBoth, "single step (pauses)", Action::Step, {SDLK_F4}},
    {"F2",
     kBoth,
     "switch the allocator of the tree's nodes and of the game's entities: pool / new-delete",
     Action::SwitchAllocator,
     {SDLK_F2}},
    {"T", kBoth, "draw the quad-tree", Action::ToggleTree, {SDLK_t}},
    {"C", kLab, "highlight contacts", Action::ToggleContacts, {SDLK_c}},
    {"R",
     kLab,
     "reset the scene with the seed in the overlay's seed field",
     Action::Reset,
     {SDLK_r}},
    {"+",
     kLab,
     "double the sprites (a new scene; at the cap of 1,000,000 nothing changes and a notice says "
     "so)",
     Action::DoubleSprites,
     {SDLK_PLUS, SDLK_KP_PLUS}},
    {"-",
     kLab,
     "halve the sprites (a new scene; at 1 sprite nothing changes and a notice says so)",
     Action::HalveSprites,
     {SDLK_MINUS, SDLK_KP_MINUS}},
    {"B",
     kBoth,
     "run the A/B comparison (in the game press it twice: it ends your game, the bot flies "
     "every leg; pause, speed, scene, draw toggles and queries are locked while it runs)",
     Action::StartAb,
     {SDLK_b}},
    {"G",
     kLab,
     "ramp the field from 10,000 to 1,000,000 sprites (--ramp-to sets the top), timing the tick "
     "with the pools against new-delete at each step; the panel plots both (G again stops it; "
     "the same things as in an A/B run are locked meanwhile)",
     Action::ToggleRamp,
     {SDLK_g}},
    {"F", kLab, "fit the world in the window", Action::FitCamera, {SDLK_f}},
    {"H",
     kBoth,
     "show / fold the panel (the game starts with it folded to one line, the lab with it open)",
     Action::ToggleUi,
     {SDLK_h}},
    {"F1 or /",
     kBoth,
     "show / hide this list of keys over the world",
     Action::ToggleHelp,
     {SDLK_F1, SDLK_SLASH}},
    {"X",
     kLab,
     "clear the query or the pick (so does a shift + click on empty space)",
     Action::ClearSelection,
     {SDLK_x}},
    {"Q",
     kLab,
     "switch the query tool's mode: box, ray, nearest (the panel shows the mode)",
     Action::NextQueryMode,
     {SDLK_q}},
    {"F12",
     kBoth,
     "save a screenshot (quadpool-FRAME.png in the working directory)",
     Action::Screenshot,
     {SDLK_F12}},
    {"Esc", kBoth, "quit, or cancel a running A/B comparison or ramp", Action::Quit, {SDLK_ESCAPE}},
    {"left drag", kLab, "spawn sprites under the cursor", Action::None, {}},
    {"shift + left drag",
     kLab,
     "query the tree in the mode Q chose: box (the sprites QuadTree::query returns), ray (the "
     "first sprite QuadTree::ray_cast meets from the drag's start to its end) or nearest (the 8 "
     "sprites QuadTree::nearest finds nearest the cursor); they get a yellow ring, and the panel "
     "shows the answer and the query's time beside a brute-force scan's",
     Action::None,
     {}},
    {"shift + click",
     kLab,
     "in the box and ray modes, pick the sprite nearest the cursor (within 6 pixels of its edge) "
     "and outline the tree leaf that holds it; in the nearest mode, the nearest query there",
     Action::None,
     {}},
    {"right drag", kLab, "pan", Action::None, {}},
    {"wheel",
     kBoth,
     "zoom at the cursor (in the game the camera keeps the zoom and follows the ship)",
     Action::None,
     {}},
};

}  // namespace

bool works_in(Modes modes, Mode mode) noexcept {
  return modes == Modes::Both || (modes == Modes::Play) == (mode == Mode::Play);
}

const char* modes_name(Modes modes) noexcept {
  switch (modes) {
    case Modes::Play:
      return "play";
    case Modes::Lab:
      return "lab";
    case Modes::Both:
      return "both";
  }
  return "?";
}

std::span<const KeyBinding> key_bindings() noexcept {
  return kBindings;
}

bool locked_during_ab(Action action) noexcept {
  switch (action) {
    case Action::TogglePause:
    case Action::Step:
    case Action::SwitchAllocator:
    case Action::ToggleTree:
    case Action::ToggleContacts:
    case Action::Reset:
    case Action::DoubleSprites:
    case Action::HalveSprites:
    case Action::StartAb:
    case Action::ToggleRamp:
    case Action::ToggleUi:
    case Action::SwitchMode:
      return true;
    default:
      return false;
  }
}

Action action_for_key(int keycode, bool shift, Mode mode) noexcept {
  if (keycode == SDLK_EQUALS && shift) keycode = SDLK_PLUS;  // '+' is shift+'=' on most layouts
  for (const KeyBinding& binding : kBindings) {
    if (!works_in(binding.modes, mode)) continue;
    for (const int key : binding.keys) {
      if (key != 0 && key == keycode) return binding.action;
    }
  }
  return Action::None;
}

}  // namespace quadpool::game::window::sdl
