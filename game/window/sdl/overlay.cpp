// The ImGui overlay, a panel docked on the left: frame times by phase, the allocator switch,
// tree statistics, the key map, the A/B run, controls, pool and vertex-stream occupancy.
//
// Sections: drawing helpers, the main window, memory, controls, keys, notices.
#include "game/window/sdl/overlay.hpp"

#include <imgui.h>
#include <imgui_internal.h>  // the panel's content extent (ImGuiWindow::DC.CursorMaxPos)

#include <algorithm>
#include <array>
#include <cinttypes>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "common/scene/scene.hpp"
#include "engine/memory/allocator_kind.hpp"
#include "game/window/sdl/key_map.hpp"
#include "game/window/sdl/play_hud.hpp"
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
// The A/B table's rows; the last is the longest and sets the names' column width.
constexpr const char* kAbRowNames[5] = {"tick median", "tick p99", "frame median", "frame p99",
                                        "heap allocs/tick"};

constexpr ImU32 kLive = IM_COL32(90, 210, 110, 255);
constexpr ImU32 kFree = IM_COL32(70, 110, 200, 255);
constexpr ImU32 kNeverUsed = IM_COL32(55, 55, 62, 255);
constexpr ImU32 kStale = IM_COL32(240, 150, 50, 255);
constexpr ImU32 kGood = IM_COL32(110, 230, 120, 255);
constexpr ImU32 kBad = IM_COL32(255, 90, 80, 255);
constexpr ImU32 kPickedLeafText = IM_COL32(255, 150, 40, 255);
constexpr ImU32 kPoolMode = IM_COL32(90, 210, 110, 255);
constexpr ImU32 kNewDeleteMode = IM_COL32(255, 90, 80, 255);
constexpr ImU32 kNotice = IM_COL32(255, 210, 90, 255);
constexpr ImU32 kBarFill = IM_COL32(40, 110, 60, 255);  // a dark kLive, under white figures

// An A/B run or the ramp is timing the ticks: the widgets that would change them are locked.
bool measuring(const OverlayView& view) {
  return view.ab.running() || view.ramp.running();
}

ImVec4 colour(ImU32 c) {
  return ImGui::ColorConvertU32ToFloat4(c);
}

std::string bytes_text(std::uint64_t bytes) {
  if (bytes >= (1u << 20)) return fmt::format("{:.1f} MiB", static_cast<double>(bytes) / (1 << 20));
  if (bytes >= (1u << 10)) return fmt::format("{:.1f} KiB", static_cast<double>(bytes) / (1 << 10));
  return fmt::format("{} B", bytes);
}

// A horizontal bar reserved in the layout; returns its top-left corner.
ImVec2 reserve_bar(float width, float height) {
  const ImVec2 at = ImGui::GetCursorScreenPos();
  ImGui::Dummy(ImVec2(width, height));
  return at;
}

void text(const std::string& s) {
  ImGui::TextUnformatted(s.c_str());
}

// The node pool bar's tooltip: how the last rebuild's nodes fell. The top levels' pool, then
// per worker the subtrees it built and their pools' live nodes, then each pool. Under
// new/delete the pools hold nothing: every worker calls new itself. A tooltip, so that it costs
// the panel no line at 720 pixels.
void pools_by_worker_tooltip(const spatial::QuadTree& tree, memory::AllocatorKind kind,
                             std::uint32_t workers) {
  ImGui::BeginTooltip();
  if (kind == memory::AllocatorKind::NewDelete) {
    text("new/delete: each worker calls new itself");
  }
  text(fmt::format("top levels: pool 0, {} nodes, the calling thread",
                   tree.pool_stats(0).blocks_in_use));
  std::vector<std::size_t> subtrees(workers, 0), nodes(workers, 0);
  for (std::size_t p = 1; p < spatial::QuadTree::kNodePools; ++p) {
    const std::uint32_t worker = tree.pool_builder(p);
    if (worker >= workers) continue;
    ++subtrees[worker];
    nodes[worker] += tree.pool_stats(p).blocks_in_use;
  }
  std::size_t built = 0;
  for (std::uint32_t w = 0; w < workers; ++w) {
    if (subtrees[w] == 0) continue;
    built += subtrees[w];
    text(fmt::format("worker {}: {} subtrees, {} nodes", w, subtrees[w], nodes[w]));
  }
  if (built == 0) {
    text(fmt::format("no subtree tasks: under {} sprites the tree is one piece",
                     spatial::QuadTree::kMinItemsForSubtreeTasks));
  }
  for (std::size_t p = 1; p < spatial::QuadTree::kNodePools && built > 0; ++p) {
    const std::uint32_t worker = tree.pool_builder(p);
    const memory::PoolStats pool = tree.pool_stats(p);
    text(worker == spatial::QuadTree::kNotBuilt
             ? fmt::format("pool {:2}: {} / {}, no subtree", p, pool.blocks_in_use, pool.capacity)
             : fmt::format("pool {:2}: {} / {}, worker {}", p, pool.blocks_in_use, pool.capacity,
                           worker));
  }
  ImGui::EndTooltip();
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
      draw->AddRectFilled(ImVec2(x0, at.y + height + 1), ImVec2(x0 + column, at.y + height + strip),
                          s.tick.allocator == memory::AllocatorKind::Pool ? kPoolMode : kNewDeleteMode);
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
    draw_query_panel(view);
    draw_ab_panel(view, requests);
    draw_controls_panel(view, requests);
    // In play the game pools' table has the tree's pool as its last row.
    if (view.mode == Mode::Lab) draw_pool_panel(view);
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
    ImGui::TextColored(colour(pool ? (made == 0 ? kGood : kBad) : IM_COL32(230, 230, 230, 255)),
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

void Overlay::draw_pool_panel(const OverlayView& view) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  if (ImGui::CollapsingHeader("Node pool", ImGuiTreeNodeFlags_DefaultOpen)) {
    const memory::PoolStats pool = view.sim.tree().pool_stats();
    const float used = pool.capacity > 0 ? static_cast<float>(pool.blocks_in_use) /
                                               static_cast<float>(pool.capacity)
                                         : 0.0f;
    const std::string label = fmt::format("{} / {} blocks", pool.blocks_in_use, pool.capacity);
    // White figures need a dark fill: ImGui's default yellow leaves them unreadable.
    ImGui::PushStyleColor(ImGuiCol_PlotHistogram, colour(kBarFill));
    ImGui::ProgressBar(used, ImVec2(content_w_, 0), label.c_str());
    ImGui::PopStyleColor();
    if (ImGui::IsItemHovered()) {
      pools_by_worker_tooltip(view.sim.tree(), view.sim.last_tick().allocator,
                              view.sim.config().tasks.worker_count);
    }
    text(fmt::format("chunks {}   high-water {}   {} each", pool.chunks, pool.high_water,
                     bytes_text(pool.block_size)));
    text(fmt::format("creates {}   destroys {}", pool.total_allocations, pool.total_deallocations));

    // Per-chunk strip, refreshed a few times a second: reading every block's state is a tool's
    // job, not a hot path.
    // The tree's pools one after the other (the top levels', then each subtree's): every pool
    // has chunks of the same size.
    const spatial::QuadTree& tree = view.sim.tree();
    const std::size_t per_chunk = tree.pool_allocator().blocks_per_chunk();
    if (view.frame % 15 == 0 || chunk_states_.size() != pool.chunks * per_chunk) {
      chunk_states_.resize(pool.chunks * per_chunk);
      std::size_t row = 0;
      for (std::size_t p = 0; p < spatial::QuadTree::kNodePools; ++p) {
        const memory::PoolAllocator& allocator = tree.pool_allocator(p);
        for (std::size_t c = 0; c < allocator.stats().chunks; ++c, ++row) {
          allocator.chunk_block_states(
              c, std::span(chunk_states_).subspan(row * per_chunk, per_chunk));
        }
      }
    }
    // One row per chunk, up to 12, in a band of the same height whatever the chunk count: the
    // panel is then as tall with one chunk as at a million sprites, so what fits with a small
    // scene fits with a large one (a band that grew with the chunks once cut the panel's last
    // section at a million sprites with an A/B result).
    constexpr std::size_t kMaxRows = 12;
    const std::size_t rows = std::clamp<std::size_t>(pool.chunks, 1, kMaxRows);
    const float band_h = 2.0f * static_cast<float>(kMaxRows) * scale_;
    const float row_h = std::max(std::floor(band_h / static_cast<float>(rows)) - 1.0f, 1.0f);
    const ImVec2 at = reserve_bar(content_w_, band_h);
    const std::size_t columns =
        std::min<std::size_t>(per_chunk, static_cast<std::size_t>(content_w_));
    const float column_w = content_w_ / static_cast<float>(columns);
    for (std::size_t c = 0; c < std::min(pool.chunks, kMaxRows); ++c) {
      const float y = at.y + static_cast<float>(c) * (row_h + 1);
      for (std::size_t col = 0; col < columns; ++col) {
        // A column covers several blocks when the chunk is wider than the panel: it shows live
        // if any block is live, else free if any is free.
        const std::size_t first = col * per_chunk / columns, end = (col + 1) * per_chunk / columns;
        memory::BlockState state = memory::BlockState::NeverUsed;
        for (std::size_t b = first; b < end; ++b) {
          const memory::BlockState s = chunk_states_[c * per_chunk + b];
          if (s == memory::BlockState::Live) {
            state = s;
            break;
          }
          if (s == memory::BlockState::Free) state = s;
        }
        const ImU32 col_colour = state == memory::BlockState::Live   ? kLive
                                 : state == memory::BlockState::Free ? kFree
                                                                     : kNeverUsed;
        const float x = at.x + static_cast<float>(col) * column_w;
        draw->AddRectFilled(ImVec2(x, y), ImVec2(x + column_w, y + row_h), col_colour);
      }
    }
    ImGui::TextColored(colour(kLive), "live");
    ImGui::SameLine();
    ImGui::TextColored(colour(kFree), "free");
    ImGui::SameLine();
    ImGui::TextColored(colour(IM_COL32(140, 140, 150, 255)), "never used");
    if (pool.chunks > kMaxRows) {
      ImGui::SameLine();
      text(fmt::format("(first {} of {} chunks)", kMaxRows, pool.chunks));
    }
  }
}

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
                          r.frame == view.frame ? kLive : kStale);
    });
    ImGui::TextColored(colour(kLive), "this frame %s", bytes_text(s.frame_bytes).c_str());
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

// The last A/B result: the ratio (the scene it ran in its tooltip), then the table unless
// `with_table` is false. One line above the table: a 720-pixel panel with the pool's full chunk
// strip has no room for two.
void Overlay::draw_ab_result(const window::AbExperiment& ab, bool with_table) {
  const std::optional<window::AbResult>& result = ab.result();
  if (result) {
    text(fmt::format("new/delete tick median = {:.2f}x pool", result->tick_median_ratio()));
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("%s, seed %" PRIu64 ", depth %d, leaf capacity %d",
                        scene::scene_name(result->scene), result->seed, result->tree_max_depth,
                        result->tree_leaf_capacity);
    }
  }
  if (result && !with_table) {
    ImGui::TextDisabled("the table: X clears the query");
    return;
  }
  if (result && ImGui::BeginTable("ab", 3, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg)) {
    // The row names' column as wide as its longest name; the figures share the rest.
    const std::string sprites = fmt::format("{} sprites", result->sprites);
    const float names_w =
        std::max(ImGui::CalcTextSize(kAbRowNames[4]).x, ImGui::CalcTextSize(sprites.c_str()).x);
    ImGui::TableSetupColumn(sprites.c_str(), ImGuiTableColumnFlags_WidthFixed, names_w);
    ImGui::TableSetupColumn("pool", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn("new/delete", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableHeadersRow();
    // The smaller figure is green.
    auto row = [](const char* name, double pool, double new_delete, const char* format) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(name);
      ImGui::TableNextColumn();
      ImGui::TextColored(colour(pool <= new_delete ? kGood : IM_COL32(230, 230, 230, 255)), format,
                         pool);
      ImGui::TableNextColumn();
      ImGui::TextColored(colour(new_delete < pool ? kGood : IM_COL32(230, 230, 230, 255)), format,
                         new_delete);
    };
    row(kAbRowNames[0], result->tick_ms[0].median, result->tick_ms[1].median, "%.3f ms");
    row(kAbRowNames[1], result->tick_ms[0].p99, result->tick_ms[1].p99, "%.3f ms");
    row(kAbRowNames[2], result->frame_ms[0].median, result->frame_ms[1].median, "%.3f ms");
    row(kAbRowNames[3], result->frame_ms[0].p99, result->frame_ms[1].p99, "%.3f ms");
    if (result->heap_allocations_per_tick[0] && result->heap_allocations_per_tick[1]) {
      row(kAbRowNames[4], *result->heap_allocations_per_tick[0],
          *result->heap_allocations_per_tick[1], "%.1f");
    }
    ImGui::EndTable();
  }
}

// --- keys --------------------------------------------------------------------------------------

void Overlay::draw_query_panel(const OverlayView& view) {
  const window::Selection& selection = view.selection;
  const window::QueryMode mode = selection.mode();
  if (!selection.stats() && !selection.pick().picking() && mode == window::QueryMode::Box) return;
  // The mode in the header, the same ImGui id in every mode so that folding it stays.
  const std::string header =
      fmt::format("Query: {} (Q: mode, X clears)###query", window::query_mode_name(mode));
  if (!ImGui::CollapsingHeader(header.c_str(), ImGuiTreeNodeFlags_DefaultOpen)) return;
  if (const std::optional<window::QueryStats>& q = selection.stats()) {
    draw_query_result(view, *q);
  } else if (!selection.pick().picking()) {
    text(mode == window::QueryMode::Ray ? "shift + drag a segment: its first sprite"
                                        : "shift + click: the 8 sprites nearest the point");
  }
  const std::optional<std::uint32_t> id = selection.pick().picked();
  if (!id || *id >= view.sim.sprites().size()) return;
  const scene::Sprite& s = view.sim.sprites()[*id];
  text(fmt::format("sprite {} at ({:.1f}, {:.1f}), radius {:.1f}", *id, s.x, s.y, s.radius));
  if (const std::optional<spatial::Aabb>& leaf = selection.pick().leaf()) {
    ImGui::TextColored(colour(kPickedLeafText), "its leaf (orange): %.0f x %.0f at (%.0f, %.0f)",
                       static_cast<double>(leaf->max_x - leaf->min_x),
                       static_cast<double>(leaf->max_y - leaf->min_y),
                       static_cast<double>(leaf->min_x), static_cast<double>(leaf->min_y));
  }
}

// One query's answer, its time beside the scan's, and a red line when the two disagree.
void Overlay::draw_query_result(const OverlayView& view, const window::QueryStats& q) {
  const char* call = "QuadTree::query";
  switch (q.mode) {
    case window::QueryMode::Box:
      text(fmt::format("box: {} hits", q.hits));
      break;
    case window::QueryMode::Ray:
      call = "QuadTree::ray_cast";
      if (q.hits == 0 || view.selection.ids().empty()) {
        text("ray: no sprite along the segment");
      } else {
        text(fmt::format("ray: sprite {} first, {:.0f}% along the segment", view.selection.ids()[0],
                         100.0 * static_cast<double>(q.ray_t)));
      }
      break;
    case window::QueryMode::Nearest:
      call = "QuadTree::nearest";
      text(fmt::format("nearest: the {} sprites nearest the cross", q.hits));
      break;
  }
  text(fmt::format("{} {:.1f} us, brute force {:.1f} us ({:.0f}x)", call, q.tree_us, q.brute_us,
                   q.tree_us > 0 ? q.brute_us / q.tree_us : 0.0));
  if (!q.agree) {
    ImGui::TextColored(colour(kBad),
                       "brute force found another answer (%zu hits): the tree is wrong",
                       q.brute_hits);
  }
}

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
