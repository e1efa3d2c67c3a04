#pragma once
/// The demo's key map: one table of every key and mouse gesture with what it does and in which
/// mode (the game, the lab or both). The input handler dispatches keys from it, the help panel
/// draws it, and a test checks the top README's "Keys and mouse" table against it. The pilot's
/// rows (keys, mouse and controller of the game) are listed here but dispatched by PilotInput:
/// no key of theirs does anything else in play, so the lab's keys that would collide with them
/// (pause, step, the allocator switch) sit on function keys that are free in both modes.

#include <span>

namespace quadpool::game::window::sdl {

/// The window's two modes: the game, and the lab (watch, spawn, query, A/B).
enum class Mode { Play, Lab };

/// Which modes a row works in.
enum class Modes { Play, Lab, Both };

/// True when a row of `modes` works in `mode`.
bool works_in(Modes modes, Mode mode) noexcept;

/// "play", "lab", "both": the README's and the help panel's spelling.
const char* modes_name(Modes modes) noexcept;

/// What a key asks the App to do.
enum class Action {
  None,  // mouse rows, the pilot's rows: Input or PilotInput handles them itself
  TogglePause,
  Step,
  SwitchAllocator,
  ToggleTree,
  ToggleContacts,
  Reset,
  DoubleSprites,
  HalveSprites,
  StartAb,
  ToggleRamp,  // starts the ramp, or stops a running one
  FitCamera,
  ToggleUi,
  ToggleHelp,
  ClearSelection,
  NextQueryMode,
  Screenshot,
  SwitchMode,
  ToggleMute,
  Quit,         // Esc: cancels a running A/B run or ramp instead
  CloseWindow,  // the window's close button (not a key): always quits
};

/// One row of the key map.
struct KeyBinding {
  const char* input;  // as the help panel and the README show it: "Space", "F1 or /"
  Modes modes;
  const char* description;  // what it does, the same words in the help panel and the README
  Action action;
  int keys[3];  // SDL_Keycodes that trigger it; 0 ends the list (mouse rows have none)
};

/// Actions that would change what an A/B run or the ramp measures: they wait until it is done
/// (the ramp's own key stops it).
bool locked_during_ab(Action action) noexcept;

/// Every row, in the help panel's order.
std::span<const KeyBinding> key_bindings() noexcept;

/// The action bound to an SDL_Keycode in `mode` (Action::None when none is, or when its row is
/// the other mode's). `shift`: a shift key is held, which turns '=' into '+' as on most layouts.
Action action_for_key(int keycode, bool shift, Mode mode) noexcept;

}  // namespace quadpool::game::window::sdl
