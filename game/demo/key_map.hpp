#pragma once
/// The demo's key map: one table of every key and mouse gesture with what it does. The input
/// handler dispatches keys from it, the help panel draws it, and a test checks the top README's
/// "Keys and mouse" table against it.

#include <span>

namespace quadpool::game::demo {

/// What a key asks the App to do.
enum class Action {
  None,  // mouse rows: Input handles the gesture itself
  TogglePause,
  Step,
  SwitchAllocator,
  ToggleTree,
  ToggleContacts,
  Reset,
  DoubleSprites,
  HalveSprites,
  StartAb,
  FitCamera,
  ToggleUi,
  ToggleHelp,
  ClearSelection,
  Screenshot,
  Quit,         // Esc: cancels a running A/B run instead
  CloseWindow,  // the window's close button (not a key): always quits
};

/// One row of the key map.
struct KeyBinding {
  const char* input;        // as the help panel and the README show it: "Space", "F1 or /"
  const char* description;  // what it does, the same words in the help panel and the README
  Action action;
  int keys[3];  // SDL_Keycodes that trigger it; 0 ends the list (mouse rows have none)
};

/// Every row, in the help panel's order.
std::span<const KeyBinding> key_bindings() noexcept;

/// The action bound to an SDL_Keycode (Action::None when none is). `shift`: a shift key is
/// held, which turns '=' into '+' as on most layouts.
Action action_for_key(int keycode, bool shift) noexcept;

}  // namespace quadpool::game::demo
