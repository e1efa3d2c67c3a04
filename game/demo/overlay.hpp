#pragma once
/// The ImGui overlay: frame times by phase, the allocator switch, pool and vertex-stream
/// occupancy, tree statistics, controls, the A/B result and the help panel. The panels draw
/// what an OverlayView hands them and return what the user asked for as OverlayRequests; they
/// never reach into the App.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/memory/pool_allocator.hpp"
#include "game/demo/ab_experiment.hpp"
#include "game/demo/controls.hpp"
#include "game/demo/frame_stats.hpp"
#include "game/demo/sprite_renderer.hpp"
#include "game/demo/vertex_stream.hpp"
#include "game/simulation.hpp"

namespace quadpool::game::demo {

/// What the overlay shows this frame. `controls` is the one thing its widgets change in place.
struct OverlayView {
  const FrameStats& stats;
  const Simulation& sim;
  const VertexStream& stream;
  const AbExperiment& ab;
  Controls& controls;
  DrawCounts last_draw{};
  std::uint64_t frame = 0;
  bool heap_counted = false;
  const std::string& renderer_name;
  int window_width = 0;
};

/// What the user asked for through the overlay's widgets this frame; the App applies it.
struct OverlayRequests {
  std::optional<AllocatorKind> allocator;
  std::optional<std::size_t> sprites;       // the slider was let go: a new scene of this size
  std::optional<std::uint64_t> reset_seed;  // Reset was pressed, with the seed field's value
  bool start_ab = false;
};

class Overlay {
 public:
  /// Width of the overlay's main window, pixels: the camera fits the world beside it.
  static constexpr float kWidth = 390.0f;

  explicit Overlay(std::uint64_t seed) : seed_input_(seed) {}

  /// Draws the main window (and the help panel when controls.show_help).
  OverlayRequests draw(const OverlayView& view);
  /// The seed field's value: what R resets with.
  std::uint64_t seed_field() const noexcept { return seed_input_; }
  /// Moves the sprite slider to a new scene's size.
  void show_scene_size(std::size_t sprites) noexcept {
    sprites_slider_ = static_cast<int>(sprites);
  }

 private:
  void draw_stats_panel(const OverlayView& view, OverlayRequests& requests);
  void draw_pool_panel(const OverlayView& view);
  void draw_stream_panel(const OverlayView& view);
  void draw_controls_panel(const OverlayView& view, OverlayRequests& requests);
  void draw_ab_panel(const OverlayView& view, OverlayRequests& requests);

  std::vector<memory::BlockState> chunk_states_;  // the per-chunk strip, refreshed now and then
  int sprites_slider_ = 0;
  std::uint64_t seed_input_;
};

/// The help panel: the key map (key_map.hpp), at the window's top-right corner. `open` is
/// cleared when its close button is pressed.
void draw_help_panel(bool& open, int window_width);

}  // namespace quadpool::game::demo
