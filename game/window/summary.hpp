#pragma once
/// The JSON summary the demo prints on stdout at exit when --frames is given: the frame
/// statistics per allocator, the heap allocations of warm pool-mode ticks, the pool, the tree
/// and the vertex stream. All of the demo's JSON is written here.

#include <cstddef>
#include <cstdint>
#include <string>

#include "game/play/play_report.hpp"
#include "game/sim/simulation.hpp"
#include "game/window/ab_experiment.hpp"
#include "game/window/frame_stats.hpp"
#include "game/window/layout.hpp"
#include "game/window/ramp_experiment.hpp"
#include "game/window/selection.hpp"
#include "game/window/vertex_stream.hpp"

namespace quadpool::game::window {

/// What the summary says about the window's game beside its "game" object.
struct PlaySummary {
  std::string pilot;             // "player", "bot" or "replay"
  std::uint64_t state_hash = 0;  // the game's (PlayWorld::state_hash), as a replay records it
  std::uint64_t high_score = 0;
  std::string notice;  // the last high-score notice shown; empty: none
  bool sound_device = false;
  bool muted = false;
  std::uint64_t sounds_played = 0;
};

/// Everything the summary reports, read from the App's parts at exit.
struct SummaryInputs {
  const FrameStats& stats;
  const sim::Simulation& sim;
  std::uint64_t seed = 0;
  std::uint64_t allocator_switches = 0;
  VertexStreamStats stream{};
  std::size_t draw_calls = 0;
  bool density_map = false;  // the last frame drew the sprites as a density map
  std::size_t sprites_in_view = 0;     // the last frame's sprites inside the view
  std::size_t sprites_one_by_one = 0;  // of those, drawn as a quad each (0 with the map)
  std::string renderer;
  Layout layout{};  // the last frame's
  std::uint64_t layout_refits = 0;
  std::uint64_t layout_frames_overlapping = 0;  // frames the drawn panel overlapped the world
  bool vsync = false;
  bool draw_tree = false;  // the shown mode draws the tree (T)
  /// The game's clock (window::FixedStep): ticks it ran and the wall seconds it ran for.
  std::uint64_t game_ticks = 0;
  double game_seconds = 0;
  bool heap_counter = false;
  double cpu_ms_per_frame = 0;              // this process's CPU time per frame, start-up included
  const std::string* screenshot = nullptr;  // the file written; nullptr: none
  const AbExperiment& ab;
  const RampExperiment& ramp;
  const std::string& f12_screenshot;  // the last one F12 saved; empty: none
  const Selection& selection;
  PanelFit panel_fit{};       // how far the panel's content ever reached past its edges
  int sprites_slider = 0;     // the panel's sprite slider at exit
  const std::string& notice;  // the last notice shown (why a key changed nothing); empty: none
  ScreenRect world_drawn{};   // where the world square lands in the window at exit
  const char* mode = "lab";   // the mode at exit: "play" or "lab"
  const play::GameReport* game = nullptr;  // in play: the headless JSON's "game" object
  const PlaySummary* play = nullptr;  // in play
};

/// The summary as one line of JSON.
std::string summary_json(const SummaryInputs& in);

}  // namespace quadpool::game::window
