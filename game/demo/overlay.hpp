#pragma once
/// The ImGui overlay, a panel docked beside the world (layout.hpp): frame times by phase, the
/// allocator switch, tree statistics, the key map, the A/B run, controls, pool and vertex-stream
/// occupancy. The panels draw
/// what an OverlayView hands them and return what the user asked for as OverlayRequests; they
/// never reach into the App.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/memory/allocator_kind.hpp"
#include "engine/memory/pool_allocator.hpp"
#include "game/demo/ab_experiment.hpp"
#include "game/demo/controls.hpp"
#include "game/demo/frame_stats.hpp"
#include "game/demo/layout.hpp"
#include "game/demo/selection.hpp"
#include "game/demo/sprite_renderer.hpp"
#include "game/demo/vertex_stream.hpp"
#include "game/simulation.hpp"
#include "scene/scene.hpp"

struct ImGuiStyle;

namespace quadpool::game::demo {

/// What the overlay shows this frame. `controls` is the one thing its widgets change in place.
struct OverlayView {
  const FrameStats& stats;
  const Simulation& sim;
  const VertexStream& stream;
  const AbExperiment& ab;
  const Selection& selection;
  Controls& controls;
  DrawCounts last_draw{};
  std::uint64_t frame = 0;
  bool heap_counted = false;
  const std::string& renderer_name;
  const Layout& layout;
};

/// What the user asked for through the overlay's widgets this frame; the App applies it.
struct OverlayRequests {
  std::optional<memory::AllocatorKind> allocator;
  std::optional<std::size_t> sprites;       // the slider was let go: a new scene of this size
  std::optional<std::uint64_t> reset_seed;  // Reset was pressed, with the seed field's value
  std::optional<scene::SceneKind> scene;           // a pick in the scene list: a new scene of this kind
  struct TreeLimits {
    int max_depth, leaf_capacity;
  };
  std::optional<TreeLimits> tree_limits;  // a tree slider was let go: these settings
  bool start_ab = false;
  bool cancel_ab = false;
};

class Overlay {
 public:
  explicit Overlay(std::uint64_t seed);
  ~Overlay();
  Overlay(const Overlay&) = delete;
  Overlay& operator=(const Overlay&) = delete;

  /// Draws the panel docked at view.layout.panel (with the key map when controls.show_help).
  OverlayRequests draw(const OverlayView& view);
  /// Where ImGui really put the panel in the last draw(), window pixels (read back, so a test
  /// can check it against the world's rectangle).
  const ScreenRect& drawn_panel() const noexcept { return drawn_; }
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
  void draw_scene_controls(const OverlayView& view, OverlayRequests& requests);
  void draw_ab_panel(const OverlayView& view, OverlayRequests& requests);
  void draw_keys_panel(bool& open);
  void draw_query_panel(const OverlayView& view);
  void apply_scale(float scale);

  std::vector<memory::BlockState> chunk_states_;  // the per-chunk strip, refreshed now and then
  int sprites_slider_ = 0;
  int depth_slider_ = 0, capacity_slider_ = 0;  // the tree settings' sliders
  std::uint64_t seed_input_;
  float scale_ = 0.0f;  // the layout's UI scale, as last applied to ImGui's style
  std::unique_ptr<ImGuiStyle> base_style_;  // the style at scale 1, taken at the first draw
  float content_w_ = 0.0f;                  // the panel's inner width this frame
  ScreenRect drawn_{};
};

}  // namespace quadpool::game::demo
