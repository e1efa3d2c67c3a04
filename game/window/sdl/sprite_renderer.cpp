#include "game/window/sdl/sprite_renderer.hpp"

#include <SDL.h>

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "game/util/log.hpp"
#include "common/scene/scene.hpp"

namespace quadpool::game::window::sdl {

static_assert(sizeof(window::Vertex) == sizeof(SDL_Vertex) &&
                  offsetof(window::Vertex, x) == offsetof(SDL_Vertex, position) &&
                  offsetof(window::Vertex, r) == offsetof(SDL_Vertex, color) &&
                  offsetof(window::Vertex, u) == offsetof(SDL_Vertex, tex_coord),
              "Vertex must have SDL_Vertex's layout");

namespace {
constexpr Rgba kContact{255, 70, 40, 255};
constexpr Rgba kSelected{255, 255, 120, 255};
constexpr Rgba kSelectionBox{255, 255, 120, 200};
constexpr Rgba kPickedLeaf{255, 150, 40, 255};
constexpr Rgba kWorldBorder{200, 200, 220, 160};
constexpr Rgba kTreeLine{90, 200, 255, 70};
constexpr Rgba kTreeLineOnMap{10, 12, 30, 170};  // dark: the density map is light
// Sprites never shrink below this on screen, so that a fitted 100k-sprite world stays visible.
constexpr float kMinPixelRadius = 1.0f;

// 0 at or below `from` pixels, 1 at or above `to`: how much of a fading detail to draw.
float fade(float pixels, float from, float to) noexcept {
  return std::clamp((pixels - from) / (to - from), 0.0f, 1.0f);
}

Rgba faded(Rgba c, float amount) noexcept {
  return {c.r, c.g, c.b, static_cast<std::uint8_t>(static_cast<float>(c.a) * amount)};
}

// The density map's colours: dark blue for a lone sprite, through cyan, to pale yellow for a
// cell at four times the scene's mean density or more. `t` in [0, 1].
Rgba density_colour(float t) noexcept {
  const auto mix = [](float a, float b, float u) {
    return static_cast<std::uint8_t>(a + (b - a) * u);
  };
  if (t < 0.5f) {
    const float u = t * 2.0f;
    return {mix(30, 60, u), mix(50, 190, u), mix(140, 255, u), 255};
  }
  const float u = (t - 0.5f) * 2.0f;
  return {mix(60, 255, u), mix(190, 240, u), mix(255, 150, u), 255};
}
}  // namespace

/// Fills one stream range with quads and draws it with one call when full or done.
class SpriteRenderer::Batch {
 public:
  Batch(SpriteRenderer& owner, window::VertexStream& stream, DrawCounts& counts)
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
    window::Vertex* v = &vertices_[used_ * 4];
    v[0] = {x0, y0, c.r, c.g, c.b, c.a, t.u0, t.v0};
    v[1] = {x1, y0, c.r, c.g, c.b, c.a, t.u1, t.v0};
    v[2] = {x1, y1, c.r, c.g, c.b, c.a, t.u1, t.v1};
    v[3] = {x0, y1, c.r, c.g, c.b, c.a, t.u0, t.v1};
    ++used_;
    if (expected_ > 0) --expected_;
  }

  /// A quad of any shape: four corners (x, y) in order around it, the whole region `t`.
  void corners(const float (&xy)[8], const AtlasRegion& t, Rgba c) {
    quad(0, 0, 0, 0, t, c);
    window::Vertex* v = &vertices_[(used_ - 1) * 4];
    for (int i = 0; i < 4; ++i) {
      v[i].x = xy[2 * i];
      v[i].y = xy[2 * i + 1];
    }
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
  window::VertexStream& stream_;
  DrawCounts& counts_;
  std::span<window::Vertex> vertices_;
  std::size_t used_ = 0;
  std::size_t expected_ = 0;
};

SpriteRenderer::SpriteRenderer(SDL_Renderer* renderer, const Atlas& atlas, TaskSystem tasks)
    : renderer_(renderer), atlas_(atlas), tasks_(tasks), indices_(kBatchQuads * 6) {
  for (std::size_t q = 0; q < kBatchQuads; ++q) {
    const int base = static_cast<int>(q * 4);
    const int pattern[6] = {0, 1, 2, 2, 3, 0};
    for (int i = 0; i < 6; ++i) indices_[q * 6 + static_cast<std::size_t>(i)] = base + pattern[i];
  }
}

void SpriteRenderer::line(Batch& batch, const window::Camera& camera, float x0, float y0, float x1,
                          float y1, Rgba c) const {
  // World-space segment, axis-aligned, drawn one pixel wide.
  const window::ScreenPoint a = camera.to_screen(x0, y0), b = camera.to_screen(x1, y1);
  batch.quad(a.x, a.y, std::max(b.x, a.x + 1.0f), std::max(b.y, a.y + 1.0f), atlas_.white, c);
}

void SpriteRenderer::outline(Batch& batch, const window::Camera& camera, const spatial::Aabb& box,
                             Rgba c) const {
  line(batch, camera, box.min_x, box.min_y, box.max_x, box.min_y, c);
  line(batch, camera, box.min_x, box.max_y, box.max_x, box.max_y, c);
  line(batch, camera, box.min_x, box.min_y, box.min_x, box.max_y, c);
  line(batch, camera, box.max_x, box.min_y, box.max_x, box.max_y, c);
}

void SpriteRenderer::segment(Batch& batch, const window::Camera& camera, window::ScreenPoint from,
                             window::ScreenPoint to, Rgba c) const {
  const window::ScreenPoint a = camera.to_screen(from.x, from.y), b = camera.to_screen(to.x, to.y);
  const float dx = b.x - a.x, dy = b.y - a.y;
  const float length = std::sqrt(dx * dx + dy * dy);
  if (length < 1.0f) {
    batch.quad(a.x - 1.0f, a.y - 1.0f, a.x + 1.0f, a.y + 1.0f, atlas_.white, c);
    return;
  }
  // One pixel each side of the line, across it.
  const float nx = -dy / length, ny = dx / length;
  const float xy[8] = {a.x + nx, a.y + ny, b.x + nx, b.y + ny,
                       b.x - nx, b.y - ny, a.x - nx, a.y - ny};
  batch.corners(xy, atlas_.white, c);
}

void SpriteRenderer::cross(Batch& batch, const window::Camera& camera, window::ScreenPoint at,
                           Rgba c) const {
  const window::ScreenPoint p = camera.to_screen(at.x, at.y);
  batch.quad(p.x - 4.5f, p.y - 1.0f, p.x + 4.5f, p.y + 1.0f, atlas_.white, c);
  batch.quad(p.x - 1.0f, p.y - 4.5f, p.x + 1.0f, p.y + 4.5f, atlas_.white, c);
}

void SpriteRenderer::ring(Batch& batch, const window::Camera& camera, const scene::Sprite& s,
                          const AtlasRegion& region, Rgba c) const {
  // Just outside the sprite as drawn, so the ring fits it.
  const window::ScreenPoint p = camera.to_screen(s.x, s.y);
  const float r = std::max(s.radius * camera.scale(), kMinPixelRadius) + 1.0f;
  batch.quad(p.x - r, p.y - r, p.x + r, p.y + r, region, c);
}

DrawCounts SpriteRenderer::draw(window::VertexStream& stream, const window::Camera& camera,
                                const window::ScreenRect& area, const WorldView& view) {
  DrawCounts counts;
  const spatial::Aabb visible = camera.visible_world(area);
  Batch batch(*this, stream, counts);
  const spatial::Aabb border{0, 0, view.world_side, view.world_side};
  const float sprite_pixels = 2.0f * view.typical_radius * camera.scale();
  // The sprites in view are counted only where the size alone does not decide.
  const std::size_t in_view =
      sprite_pixels >= kDensityBelowPixels && sprite_pixels < kCrowdBelowPixels
          ? count_in_view(view.sprites, visible, kMostSpritesOneByOne)
          : 0;
  if (draws_density_map(sprite_pixels, in_view)) {
    // The tree and the border over the map, whose edge cells would hide them.
    draw_density(batch, camera, area, view, counts);
    draw_tree(batch, camera, visible, view, kTreeLineOnMap);
    outline(batch, camera, border, kWorldBorder);
  } else {
    outline(batch, camera, border, kWorldBorder);
    draw_tree(batch, camera, visible, view, kTreeLine);
    draw_sprites(batch, camera, visible, view, counts);
  }
  batch.expect(view.selected.size() + 10);
  for (std::uint32_t id : view.selected) {
    if (id < view.sprites.size())
      ring(batch, camera, view.sprites[id], atlas_.selection_ring, kSelected);
  }
  if (view.selection) outline(batch, camera, *view.selection, kSelectionBox);
  if (view.picked_leaf) outline(batch, camera, *view.picked_leaf, kPickedLeaf);
  if (view.query && view.query->mode == window::QueryMode::Ray) {
    segment(batch, camera, view.query->from, view.query->to, kSelectionBox);
  } else if (view.query && view.query->mode == window::QueryMode::Nearest) {
    cross(batch, camera, view.query->to, kSelectionBox);
  }
  last_ = counts;
  return counts;
}

void SpriteRenderer::draw_tree(Batch& batch, const window::Camera& camera,
                               const spatial::Aabb& visible, const WorldView& view,
                               Rgba colour) const {
  if (view.tree == nullptr) return;
  batch.expect(2 * view.tree->stats().nodes);
  // Each node draws its top and left edges: together the nodes draw every split line once.
  // Cells under 6 px are not drawn and fade in up to 24 px, so deep levels do not turn a
  // zoomed-out view into a solid grid while the coarse levels still show the tree's shape.
  view.tree->for_each_node([&](const spatial::Aabb& q, int /*depth*/) {
    if (!spatial::overlaps(q, visible)) return;
    const float amount = fade((q.max_x - q.min_x) * camera.scale(), 6.0f, 24.0f);
    if (amount <= 0.0f) return;
    const Rgba c = faded(colour, amount);
    line(batch, camera, q.min_x, q.min_y, q.max_x, q.min_y, c);
    line(batch, camera, q.min_x, q.min_y, q.min_x, q.max_y, c);
  });
}

void SpriteRenderer::draw_sprites(Batch& batch, const window::Camera& camera,
                                  const spatial::Aabb& visible, const WorldView& view,
                                  DrawCounts& counts) const {
  const float scale = camera.scale();
  batch.expect(view.sprites.size());
  for (const scene::Sprite& s : view.sprites) {
    if (!spatial::overlaps(scene::bounds_of(s), visible)) continue;
    const window::ScreenPoint p = camera.to_screen(s.x, s.y);
    const float r = std::max(s.radius * scale, kMinPixelRadius);
    batch.quad(p.x - r, p.y - r, p.x + r, p.y + r, atlas_.kinds[s.kind % scene::kSpriteKinds],
               view.tint);
    ++counts.sprites;
  }
  counts.one_by_one = counts.sprites;

  // Rings fade out as sprites shrink (gone at 2 px across): small, they hide the sprites.
  const float ring_amount = fade(2.0f * view.typical_radius * scale, 2.0f, 6.0f);
  if (view.in_contact.empty() || ring_amount <= 0.0f) return;
  const Rgba ring_colour = faded(kContact, ring_amount);
  std::size_t highlighted = 0;
  for (std::uint8_t flag : view.in_contact) highlighted += flag;
  batch.expect(highlighted);
  const std::size_t n = std::min(view.in_contact.size(), view.sprites.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (view.in_contact[i] != 0 && spatial::overlaps(scene::bounds_of(view.sprites[i]), visible)) {
      ring(batch, camera, view.sprites[i], atlas_.contact_ring, ring_colour);
    }
  }
}

std::size_t SpriteRenderer::count_in_view(std::span<const scene::Sprite> sprites,
                                          const spatial::Aabb& visible,
                                          std::size_t limit) noexcept {
  std::size_t in_view = 0;
  for (const scene::Sprite& s : sprites) {
    if (!spatial::overlaps(scene::bounds_of(s), visible)) continue;
    if (++in_view > limit) break;  // enough to decide
  }
  return in_view;
}

void SpriteRenderer::draw_density(Batch& batch, const window::Camera& camera,
                                  const window::ScreenRect& area, const WorldView& view,
                                  DrawCounts& counts) {
  counts.density_map = true;
  const int cell = kDensityCellPixels;
  const int columns = std::max(1, static_cast<int>(area.w) / cell + 1);
  const int rows = std::max(1, static_cast<int>(area.h) / cell + 1);
  counts.sprites += count_density(camera, area, view.sprites, columns, rows);
  SDL_Texture* texture = density_texture(columns, rows);
  if (texture == nullptr) return;
  // The scale is the scene's mean density, not this frame's busiest cell, so colours do not
  // flicker as sprites move: a cell at four times the mean is full scale.
  const float side = std::max(view.world_side, 1e-3f);
  const float cell_world = static_cast<float>(cell) / camera.scale();
  const float mean =
      static_cast<float>(view.sprites.size()) * cell_world * cell_world / (side * side);
  const float full = std::log2(1.0f + std::max(4.0f * mean, 1.0f));
  void* pixels = nullptr;
  int pitch = 0;
  if (SDL_LockTexture(texture, nullptr, &pixels, &pitch) != 0) {
    warn_density_once("cannot write the density map's texture");
    return;
  }
  for (int y = 0; y < rows; ++y) {
    auto* row = reinterpret_cast<std::uint32_t*>(static_cast<std::uint8_t*>(pixels) +
                                                 static_cast<std::ptrdiff_t>(y) * pitch);
    const std::uint32_t* n =
        &density_[static_cast<std::size_t>(y) * static_cast<std::size_t>(columns)];
    for (int x = 0; x < columns; ++x) {
      // An empty cell is transparent: the background (and nothing else) shows through.
      if (n[x] == 0) {
        row[x] = 0;
        continue;
      }
      const float t = std::min(1.0f, std::log2(1.0f + static_cast<float>(n[x])) / full);
      const Rgba c = density_colour(t);
      row[x] = std::uint32_t{c.a} << 24 | std::uint32_t{c.r} << 16 | std::uint32_t{c.g} << 8 | c.b;
    }
  }
  SDL_UnlockTexture(texture);

  // One texel per cell, stretched without filtering onto the screen's grid of cells, and cut at
  // the world's edges, so the map stays inside the world's border. What the batch holds so far
  // is drawn first, to keep the order of drawing.
  batch.flush();
  const window::ScreenRect world = camera.world_on_screen(view.world_side);
  const SDL_Rect world_pixels{
      static_cast<int>(std::lround(world.x)), static_cast<int>(std::lround(world.y)),
      static_cast<int>(std::lround(world.x + world.w) - std::lround(world.x)),
      static_cast<int>(std::lround(world.y + world.h) - std::lround(world.y))};
  SDL_Rect old_clip{};
  SDL_RenderGetClipRect(renderer_, &old_clip);
  const bool clipped = SDL_RenderIsClipEnabled(renderer_) == SDL_TRUE;
  SDL_Rect clip = world_pixels;
  if (clipped && SDL_IntersectRect(&old_clip, &world_pixels, &clip) == SDL_FALSE) return;
  SDL_RenderSetClipRect(renderer_, &clip);
  const SDL_Rect target{static_cast<int>(area.x), static_cast<int>(area.y), columns * cell,
                        rows * cell};
  SDL_RenderCopy(renderer_, texture, nullptr, &target);
  SDL_RenderSetClipRect(renderer_, clipped ? &old_clip : nullptr);
  ++counts.draw_calls;
}

std::size_t SpriteRenderer::count_density(const window::Camera& camera, const window::ScreenRect& area,
                                          std::span<const scene::Sprite> sprites, int columns,
                                          int rows) {
  const std::size_t cells = static_cast<std::size_t>(columns) * static_cast<std::size_t>(rows);
  worker_density_.resize(tasks_.worker_count);
  for (WorkerGrid& grid : worker_density_) grid.used = false;
  // Each worker counts its ranges of sprites into a grid of its own; the grids are summed after.
  const float to_cell = camera.scale() / static_cast<float>(kDensityCellPixels);
  const window::ScreenPoint origin = camera.to_screen(0.0f, 0.0f);
  const float x0 = (origin.x - area.x) / static_cast<float>(kDensityCellPixels);
  const float y0 = (origin.y - area.y) / static_cast<float>(kDensityCellPixels);
  parallel_for(tasks_, static_cast<std::uint32_t>(sprites.size()), kDensitySpritesPerTask,
               [&](std::uint32_t begin, std::uint32_t end, std::uint32_t worker) {
                 WorkerGrid& grid = worker_density_[worker];
                 if (!grid.used) {
                   grid.cells.assign(cells, 0);
                   grid.sprites = 0;
                 }
                 grid.used = true;
                 for (std::uint32_t i = begin; i < end; ++i) {
                   const float cx = sprites[i].x * to_cell + x0;
                   const float cy = sprites[i].y * to_cell + y0;
                   if (cx < 0 || cy < 0 || cx >= static_cast<float>(columns) ||
                       cy >= static_cast<float>(rows)) {
                     continue;
                   }
                   ++grid.cells[static_cast<std::size_t>(cy) * static_cast<std::size_t>(columns) +
                                static_cast<std::size_t>(cx)];
                   ++grid.sprites;
                 }
               });
  density_.assign(cells, 0);
  std::size_t counted = 0;
  for (const WorkerGrid& grid : worker_density_) {
    if (!grid.used) continue;
    for (std::size_t c = 0; c < cells; ++c) density_[c] += grid.cells[c];
    counted += grid.sprites;
  }
  return counted;
}

SDL_Texture* SpriteRenderer::density_texture(int columns, int rows) {
  if (density_texture_ != nullptr && density_columns_ == columns && density_rows_ == rows) {
    return density_texture_.get();
  }
  density_texture_.reset(SDL_CreateTexture(renderer_, SDL_PIXELFORMAT_ARGB8888,
                                           SDL_TEXTUREACCESS_STREAMING, columns, rows));
  if (density_texture_ == nullptr) {
    warn_density_once("cannot make the density map's texture");
    return nullptr;
  }
  density_columns_ = columns;
  density_rows_ = rows;
  SDL_SetTextureBlendMode(density_texture_.get(), SDL_BLENDMODE_BLEND);
  SDL_SetTextureScaleMode(density_texture_.get(), SDL_ScaleModeNearest);
  return density_texture_.get();
}

void SpriteRenderer::warn_density_once(const char* what) {
  if (density_warned_) return;
  density_warned_ = true;
  util::logger().warn("{} ({}): the sprites are not drawn while zoomed out", what, SDL_GetError());
}

}  // namespace quadpool::game::window::sdl
