#pragma once
/// The interactive demo's settings and entry point: the boundary between the command line
/// (cli.hpp fills WindowOptions, main.cpp calls run_window()) and the SDL2 + Dear ImGui code in
/// game/window/sdl/, which implements run_window(). Free of any display library, like
/// headless_options.hpp beside it; a build without the demo links window/window_not_built.cpp instead.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "engine/core/task_system.hpp"
#include "game/play/game_options.hpp"
#include "game/sim/simulation.hpp"

namespace quadpool::game::window {

/// The demo's caps (named in --help).
inline constexpr std::uint64_t kMaxFrames = 100'000'000;
inline constexpr int kMinWindowWidth = 320, kMaxWindowWidth = 7680;
inline constexpr int kMinWindowHeight = 240, kMaxWindowHeight = 4320;
/// --ramp-to: the ramp's top, whose steps climb from a hundredth of it (so at 100 from 1).
inline constexpr std::uint64_t kMinRampTop = 100, kDefaultRampTop = 1'000'000;

struct WindowOptions {
  /// The flags the headless runner takes too: the scene and the field, --threads, and the
  /// game's --bot (attract mode), --storm, --record (the game since its last restart) and
  /// --replay (it decides the game).
  play::GameOptions game;
  int window_width = 1280;
  int window_height = 800;
  bool window_size_given = false;  // --window: that size; else the default, shrunk to the display
  std::optional<std::uint64_t> frames;  // quit after this many frames
  std::string screenshot;               // PNG or BMP of the last frame; empty for none
  bool vsync = true;
  bool shake = true;  // --shake: the game's screen shake (off: the view stays still)
  bool ab = false;  // start an A/B run on the first frame (so --frames runs can record it)
  bool ramp = false;  // start the ramp on the first frame (in the lab: --ramp opens it)
  std::uint64_t ramp_to = kDefaultRampTop;  // the ramp's top, for --ramp and the key alike
  // The window opens on the game (see docs/window.md, "Two modes, one key apart", for why);
  // --lab opens the lab.
  bool lab = false;
  /// $QUADPOOL_FRAME_TICKS (run_window() reads it): the game's ticks in every frame of a
  /// scripted run, instead of 60 a second of wall time (window::FixedStep).
  std::optional<int> frame_ticks;
};

/// What the window runs on besides its options: the program's runtime, not the command line's.
struct WindowRuntime {
  /// The workers the tick runs on: run_window() starts options.game.threads of them (the
  /// default runs every task inline).
  TaskSystem tasks{};
  /// Counts heap allocations (quadpool::heap_allocations when the executable links
  /// quadpool::heap_hook); nullptr: the overlay and the summary show no allocation counts.
  sim::HeapCounter heap_counter = nullptr;
};

/// Opens the window and runs until the user quits or `frames` have been drawn. Returns the
/// process exit code: 0 on success, 2 when no display can be opened (after printing a message
/// that suggests --headless or xvfb-run), when $QUADPOOL_DEMO_KEYS is malformed, when the
/// replay file cannot be used, or when $QUADPOOL_ASSETS holds no sprites.png or the atlas found
/// is not a 256x128 image (all checked before any window opens), 1 when no built-in folder
/// holds the assets or SDL cannot make their texture, the screenshot or the record cannot be
/// written, or a replay that was played to its end did not end on its recorded hash.
///
/// With `frames` set it prints one JSON object on stdout at exit: the frame statistics per
/// allocator, the heap allocations of warm pool-mode ticks, the pool, the vertex stream. For
/// scripted tests, $QUADPOOL_DEMO_KEYS="FRAME:KEY,..." (SDL key names, e.g. "100:A,200:A")
/// injects key presses through SDL's event queue at the start of those frames.
int run_window(const WindowOptions& options, sim::HeapCounter heap_counter);

}  // namespace quadpool::game::window
