#pragma once
/// Draws the world: sprites, contact highlights, the quad-tree's lines and the selection, as
/// textured quads from the one atlas, in batches of up to kBatchQuads quads. Each batch takes
/// its vertices from the VertexStream and is drawn with one SDL_RenderGeometry call.
///
/// Level of detail: when a typical sprite is under kDensityBelowPixels across on screen, or
/// under kCrowdBelowPixels with more than kMostSpritesOneByOne of them in view, the sprites are
/// drawn as a density map of kDensityCellPixels cells instead: the sprites counted
/// per cell on the tasks (a grid per worker, summed), then a streaming texture of one texel per
/// cell stretched onto the screen by one SDL_RenderCopy, so what is drawn follows the screen's
/// area, not the sprite count (drawn as quads, the 70,000 cells of a 1280x800 window took SDL's
/// software renderer 6.7 ms a frame, the texture under 1 ms); contact rings
/// fade out as sprites shrink, and tree lines as their cells do, so a zoomed-out view of a
/// million sprites still shows the tree's shape.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "common/scene/scene.hpp"
#include "engine/core/task_system.hpp"
#include "engine/spatial/aabb.hpp"
#include "engine/spatial/quad_tree.hpp"
#include "game/window/camera.hpp"
#include "game/window/sdl/textures.hpp"
#include "game/window/timed_query.hpp"
#include "game/window/vertex_stream.hpp"

struct SDL_Renderer;
struct SDL_Texture;

namespace quadpool::game::window::sdl {

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
  std::optional<window::QueryShape> query;   // a ray query's segment or a nearest query's point
                                             // (a box query's is `selection`)
  float typical_radius = 4.0f;               // world units; picks the level of detail
  Rgba tint{255, 255, 255, 255};             // multiplies the sprites' colours (the game dims
                                             // its dust with it)
};

struct DrawCounts {
  std::size_t sprites = 0;     // sprites inside the view
  std::size_t one_by_one = 0;  // sprites drawn as a quad each (0 with the density map)
  std::size_t quads = 0;       // all quads, lines and rings included
  std::size_t draw_calls = 0;  // SDL_RenderGeometry calls, and the density map's SDL_RenderCopy
  bool density_map = false;    // the sprites were drawn as a density map
};

class SpriteRenderer {
 public:
  /// Quads per SDL_RenderGeometry call.
  static constexpr std::size_t kBatchQuads = 8192;
  /// Below this diameter on screen (pixels) sprites become a density map.
  static constexpr float kDensityBelowPixels = 2.0f;
  /// Below this diameter, more sprites in view than kMostSpritesOneByOne become a density map
  /// too: SDL's software renderer pays for every quad, and 100,000 sprites 2.07 px across
  /// (fitted into 1920x1080) took it 15 ms a frame more one quad each than as the map. From
  /// 4 px on, sprites are a quad each however many are in view: their shapes start to show,
  /// which the map's 3 px cells would lose.
  static constexpr float kCrowdBelowPixels = 4.0f;
  static constexpr std::size_t kMostSpritesOneByOne = 50'000;

  /// Whether sprites `sprite_pixels` across, `in_view` of them, are drawn as the density map.
  /// `in_view` is only read when the size alone does not decide (see count_in_view).
  static bool draws_density_map(float sprite_pixels, std::size_t in_view) noexcept {
    if (sprite_pixels < kDensityBelowPixels) return true;
    return sprite_pixels < kCrowdBelowPixels && in_view > kMostSpritesOneByOne;
  }
  /// The density map's cell, pixels.
  static constexpr int kDensityCellPixels = 3;

  /// The density map's sprites are counted on `tasks` (the default: on the calling thread).
  SpriteRenderer(SDL_Renderer* renderer, const Atlas& atlas, TaskSystem tasks = {});

  /// Draws `view` through `camera`, culled to `area` (window pixels; the caller clips to it).
  DrawCounts draw(window::VertexStream& stream, const window::Camera& camera, const window::ScreenRect& area,
                  const WorldView& view);

  /// What the last draw() drew.
  const DrawCounts& last_counts() const noexcept { return last_; }

 private:
  class Batch;
  void line(Batch& batch, const window::Camera& camera, float x0, float y0, float x1, float y1,
            Rgba c) const;
  void outline(Batch& batch, const window::Camera& camera, const spatial::Aabb& box, Rgba c) const;
  // A world segment at any angle, 2 pixels wide; a cross 9 pixels across at a world point.
  void segment(Batch& batch, const window::Camera& camera, window::ScreenPoint from,
               window::ScreenPoint to, Rgba c) const;
  void cross(Batch& batch, const window::Camera& camera, window::ScreenPoint at, Rgba c) const;
  void ring(Batch& batch, const window::Camera& camera, const scene::Sprite& s,
            const AtlasRegion& region, Rgba c) const;
  void draw_tree(Batch& batch, const window::Camera& camera, const spatial::Aabb& visible,
                 const WorldView& view, Rgba colour) const;
  void draw_sprites(Batch& batch, const window::Camera& camera, const spatial::Aabb& visible,
                    const WorldView& view, DrawCounts& counts) const;
  // The sprites whose boxes overlap `visible`, counting up to `limit` + 1 at most.
  static std::size_t count_in_view(std::span<const scene::Sprite> sprites,
                                   const spatial::Aabb& visible, std::size_t limit) noexcept;
  void draw_density(Batch& batch, const window::Camera& camera, const window::ScreenRect& area,
                    const WorldView& view, DrawCounts& counts);

  SDL_Renderer* renderer_;
  Atlas atlas_;
  TaskSystem tasks_;
  std::vector<int> indices_;            // 0 1 2 2 3 0, then the same for every following quad
  // Fills density_ with the sprites per cell; returns how many fell inside the grid.
  std::size_t count_density(const window::Camera& camera, const window::ScreenRect& area,
                            std::span<const scene::Sprite> sprites, int columns, int rows);
  SDL_Texture* density_texture(int columns, int rows);
  void warn_density_once(const char* what);

  // One worker's count of sprites per density-map cell.
  struct WorkerGrid {
    std::vector<std::uint32_t> cells;
    std::size_t sprites = 0;  // the sprites it counted into `cells`
    bool used = false;  // this frame's counting gave the worker a range
  };
  static constexpr std::uint32_t kDensitySpritesPerTask = 1u << 16;

  std::vector<std::uint32_t> density_;  // sprites per density-map cell, reused
  std::vector<WorkerGrid> worker_density_;
  TexturePtr density_texture_;  // a texel per cell
  int density_columns_ = 0, density_rows_ = 0;
  bool density_warned_ = false;  // a failed texture is reported once, not every frame
  DrawCounts last_{};
};

}  // namespace quadpool::game::window::sdl
