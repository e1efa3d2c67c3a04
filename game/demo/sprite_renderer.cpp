#include "game/demo/sprite_renderer.hpp"

#include <SDL.h>

#include <algorithm>
#include <cstddef>

namespace quadpool::game::demo {

static_assert(sizeof(Vertex) == sizeof(SDL_Vertex) &&
                  offsetof(Vertex, x) == offsetof(SDL_Vertex, position) &&
                  offsetof(Vertex, r) == offsetof(SDL_Vertex, color) &&
                  offsetof(Vertex, u) == offsetof(SDL_Vertex, tex_coord),
              "Vertex must have SDL_Vertex's layout");

namespace {
constexpr Rgba kWhite{255, 255, 255, 255};
constexpr Rgba kContact{255, 70, 40, 255};
constexpr Rgba kSelected{255, 255, 120, 255};
constexpr Rgba kSelectionBox{255, 255, 120, 200};
constexpr Rgba kWorldBorder{200, 200, 220, 160};
constexpr Rgba kTreeLine{90, 200, 255, 70};
// Sprites never shrink below this on screen, so that a fitted 100k-sprite world stays visible.
constexpr float kMinPixelRadius = 1.0f;
}  // namespace

/// Fills one stream range with quads and draws it with one call when full or done.
class SpriteRenderer::Batch {
 public:
  Batch(SpriteRenderer& owner, VertexStream& stream, DrawCounts& counts)
      : owner_(owner), stream_(stream), counts_(counts) {}
  ~Batch() { flush(); }
  Batch(const Batch&) = delete;
  Batch& operator=(const Batch&) = delete;

  /// Reserves room for up to `expected` more quads in the next range, so that a batch's range
  /// matches what it draws instead of always taking kBatchQuads.
  void expect(std::size_t expected) { expected_ = expected; }

  void quad(float x0, float y0, float x1, float y1, const AtlasRegion& t, Rgba c) {
    if (used_ == vertices_.size() / 4) {
      flush();
      const std::size_t quads = std::clamp<std::size_t>(expected_, 1, kBatchQuads);
      vertices_ = stream_.allocate(quads * 4);
    }
    Vertex* v = &vertices_[used_ * 4];
    v[0] = {x0, y0, c.r, c.g, c.b, c.a, t.u0, t.v0};
    v[1] = {x1, y0, c.r, c.g, c.b, c.a, t.u1, t.v0};
    v[2] = {x1, y1, c.r, c.g, c.b, c.a, t.u1, t.v1};
    v[3] = {x0, y1, c.r, c.g, c.b, c.a, t.u0, t.v1};
    ++used_;
    if (expected_ > 0) --expected_;
  }

  void flush() {
    if (used_ == 0) return;
    SDL_RenderGeometry(owner_.renderer_, owner_.atlas_.texture,
                       reinterpret_cast<const SDL_Vertex*>(vertices_.data()),
                       static_cast<int>(used_ * 4), owner_.indices_.data(),
                       static_cast<int>(used_ * 6));
    counts_.quads += used_;
    ++counts_.draw_calls;
    used_ = 0;
    vertices_ = {};
  }

 private:
  SpriteRenderer& owner_;
  VertexStream& stream_;
  DrawCounts& counts_;
  std::span<Vertex> vertices_;
  std::size_t used_ = 0;
  std::size_t expected_ = 0;
};

SpriteRenderer::SpriteRenderer(SDL_Renderer* renderer, const Atlas& atlas)
    : renderer_(renderer), atlas_(atlas), indices_(kBatchQuads * 6) {
  for (std::size_t q = 0; q < kBatchQuads; ++q) {
    const int base = static_cast<int>(q * 4);
    const int pattern[6] = {0, 1, 2, 2, 3, 0};
    for (int i = 0; i < 6; ++i) indices_[q * 6 + static_cast<std::size_t>(i)] = base + pattern[i];
  }
}

DrawCounts SpriteRenderer::draw(VertexStream& stream, const Camera& camera, const ScreenRect& area,
                                const WorldView& view) {
  DrawCounts counts;
  const spatial::Aabb visible = camera.visible_world(area);
  const float scale = camera.scale();
  auto line = [&](Batch& batch, float x0, float y0, float x1, float y1, Rgba c) {
    // World-space segment, axis-aligned, drawn one pixel wide.
    const ScreenPoint a = camera.to_screen(x0, y0), b = camera.to_screen(x1, y1);
    batch.quad(a.x, a.y, std::max(b.x, a.x + 1.0f), std::max(b.y, a.y + 1.0f), atlas_.white, c);
  };
  auto outline = [&](Batch& batch, const spatial::Aabb& box, Rgba c) {
    line(batch, box.min_x, box.min_y, box.max_x, box.min_y, c);
    line(batch, box.min_x, box.max_y, box.max_x, box.max_y, c);
    line(batch, box.min_x, box.min_y, box.min_x, box.max_y, c);
    line(batch, box.max_x, box.min_y, box.max_x, box.max_y, c);
  };
  auto ring = [&](Batch& batch, const Sprite& s, float grow, const AtlasRegion& region, Rgba c) {
    const ScreenPoint p = camera.to_screen(s.x, s.y);
    const float r = std::max(s.radius * scale, kMinPixelRadius) * grow + 1.0f;
    batch.quad(p.x - r, p.y - r, p.x + r, p.y + r, region, c);
  };

  Batch batch(*this, stream, counts);
  outline(batch, {0, 0, view.world_side, view.world_side}, kWorldBorder);

  if (view.tree != nullptr) {
    const spatial::QuadTreeStats tree_stats = view.tree->stats();
    batch.expect(2 * tree_stats.nodes);
    // Each node draws its top and left edges: together the nodes draw every split line once.
    view.tree->for_each_node([&](const spatial::Aabb& q, int /*depth*/) {
      if (!spatial::overlaps(q, visible)) return;
      line(batch, q.min_x, q.min_y, q.max_x, q.min_y, kTreeLine);
      line(batch, q.min_x, q.min_y, q.min_x, q.max_y, kTreeLine);
    });
  }

  batch.expect(view.sprites.size());
  for (const Sprite& s : view.sprites) {
    if (!spatial::overlaps(bounds_of(s), visible)) continue;
    const ScreenPoint p = camera.to_screen(s.x, s.y);
    const float r = std::max(s.radius * scale, kMinPixelRadius);
    batch.quad(p.x - r, p.y - r, p.x + r, p.y + r, atlas_.kinds[s.kind % kSpriteKinds], kWhite);
    ++counts.sprites;
  }

  if (!view.in_contact.empty()) {
    std::size_t highlighted = 0;
    for (std::uint8_t flag : view.in_contact) highlighted += flag;
    batch.expect(highlighted);
    const std::size_t n = std::min(view.in_contact.size(), view.sprites.size());
    for (std::size_t i = 0; i < n; ++i) {
      if (view.in_contact[i] != 0 && spatial::overlaps(bounds_of(view.sprites[i]), visible)) {
        ring(batch, view.sprites[i], 1.0f, atlas_.contact_ring, kContact);
      }
    }
  }

  batch.expect(view.selected.size() + 4);
  for (std::uint32_t id : view.selected) {
    if (id < view.sprites.size()) {
      ring(batch, view.sprites[id], 1.5f, atlas_.selection_ring, kSelected);
    }
  }
  if (view.selection) outline(batch, *view.selection, kSelectionBox);
  return counts;
}

}  // namespace quadpool::game::demo
