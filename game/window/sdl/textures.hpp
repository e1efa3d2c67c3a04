#pragma once
/// The sprite atlas (assets/sprites.png) and the screenshot writer.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/scene/scene.hpp"
#include "game/util/atomic_file.hpp"

struct SDL_Renderer;
struct SDL_Texture;

namespace quadpool::game::window::sdl {

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

/// The atlas file's pixels, read and checked before any window opens.
struct AtlasImage {
  std::string path;
  int width = 0, height = 0;
  std::vector<std::uint8_t> rgba;  // R, G, B, A bytes, row by row
};

/// Why the atlas cannot be used: the one line to print (without the "quadpool: " prefix) and
/// the exit code, 2 for bad input (a $QUADPOOL_ASSETS that holds no sprites.png, a sprites.png
/// that is no image or not the atlas's size), 1 when no built-in folder holds it.
struct AtlasError {
  std::string message;
  int exit_code = 1;
};

/// Finds sprites.png, reads it and checks that it is the atlas's size, 256x128
/// (scripts/make_assets.py's 4 x 2 cells of 64 pixels, from which the regions are cut). It is
/// looked for only in the folder $QUADPOOL_ASSETS names when that is set (and not empty); else
/// in `assets/` next to the executable, the installed tree's share/quadpool/assets from it, and
/// the source tree's assets/. Returns nullopt on failure, with `error` set.
std::optional<AtlasImage> read_atlas(AtlasError& error);

/// Makes the atlas's texture from `image` in `renderer`. On failure returns an Atlas whose
/// texture is nullptr and puts the reason (the path and what went wrong) in `error`.
Atlas load_atlas(SDL_Renderer* renderer, const AtlasImage& image, std::string& error);

/// Reads the renderer's current target (call before SDL_RenderPresent) and writes it to `path`
/// atomically (game/util/atomic_file.hpp): PNG when the name ends in .png, otherwise BMP. Returns an
/// empty string, or the reason it failed, in which case an old file at `path` is untouched.
std::string save_screenshot(SDL_Renderer* renderer, const std::string& path,
                            util::Existing existing = util::Existing::Replace);

}  // namespace quadpool::game::window::sdl
