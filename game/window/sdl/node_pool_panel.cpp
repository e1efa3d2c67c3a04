// The lab panel's node pool section.
#include "game/window/sdl/node_pool_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <span>
#include <string>

#include <fmt/format.h>

#include "game/window/sdl/panel_style.hpp"

namespace quadpool::game::window::sdl {

namespace {

constexpr ImU32 kFree = IM_COL32(70, 110, 200, 255);
constexpr ImU32 kNeverUsed = IM_COL32(55, 55, 62, 255);
constexpr ImU32 kNeverUsedText = IM_COL32(140, 140, 150, 255);  // kNeverUsed, readable as text
constexpr ImU32 kBarFill = IM_COL32(40, 110, 60, 255);  // a dark kPoolColour, under white figures

// One row per chunk, up to this many, in a band of the same height whatever the chunk count:
// the panel is then as tall with one chunk as at a million sprites, so what fits with a small
// scene fits with a large one (a band that grew with the chunks once cut the panel's last
// section at a million sprites with an A/B result).
constexpr std::size_t kMaxRows = 12;

// How the last rebuild's nodes fell: the top levels' pool, then per worker the subtrees it built
// and their pools' live nodes, then each pool. Under new/delete the pools hold nothing: every
// worker calls new itself. A tooltip, so that it costs the panel no line at 720 pixels.
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

}  // namespace

void NodePoolPanel::draw(const spatial::QuadTree& tree, memory::AllocatorKind nodes_from,
                         std::uint32_t workers, std::uint64_t frame, float width, float scale) {
  if (!ImGui::CollapsingHeader("Node pool", ImGuiTreeNodeFlags_DefaultOpen)) return;
  const memory::PoolStats pool = tree.pool_stats();
  const float used =
      pool.capacity > 0 ? static_cast<float>(pool.blocks_in_use) / static_cast<float>(pool.capacity)
                        : 0.0f;
  const std::string label = fmt::format("{} / {} blocks", pool.blocks_in_use, pool.capacity);
  // White figures need a dark fill: ImGui's default yellow leaves them unreadable.
  ImGui::PushStyleColor(ImGuiCol_PlotHistogram, colour(kBarFill));
  ImGui::ProgressBar(used, ImVec2(width, 0), label.c_str());
  ImGui::PopStyleColor();
  if (ImGui::IsItemHovered()) pools_by_worker_tooltip(tree, nodes_from, workers);
  text(fmt::format("chunks {}   high-water {}   {} each", pool.chunks, pool.high_water,
                   bytes_text(pool.block_size)));
  text(fmt::format("creates {}   destroys {}", pool.total_allocations, pool.total_deallocations));

  refresh_chunk_states(tree, pool.chunks, frame);
  draw_chunk_strip(pool.chunks, tree.pool_allocator().blocks_per_chunk(), width, scale);
  ImGui::TextColored(colour(kPoolColour), "live");
  ImGui::SameLine();
  ImGui::TextColored(colour(kFree), "free");
  ImGui::SameLine();
  ImGui::TextColored(colour(kNeverUsedText), "never used");
  if (pool.chunks > kMaxRows) {
    ImGui::SameLine();
    text(fmt::format("(first {} of {} chunks)", kMaxRows, pool.chunks));
  }
}

// A few times a second, or when the chunk count changed: reading every block's state is a
// tool's job, not a hot path. The tree's pools one after the other (the top levels', then each
// subtree's): every pool has chunks of the same size.
void NodePoolPanel::refresh_chunk_states(const spatial::QuadTree& tree, std::size_t chunks,
                                         std::uint64_t frame) {
  const std::size_t per_chunk = tree.pool_allocator().blocks_per_chunk();
  if (frame % 15 != 0 && chunk_states_.size() == chunks * per_chunk) return;
  chunk_states_.resize(chunks * per_chunk);
  std::size_t row = 0;
  for (std::size_t p = 0; p < spatial::QuadTree::kNodePools; ++p) {
    const memory::PoolAllocator& allocator = tree.pool_allocator(p);
    for (std::size_t c = 0; c < allocator.stats().chunks; ++c, ++row) {
      allocator.chunk_block_states(c, std::span(chunk_states_).subspan(row * per_chunk, per_chunk));
    }
  }
}

// One row per chunk (up to kMaxRows), a column per block or, when a chunk is wider than the
// panel, per few blocks.
void NodePoolPanel::draw_chunk_strip(std::size_t chunks, std::size_t per_chunk, float width,
                                     float scale) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const std::size_t rows = std::clamp<std::size_t>(chunks, 1, kMaxRows);
  const float band_h = 2.0f * static_cast<float>(kMaxRows) * scale;
  const float row_h = std::max(std::floor(band_h / static_cast<float>(rows)) - 1.0f, 1.0f);
  const ImVec2 at = reserve_bar(width, band_h);
  const std::size_t columns = std::min<std::size_t>(per_chunk, static_cast<std::size_t>(width));
  const float column_w = width / static_cast<float>(columns);
  for (std::size_t c = 0; c < std::min(chunks, kMaxRows); ++c) {
    const float y = at.y + static_cast<float>(c) * (row_h + 1);
    for (std::size_t col = 0; col < columns; ++col) {
      // A column covering several blocks shows live if any block is live, else free if any is.
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
      const ImU32 fill = state == memory::BlockState::Live   ? kPoolColour
                         : state == memory::BlockState::Free ? kFree
                                                             : kNeverUsed;
      const float x = at.x + static_cast<float>(col) * column_w;
      draw->AddRectFilled(ImVec2(x, y), ImVec2(x + column_w, y + row_h), fill);
    }
  }
}

}  // namespace quadpool::game::window::sdl
