// The ImGui overlay, a panel docked on the left: frame times by phase, the allocator switch,
// tree statistics, the key map, the A/B run, controls, pool and vertex-stream occupancy. The
// query, node pool, A/B result and ramp sections are drawn by their own files (*_panel.cpp).
//
// Sections: drawing helpers, the main window, memory, controls, game pools and keys, notices.
#include "game/window/sdl/overlay.hpp"

#include <imgui.h>
#include <imgui_internal.h>  // the panel's content extent (ImGuiWindow::DC.CursorMaxPos)

#include <algorithm>
#include <array>
#include <cinttypes>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "common/scene/scene.hpp"
#include "engine/memory/allocator_kind.hpp"
#include "game/window/sdl/ab_panel.hpp"
#include "game/window/sdl/key_map.hpp"
#include "game/window/sdl/panel_style.hpp"
#include "game/window/sdl/play_hud.hpp"
#include "game/window/sdl/query_panel.hpp"
#include "game/window/sdl/ramp_panel.hpp"

namespace quadpool::game::window::sdl {

namespace {

// --- drawing helpers ---------------------------------------------------------------------------

// Phase colours, shared by the graph and its legend.
constexpr ImU32 kPhaseColours[5] = {
    IM_COL32(120, 180, 255, 255),  // integrate
    IM_COL32(255, 170, 60, 255),   // rebuild
    IM_COL32(230, 90, 200, 255),   // pairs
    IM_COL32(110, 220, 120, 255),  // resolve
    IM_COL32(150, 150, 160, 255),  // render
};
constexpr const char* kPhaseNames[5] = {"integrate", "rebuild", "pairs", "resolve", "render"};
constexpr ImU32 kStale = IM_COL32(240, 150, 50, 255);
constexpr ImU32 kNotice = IM_COL32(255, 210, 90, 255);

// An A/B run or the ramp is timing the ticks: the widgets that would change them are locked.
bool measuring(const OverlayView& view) {
  return view.ab.running() || view.ramp.running();
}

// An integer field with - and + (ctrl: `fast_step`), clamped to [low, high]. True when a new
// value is to be applied: a step, or a typed value and Enter.
bool tree_field(const char* label, int& value, int low, int high, int fast_step) {
  const bool changed =
      ImGui::InputInt(label, &value, 1, fast_step, ImGuiInputTextFlags_EnterReturnsTrue);
  value = std::clamp(value, low, high);
  return changed;
}

// A graph of the last FrameStats::kHistory frames, one column per frame, stacked by the first
// `phases` phases (5: the whole frame, 4: the tick alone), oldest on the left. The whole-frame
// graph has a 60 FPS line; the tick graph has a strip under it coloured by allocator.
void draw_phase_graph(const window::FrameStats& stats, int phases, float width, float height,
                      bool whole_frame) {
  const std::size_t n = stats.history_size();
  auto value = [](const window::FrameSample& s, int p) {
    const sim::PhaseTimes& ms = s.tick.ms;
    const double parts[5] = {ms.integrate, ms.rebuild, ms.pairs, ms.resolve, s.render};
    return static_cast<float>(parts[p]);
  };
  float highest = whole_frame ? 1.0f : 0.05f;
  for (std::size_t i = 0; i < n; ++i) {
    float sum = 0;
    for (int p = 0; p < phases; ++p) sum += value(stats.history(i), p);
    highest = std::max(highest, sum);
  }
  const float full_scale = !whole_frame       ? highest * 1.1f
                           : highest <= 16.7f ? 16.7f
                           : highest <= 33.3f ? 33.3f
                                              : highest * 1.1f;
  const float strip = whole_frame ? 0.0f : 3.0f;
  const ImVec2 at = reserve_bar(width, height + strip);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddRectFilled(at, ImVec2(at.x + width, at.y + height), IM_COL32(25, 25, 32, 230));
  const float column = width / static_cast<float>(window::FrameStats::kHistory);
  // The top of the graph is the label's band; the bars stay below it, so the label is readable.
  const float label_band = ImGui::GetTextLineHeight() + 2.0f;
  const float bars = height - label_band;
  for (std::size_t i = 0; i < n; ++i) {
    const window::FrameSample& s = stats.history(i);
    float y = at.y + height;
    const float x0 = at.x + static_cast<float>(i + window::FrameStats::kHistory - n) * column;
    for (int p = 0; p < phases; ++p) {
      const float h = value(s, p) / full_scale * bars;
      if (h < 0.25f) continue;
      const float top = std::max(at.y + label_band, y - h);
      draw->AddRectFilled(ImVec2(x0, top), ImVec2(x0 + column, y), kPhaseColours[p]);
      y = top;
    }
    if (!whole_frame && s.ticked) {
      draw->AddRectFilled(
          ImVec2(x0, at.y + height + 1), ImVec2(x0 + column, at.y + height + strip),
          s.tick.allocator == memory::AllocatorKind::Pool ? kPoolColour : kNewDeleteColour);
    }
  }
  if (whole_frame) {
    const float line_60 = at.y + height - 16.7f / full_scale * bars;
    draw->AddLine(ImVec2(at.x, line_60), ImVec2(at.x + width, line_60),
                  IM_COL32(255, 255, 255, 90));
  }
  const std::string label =
      whole_frame ? fmt::format("frame: {:.1f} ms full scale (line: 60 FPS)", full_scale)
                  : fmt::format("tick only: {:.2f} ms full scale", full_scale);
  draw->AddText(ImVec2(at.x + 2, at.y + 1), IM_COL32(220, 220, 220, 200), label.c_str());
}

}  // namespace

// --- the main window ---------------------------------------------------------------------------

Overlay::Overlay(std::uint64_t seed) : seed_input_(seed) {}

Overlay::~Overlay() = default;

// Text, paddings and spacings grow together; text alone would crowd at 4K.
void Overlay::apply_scale(float scale) {
  if (scale == scale_) return;
  if (!base_style_) {
    base_style_ = std::make_unique<ImGuiStyle>(ImGui::GetStyle());
    // A little tighter than ImGui's default rows, so that the panel's default sections, an A/B
    // result among them, fit in 720 pixels without a scrollbar.
    base_style_->ItemSpacing.y = 3.0f;
    base_style_->FramePadding.y = 2.0f;
  }
  ImGuiStyle& style = ImGui::GetStyle();
  style = *base_style_;
  style.ScaleAllSizes(scale);
  ImGui::GetIO().FontGlobalScale = scale;
  scale_ = scale;
}

OverlayRequests Overlay::draw(const OverlayView& view) {
  OverlayRequests requests;
  const window::ScreenRect& panel = view.layout.panel;
  apply_scale(view.layout.ui_scale);
  // Docked: the layout decides where the panel is and how big, every frame; the world is drawn
  // beside it, never under it. Sections that do not fit scroll.
  ImGui::SetNextWindowPos(ImVec2(panel.x, panel.y), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(panel.w, panel.h), ImGuiCond_Always);
  constexpr ImGuiWindowFlags kDocked =
      ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
      ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
  // The title carries the two keys a newcomer needs first; "###" keeps the window's id fixed.
  if (ImGui::Begin("quadpool      F1: keys   H: fold this panel###quadpool", nullptr, kDocked)) {
    const ImVec2 at = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    drawn_ = {at.x, at.y, size.x, size.y};
    content_w_ = ImGui::GetContentRegionAvail().x;
    // Text wraps at the panel's edge rather than being cut there.
    ImGui::PushTextWrapPos(0.0f);
    draw_stats_panel(view, requests);
    if (view.mode == Mode::Play) draw_play_panel(view);
    draw_query_panel(view.selection, view.sim.sprites());
    draw_ab_panel(view, requests);
    draw_controls_panel(view, requests);
    // In play the game pools' table has the tree's pool as its last row.
    if (view.mode == Mode::Lab) {
      node_pool_panel_.draw(view.sim.tree(), view.sim.last_tick().allocator,
                            view.sim.config().tasks.worker_count, view.frame, content_w_, scale_);
    }
    draw_stream_panel(view);
    ImGui::PopTextWrapPos();
    measure_fit();
  }
  ImGui::End();
  if (view.controls.show_help) draw_keys_window(view.controls.show_help, view.mode, view.layout);
  return requests;
}

// How far this frame's items reached past the panel's content area: a line ImGui clipped at
// the right edge, or content below the bottom that only a scrollbar would show.
void Overlay::draw_folded(const OverlayView& view) {
  apply_scale(view.layout.ui_scale);
  const window::FrameStats& stats = view.stats;
  const std::optional<window::FrameSample> ticked = stats.last_ticked();
  const double fps = stats.recent_fps();
  std::string line = fmt::format("{:.0f} FPS", fps);
  if (ticked) {
    line += fmt::format("   tick {:.2f} ms", ticked->tick.ms.total);
    if (view.heap_counted && ticked->tick.heap_allocations) {
      line += fmt::format("   heap {}/tick", *ticked->tick.heap_allocations);
    }
  }
  line +=
      fmt::format("   {} (F2)   H: panel   F1: keys", memory::allocator_name(view.sim.allocator()));
  const window::ScreenRect& world = view.layout.world;
  const ImVec2 pad = ImGui::GetStyle().WindowPadding;
  ImGui::SetNextWindowPos(ImVec2(world.x + world.w - pad.x, world.y + pad.y), ImGuiCond_Always,
                          ImVec2(1.0f, 0.0f));
  ImGui::SetNextWindowBgAlpha(0.65f);
  constexpr ImGuiWindowFlags kStrip = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoInputs |
                                      ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                                      ImGuiWindowFlags_AlwaysAutoResize |
                                      ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav;
  if (ImGui::Begin("##folded panel", nullptr, kStrip)) ImGui::TextUnformatted(line.c_str());
  ImGui::End();
  if (view.controls.show_help) draw_keys_window(view.controls.show_help, view.mode, view.layout);
}

// `slack`: pixels past the edge that do not count (an auto-sized window rounds its size down).
void Overlay::measure_fit(float slack) {
  const ImGuiWindow* window = ImGui::GetCurrentWindow();
  const ImVec2 reached = window->DC.CursorMaxPos;
  const float right = window->WorkRect.Max.x;
  const float bottom = window->InnerRect.Max.y - ImGui::GetStyle().WindowPadding.y;
  fit_.overflow_x = std::max(fit_.overflow_x, reached.x - right - slack);
  fit_.overflow_y = std::max(fit_.overflow_y, reached.y + window->Scroll.y - bottom - slack);
}

void Overlay::draw_stats_panel(const OverlayView& view, OverlayRequests& requests) {
  const window::FrameStats& stats = view.stats;
  const std::size_t n = stats.history_size();
  const window::FrameSample last = n > 0 ? stats.history(n - 1) : window::FrameSample{};
  // A frame without a tick (paused, or just after a single step) shows the last tick's figures.
  const window::FrameSample ticked =
      last.ticked ? last : stats.last_ticked().value_or(window::FrameSample{});
  const char* which_tick = last.ticked ? "this tick" : "last tick";
  const double fps = stats.recent_fps();
  text(fmt::format("{:.0f} FPS  {:.2f} ms/frame  {} sprites", fps, fps > 0 ? 1000.0 / fps : 0.0,
                   view.sim.sprites().size()));

  // The whole frame, then the simulation's tick alone at its own scale: rendering dwarfs the
  // tick, and the tick is where the allocator shows.
  draw_phase_graph(stats, 5, content_w_, 46.0f * scale_, true);
  draw_phase_graph(stats, 4, content_w_, 36.0f * scale_, false);
  const sim::PhaseTimes& tick_ms = ticked.tick.ms;
  const double phase_ms[5] = {tick_ms.integrate, tick_ms.rebuild, tick_ms.pairs, tick_ms.resolve,
                              static_cast<double>(last.render)};
  for (int p = 0; p < 5; ++p) {
    if (p != 0 && p != 3) ImGui::SameLine();
    ImGui::TextColored(colour(kPhaseColours[p]), "%s %.2f", kPhaseNames[p], phase_ms[p]);
  }

  // The allocator switch, and what this frame's tick allocated.
  ImGui::Separator();
  int kind = view.sim.allocator() == memory::AllocatorKind::Pool ? 0 : 1;
  ImGui::BeginDisabled(measuring(view));  // an A/B run or the ramp switches by itself
  ImGui::TextUnformatted(view.mode == Mode::Play ? "Nodes, entities from" : "Tree nodes from");
  ImGui::SameLine();
  const bool changed = ImGui::RadioButton("Pool", &kind, 0);
  ImGui::SameLine();
  if (ImGui::RadioButton("new/delete", &kind, 1) || changed) {
    requests.allocator = kind == 0 ? memory::AllocatorKind::Pool : memory::AllocatorKind::NewDelete;
  }
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::TextDisabled("(F2)");
  if (!view.heap_counted) {
    ImGui::TextDisabled("heap allocations: not counted (no heap hook linked)");
  } else if (ticked.tick.heap_allocations) {
    const std::uint64_t made = *ticked.tick.heap_allocations;
    const bool pool = ticked.tick.allocator == memory::AllocatorKind::Pool;
    ImGui::TextColored(colour(pool ? (made == 0 ? kBetterText : kNewDeleteColour) : kPlainText),
                       "heap allocations %s: %" PRIu64 "%s", which_tick, made,
                       pool && !ticked.tick.warm ? "  (warming up)" : "");
  } else {
    ImGui::TextDisabled("heap allocations: (no tick yet)");
  }

  const sim::TickStats& tick = view.sim.last_tick();
  // The leaf capacity is in Controls, beside its own field.
  text(fmt::format("tree: {} nodes, {} leaves, depth {} of {}", tick.tree.nodes, tick.tree.leaves,
                   tick.tree.max_depth_reached, view.sim.config().tree_max_depth));
  text(fmt::format("pairs tested {}   contacts {}", tick.pairs_tested, tick.contacts));
}

// --- memory ------------------------------------------------------------------------------------

// The node pool's section is node_pool_panel.cpp's; in play the game pools' table
// (play_hud.cpp) has the tree's pool as its last row.
void Overlay::draw_stream_panel(const OverlayView& view) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  // Closed at first, so that the panel fits in 720 pixels with an A/B result.
  if (ImGui::CollapsingHeader("Vertex stream")) {
    const window::VertexStreamStats s = view.stream.stats();
    const float bar_h = 14.0f * scale_;
    const ImVec2 at = reserve_bar(content_w_, bar_h);
    const float per_byte =
        content_w_ / static_cast<float>(std::max<std::uint64_t>(s.capacity_bytes, 1));
    draw->AddRectFilled(at, ImVec2(at.x + content_w_, at.y + bar_h), IM_COL32(40, 40, 48, 255));
    view.stream.for_each_range([&](const window::StreamRange& r) {
      const float x0 = at.x + static_cast<float>(r.offset) * per_byte;
      const float x1 = std::max(x0 + 1.0f, at.x + static_cast<float>(r.offset + r.size) * per_byte);
      draw->AddRectFilled(ImVec2(x0, at.y), ImVec2(x1, at.y + bar_h),
                          r.frame == view.frame ? kPoolColour : kStale);
    });
    ImGui::TextColored(colour(kPoolColour), "this frame %s", bytes_text(s.frame_bytes).c_str());
    ImGui::SameLine();
    ImGui::TextColored(colour(kStale), "stale %s", bytes_text(s.stale_bytes).c_str());
    ImGui::SameLine();
    text(fmt::format("free {}", bytes_text(s.free_bytes)));
    text(fmt::format("{} batches in {} draw calls, {} free blocks", s.batches,
                     view.last_draw.draw_calls, s.free_blocks));
    text(
        fmt::format("fragmentation {:.1f}%  (1 - largest free / free)", 100.0 * s.fragmentation()));
    ImGui::TextDisabled("drawn by SDL's %s renderer", view.renderer_name.c_str());
    text(fmt::format("capacity {}, {} frames in flight{}", bytes_text(s.capacity_bytes),
                     window::VertexStream::kFramesInFlight,
                     s.grows > 0 ? fmt::format(", grew {}x", s.grows) : std::string()));
  }
}

// --- controls ----------------------------------------------------------------------------------

void Overlay::draw_controls_panel(const OverlayView& view, OverlayRequests& requests) {
  if (!ImGui::CollapsingHeader("Controls", ImGuiTreeNodeFlags_DefaultOpen)) return;
  window::Controls& controls = view.controls;
  // An A/B run or the ramp owns the scene, the speed and the drawing until it is done.
  ImGui::BeginDisabled(measuring(view));
  // The game's field is the game's: its size and scene are chosen on the command line.
  const bool lab = view.mode == Mode::Lab;
  if (lab) draw_scene_size(view, requests);
  if (lab && ImGui::Button("Reset with seed (R)")) requests.reset_seed = seed_input_;
  if (lab) ImGui::SameLine();
  if (ImGui::Button(controls.paused ? "Resume (F3)" : "Pause (F3)")) {
    controls.paused = !controls.paused;
  }
  ImGui::SameLine();
  if (ImGui::Button("Step (F4)")) {
    controls.paused = true;
    controls.step_once = true;
  }
  ImGui::Checkbox("draw tree (T)", &controls.draw_tree);
  if (lab) {
    ImGui::SameLine();
    ImGui::Checkbox("highlight contacts (C)", &controls.highlight_contacts);
    draw_scene_controls(view, requests);
  }
  ImGui::EndDisabled();
}

// The lab's sprite count, speed and seed.
void Overlay::draw_scene_size(const OverlayView& view, OverlayRequests& requests) {
  window::Controls& controls = view.controls;
  ImGui::PushItemWidth(0.55f * content_w_);
  // The slider shows the live count (spawned sprites included) except while the user holds it.
  // The scene is rebuilt when the slider is let go, not on every value it passes through.
  // AlwaysClamp: ctrl+click turns a slider into a text field, which ImGui does not clamp.
  if (ImGui::GetActiveID() != ImGui::GetID("sprites")) {
    sprites_slider_ = static_cast<int>(view.sim.sprites().size());
  }
  ImGui::SliderInt("sprites", &sprites_slider_, static_cast<int>(sim::kMinSprites),
                   static_cast<int>(sim::kMaxSprites), "%d",
                   ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
  if (ImGui::IsItemDeactivatedAfterEdit()) {
    requests.sprites = static_cast<std::size_t>(sprites_slider_);
  }
  ImGui::SliderFloat("speed (ticks/frame)", &controls.speed, 0.1f, 4.0f, "%.2f",
                     ImGuiSliderFlags_AlwaysClamp);
  ImGui::InputScalar("seed", ImGuiDataType_U64, &seed_input_);
  ImGui::PopItemWidth();
}

// The scene list and the tree's settings: each change applies from the next frame (a new scene
// with the current seed and sprite count; a new tree over the same sprites).
void Overlay::draw_scene_controls(const OverlayView& view, OverlayRequests& requests) {
  const sim::SimulationConfig& config = view.sim.config();
  std::array<const char*, scene::kSceneKinds.size()> names{};
  for (std::size_t i = 0; i < scene::kSceneKinds.size(); ++i) names[i] = scene::scene_name(scene::kSceneKinds[i]);
  int scene = static_cast<int>(config.scene.kind);
  ImGui::PushItemWidth(0.55f * content_w_);
  if (ImGui::Combo("scene", &scene, names.data(), static_cast<int>(names.size()))) {
    requests.scene = scene::kSceneKinds[static_cast<std::size_t>(scene)];
  }
  // The fields follow the tree's settings except while the user edits one.
  if (!ImGui::IsAnyItemActive()) {
    depth_field_ = config.tree_max_depth;
    capacity_field_ = config.tree_leaf_capacity;
  }
  // Fields with - and + rather than sliders: a slider draws its value in its middle, where the
  // handle sits for the middle values. A step applies at once, a typed value on Enter.
  const bool depth_done =
      tree_field("tree max depth", depth_field_, sim::kMinTreeDepth, sim::kMaxTreeDepth, 1);
  const bool capacity_done =
      tree_field("leaf capacity", capacity_field_, sim::kMinLeafCapacity, sim::kMaxLeafCapacity, 8);
  ImGui::PopItemWidth();
  if (depth_done || capacity_done) {
    requests.tree_limits = OverlayRequests::TreeLimits{depth_field_, capacity_field_};
  }
}

// The A/B run and, in the lab, the ramp: their buttons or the running one's progress, then the
// result of the one that ran last (one at a time, so that the panel fits in 720 pixels).
void Overlay::draw_ab_panel(const OverlayView& view, OverlayRequests& requests) {
  const bool lab = view.mode == Mode::Lab;
  const char* title = lab ? "Pool vs new/delete: A/B, ramp###ab" : "A/B: pool vs new/delete###ab";
  if (!ImGui::CollapsingHeader(title, ImGuiTreeNodeFlags_DefaultOpen)) return;
  if (view.ab.running()) ramp_shown_ = false;
  if (view.ramp.running()) ramp_shown_ = true;
  draw_run_buttons(view, requests);
  if (lab && ramp_shown_) {
    draw_ramp_result(view.ramp, content_w_, scale_);
  } else {
    // A query's answer and the A/B table do not both fit a 720-pixel panel: while a query
    // shows, the result is its ratio line, the table back when X clears the query.
    draw_ab_result(view.ab, /*with_table=*/!view.selection.stats().has_value());
  }
}

// Cancel or Stop beside a running one's progress bar; else a button for each (the ramp's in the
// lab only), their sizes in tooltips.
void Overlay::draw_run_buttons(const OverlayView& view, OverlayRequests& requests) {
  const window::AbExperiment& ab = view.ab;
  if (ab.running()) {
    if (ImGui::Button("Cancel (Esc)")) requests.cancel_ab = true;
    ImGui::SameLine();
    const std::string left = fmt::format("{:.0f} s left", ab.seconds_left());
    ImGui::ProgressBar(ab.progress(), ImVec2(-1, 0), left.c_str());
    return;
  }
  if (view.ramp.running()) {
    requests.stop_ramp = draw_ramp_progress(view.ramp);
    return;
  }
  if (ImGui::Button("Run A/B (B)")) requests.start_ab = true;
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("%d legs x %d frames of the scene as it is", window::AbExperiment::kLegs,
                      static_cast<int>(window::AbExperiment::kLegFrames));
  }
  if (view.mode == Mode::Lab) {
    ImGui::SameLine();
    const std::string ramp = fmt::format("Ramp to {} (G)", sprites_label(view.ramp_top));
    if (ImGui::Button(ramp.c_str())) requests.start_ramp = true;
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip(
          "%d steps from %s sprites, %d legs x %d frames each", window::RampExperiment::kSteps,
          sprites_label(window::RampExperiment::steps_for(view.ramp_top)[0]).c_str(),
          window::RampExperiment::kLegs, static_cast<int>(window::RampExperiment::kLegFrames));
    }
  }
  if (ab.cancelled() && !ramp_shown_) {
    ImGui::SameLine();
    ImGui::TextDisabled("last run cancelled");
  }
}

// --- game pools and keys ----------------------------------------------------------------------

// The game's entity pools beside the tree's: what the allocator switch moves.
void Overlay::draw_play_panel(const OverlayView& view) {
  if (!ImGui::CollapsingHeader("Game pools", ImGuiTreeNodeFlags_DefaultOpen)) return;
  std::optional<std::uint64_t> heap_last_tick;
  if (const auto& last = view.stats.last_ticked()) heap_last_tick = last->tick.heap_allocations;
  draw_entity_pools(view.entities, view.sim.tree().pool_stats(), heap_last_tick);
}

// The key list in a window of its own over the world, not in the panel: the panel has no room
// for thirty rows beside its sections at 720p, and there the key column, wrapped at the panel's
// edge, came out one character wide. Its fit counts with the panel's (the summary's "panel").
void Overlay::draw_keys_window(bool& open, Mode mode, const window::Layout& layout) {
  const window::ScreenRect& world = layout.world;
  const ImVec2 pad = ImGui::GetStyle().WindowPadding;
  ImGui::SetNextWindowPos(ImVec2(world.x + pad.x, world.y + pad.y), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(std::max(world.w - 2.0f * pad.x, 1.0f), 0.0f), ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(0.9f);
  constexpr ImGuiWindowFlags kDocked =
      ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
      ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_AlwaysAutoResize;
  if (ImGui::Begin("Keys (F1 or / closes)###keys", &open, kDocked)) {
    if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_SizingFixedFit)) {
      ImGui::TableSetupColumn("input", ImGuiTableColumnFlags_WidthFixed);
      ImGui::TableSetupColumn("does", ImGuiTableColumnFlags_WidthStretch);
      for (const KeyBinding& binding : key_bindings()) {
        if (!works_in(binding.modes, mode)) continue;
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::PushTextWrapPos(-1.0f);  // a key's name on one line: the column is as wide
        ImGui::TextColored(colour(IM_COL32(255, 220, 120, 255)), "%s", binding.input);
        ImGui::PopTextWrapPos();
        ImGui::TableNextColumn();
        ImGui::TextWrapped("%s", binding.description);
      }
      ImGui::EndTable();
    }
    // An auto-sized window settles on its size over the frames after it opens (ImGui counts
    // them down in AutoFitFrames), and rounds it down to whole pixels.
    const ImGuiWindow* window = ImGui::GetCurrentWindow();
    if (!window->Appearing && window->AutoFitFramesX <= 0 && window->AutoFitFramesY <= 0) {
      measure_fit(1.0f);
    }
  }
  ImGui::End();
}

// --- notices ----------------------------------------------------------------------------------

// Over the world rather than in the panel, whose sections would move down by a line for the
// few seconds it shows, and which may be hidden.
void draw_notice(const std::string& notice, const window::ScreenRect& world) {
  if (notice.empty()) return;
  const ImVec2 pad = ImGui::GetStyle().WindowPadding;
  const ImVec2 size =
      ImGui::CalcTextSize(notice.c_str(), nullptr, false, std::max(world.w - 4.0f * pad.x, 1.0f));
  const ImVec2 at(world.x + pad.x, world.y + pad.y);
  ImDrawList* draw = ImGui::GetForegroundDrawList();
  draw->AddRectFilled(at, ImVec2(at.x + size.x + 2.0f * pad.x, at.y + size.y + 2.0f * pad.y),
                      IM_COL32(20, 20, 26, 235));
  draw->AddText(nullptr, 0.0f, ImVec2(at.x + pad.x, at.y + pad.y), kNotice, notice.c_str(), nullptr,
                size.x);
}

void Notice::show(std::string text, std::chrono::seconds shown_for) {
  text_ = std::move(text);
  until_ = std::chrono::steady_clock::now() + shown_for;
}

void Notice::draw(const window::ScreenRect& world) const {
  if (std::chrono::steady_clock::now() < until_) draw_notice(text_, world);
}

}  // namespace quadpool::game::window::sdl
