#pragma once
/// The ImGui overlay, a panel docked beside the world (game/window/layout.hpp): frame times by
/// phase, the allocator switch, tree statistics, the key map, the A/B run, the ramp
/// (ramp_panel.hpp), controls, pool and vertex-stream occupancy. The panels draw what an
/// OverlayView hands them and return what the user asked for as OverlayRequests; they never reach
/// into the App.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "common/scene/scene.hpp"
#include "engine/memory/allocator_kind.hpp"
#include "game/play/entity_stores.hpp"
#include "game/sim/simulation.hpp"
#include "game/window/ab_experiment.hpp"
#include "game/window/controls.hpp"
#include "game/window/frame_stats.hpp"
#include "game/window/layout.hpp"
#include "game/window/ramp_experiment.hpp"
#include "game/window/sdl/key_map.hpp"
#include "game/window/sdl/node_pool_panel.hpp"
#include "game/window/sdl/sprite_renderer.hpp"
#include "game/window/selection.hpp"
#include "game/window/vertex_stream.hpp"

struct ImGuiStyle;

namespace quadpool::game::window::sdl {

/// What the overlay shows this frame. `controls` is the one thing its widgets change in place.
struct OverlayView {
  const window::FrameStats& stats;
  const sim::Simulation& sim;
  const window::VertexStream& stream;
  const window::AbExperiment& ab;
  const window::RampExperiment& ramp;
  std::size_t ramp_top = 0;  // what the next ramp climbs to (--ramp-to)
  const window::Selection& selection;
  window::Controls& controls;
  DrawCounts last_draw{};
  std::uint64_t frame = 0;
  bool heap_counted = false;
  const std::string& renderer_name;
  const window::Layout& layout;
  Mode mode = Mode::Lab;  // in play: sim is the game's field, and the scene's controls are hidden
  std::span<const play::EntityReport> entities;  // in play: the game's entity stores
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
  bool start_ramp = false;
  bool stop_ramp = false;
};

class Overlay {
 public:
  explicit Overlay(std::uint64_t seed);
  ~Overlay();
  Overlay(const Overlay&) = delete;
  Overlay& operator=(const Overlay&) = delete;

  /// Draws the panel docked at view.layout.panel (with the key map when controls.show_help).
  OverlayRequests draw(const OverlayView& view);
  /// The panel folded (H): one line over the world's top-right corner with the frame rate, the
  /// tick, its heap allocations and the allocator, and the key list when controls.show_help.
  void draw_folded(const OverlayView& view);
  /// Where ImGui really put the panel in the last draw(), window pixels (read back, so a test
  /// can check it against the world's rectangle).
  const window::ScreenRect& drawn_panel() const noexcept { return drawn_; }
  /// Whether everything the panel drew fitted in it (read back from ImGui every frame).
  const window::PanelFit& fit() const noexcept { return fit_; }
  /// The sprite slider's value: the live count, or what the user is dragging it to.
  int sprites_slider() const noexcept { return sprites_slider_; }
  /// The seed field's value: what R resets with.
  std::uint64_t seed_field() const noexcept { return seed_input_; }

 private:
  void draw_stats_panel(const OverlayView& view, OverlayRequests& requests);
  void draw_stream_panel(const OverlayView& view);
  void draw_controls_panel(const OverlayView& view, OverlayRequests& requests);
  void draw_scene_size(const OverlayView& view, OverlayRequests& requests);
  void draw_scene_controls(const OverlayView& view, OverlayRequests& requests);
  void draw_ab_panel(const OverlayView& view, OverlayRequests& requests);
  void draw_run_buttons(const OverlayView& view, OverlayRequests& requests);
  void draw_keys_window(bool& open, Mode mode, const window::Layout& layout);
  void draw_play_panel(const OverlayView& view);
  void apply_scale(float scale);
  void measure_fit(float slack = 0.0f);

  NodePoolPanel node_pool_panel_;
  int sprites_slider_ = 0;                    // the live sprite count, or what the user drags it to
  int depth_field_ = 0, capacity_field_ = 0;  // the tree settings' fields
  std::uint64_t seed_input_;
  float scale_ = 0.0f;  // the layout's UI scale, as last applied to ImGui's style
  std::unique_ptr<ImGuiStyle> base_style_;  // the style at scale 1, taken at the first draw
  float content_w_ = 0.0f;                  // the panel's inner width this frame
  bool ramp_shown_ = false;  // the ramp ran after the A/B run: its result is the one shown
  window::ScreenRect drawn_{};
  window::PanelFit fit_{};
};

/// Draws `notice` (why the last request changed nothing) over the top-left corner of `world`,
/// on a dark box, wrapped to its width; nothing when it is empty. Call between ImGui's
/// NewFrame and Render, with or without the panel.
void draw_notice(const std::string& notice, const window::ScreenRect& world);

/// Why the last request changed nothing (or a warning), shown over the world for a while; the
/// last one is kept after it has gone, for the summary.
class Notice {
 public:
  void show(std::string text, std::chrono::seconds shown_for);
  /// draw_notice() while it is shown.
  void draw(const window::ScreenRect& world) const;
  const std::string& text() const noexcept { return text_; }

 private:
  std::string text_;
  std::chrono::steady_clock::time_point until_{};
};

}  // namespace quadpool::game::window::sdl
