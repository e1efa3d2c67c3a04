#pragma once
/// Draws the world: sprites, contact highlights, the quad-tree's lines and the selection, as
/// textured quads from the one atlas, in batches of up to kBatchQuads quads. Each batch takes
/// its vertices from the VertexStream and is drawn with one SDL_RenderGeometry call.
///
/// Level of detail: when a typical sprite is under kDensityBelowPixels across on screen, the
/// sprites are drawn as a density map of kDensityCellPixels cells instead (what is drawn, and
/// the vertices it takes, then follow the screen's area, not the sprite count); contact rings
/// fade out as sprites shrink, and tree lines as their cells do, so a zoomed-out view of a
/// million sprites still shows the tree's shape.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "engine/spatial/aabb.hpp"
#include "engine/spatial/quad_tree.hpp"
#include "game/demo/textures.hpp"
#include "game/lab/camera.hpp"
#include "game/lab/vertex_stream.hpp"
#include "scene/scene.hpp"

struct SDL_Renderer;

namespace quadpool::game::demo {

struct Rgba {
  std::uint8_t r, g, b, a;
};

/// What to draw this frame besides the sprites.
struct WorldView {
  std::span<const scene::Sprite> sprites;
  float world_side = 0;
  std::span<const std::uint8_t> in_contact;  // per sprite, 1 when highlighted; may be empty
  const spatial::QuadTree* tree = nullptr;   // nullptr: no tree lines
  std::span<const std::uint32_t> selected;   // sprites to ring (QuadTree::query's answer)
  std::optional<spatial::Aabb> selection;    // the selection rectangle being dragged
  std::optional<spatial::Aabb> picked_leaf;  // the quadrant of the picked sprite's leaf
  float typical_radius = 4.0f;               // world units; picks the level of detail
};

struct DrawCounts {
  std::size_t sprites = 0;     // sprites inside the view
  std::size_t quads = 0;       // all quads, lines and rings included
  std::size_t draw_calls = 0;  // SDL_RenderGeometry calls
  bool density_map = false;    // the sprites were drawn as a density map
};

class SpriteRenderer {
 public:
  /// Quads per SDL_RenderGeometry call.
  static constexpr std::size_t kBatchQuads = 8192;
  /// Below this diameter on screen (pixels) sprites become a density map.
  static constexpr float kDensityBelowPixels = 2.0f;
  /// The density map's cell, pixels.
  static constexpr int kDensityCellPixels = 3;

  SpriteRenderer(SDL_Renderer* renderer, const Atlas& atlas);

  /// Draws `view` through `camera`, culled to `area` (window pixels; the caller clips to it).
  DrawCounts draw(lab::VertexStream& stream, const lab::Camera& camera, const lab::ScreenRect& area,
                  const WorldView& view);

  /// What the last draw() drew.
  const DrawCounts& last_counts() const noexcept { return last_; }

 private:
  class Batch;
  void line(Batch& batch, const lab::Camera& camera, float x0, float y0, float x1, float y1,
            Rgba c) const;
  void outline(Batch& batch, const lab::Camera& camera, const spatial::Aabb& box, Rgba c) const;
  void ring(Batch& batch, const lab::Camera& camera, const scene::Sprite& s,
            const AtlasRegion& region, Rgba c) const;
  void draw_tree(Batch& batch, const lab::Camera& camera, const spatial::Aabb& visible,
                 const WorldView& view, Rgba colour) const;
  void draw_sprites(Batch& batch, const lab::Camera& camera, const spatial::Aabb& visible,
                    const WorldView& view, DrawCounts& counts) const;
  void draw_density(Batch& batch, const lab::Camera& camera, const lab::ScreenRect& area,
                    const WorldView& view, DrawCounts& counts);

  SDL_Renderer* renderer_;
  Atlas atlas_;
  std::vector<int> indices_;            // 0 1 2 2 3 0, then the same for every following quad
  std::vector<std::uint32_t> density_;  // sprites per density-map cell, reused
  DrawCounts last_{};
};

}  // namespace quadpool::game::demo
