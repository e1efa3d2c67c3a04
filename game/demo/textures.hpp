#pragma once
/// The sprite atlas (assets/sprites.png) and the screenshot writer.

#include <cstdint>
#include <memory>
#include <string>

#include "scene/scene.hpp"

struct SDL_Renderer;
struct SDL_Texture;

namespace quadpool::game::demo {

/// Destroys an SDL texture: `TexturePtr` owns one.
struct TextureDeleter {
  void operator()(SDL_Texture* texture) const noexcept;
};
using TexturePtr = std::unique_ptr<SDL_Texture, TextureDeleter>;

/// A rectangle of the atlas in texture coordinates [0, 1].
struct AtlasRegion {
  float u0, v0, u1, v1;
};

/// Where each look sits in assets/sprites.png (see scripts/make_assets.py).
struct Atlas {
  SDL_Texture* texture = nullptr;  // owned by the caller (SDL_DestroyTexture)
  AtlasRegion kinds[scene::kSpriteKinds];
  AtlasRegion contact_ring, selection_ring;
  AtlasRegion white;  // a point inside the solid white cell, for lines and boxes
};

/// The assets folder: $QUADPOOL_ASSETS, else `assets/` next to the executable, else the source
/// tree's assets/. Empty when none holds sprites.png.
std::string find_assets_dir();

/// Loads the atlas into a texture of `renderer`. On failure returns an Atlas whose texture is
/// nullptr and puts the reason (the path tried and what went wrong) in `error`.
Atlas load_atlas(SDL_Renderer* renderer, std::string& error);

/// Reads the renderer's current target (call before SDL_RenderPresent) and writes it to `path`
/// atomically (game/atomic_file.hpp): PNG when the name ends in .png, otherwise BMP. Returns an
/// empty string, or the reason it failed, in which case an old file at `path` is untouched.
std::string save_screenshot(SDL_Renderer* renderer, const std::string& path);

}  // namespace quadpool::game::demo
