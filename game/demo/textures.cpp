#include "game/demo/textures.hpp"

#include <SDL.h>
#include <stb_image.h>
#include <stb_image_write.h>

#include <cstddef>
#include <filesystem>
#include <memory>
#include <vector>

#include "game/atomic_file.hpp"
#include "game/log.hpp"
#include "scene/scene.hpp"

namespace quadpool::game::demo {

void TextureDeleter::operator()(SDL_Texture* texture) const noexcept {
  SDL_DestroyTexture(texture);
}

namespace {

constexpr const char* kAtlasFile = "sprites.png";
// scripts/make_assets.py: 4 x 2 cells of 64 pixels.
constexpr float kCellsX = 4.0f, kCellsY = 2.0f;

AtlasRegion cell(int column, int row) {
  // Half a texel inset, so that nearest sampling at the edges never reads the next cell.
  const float inset_u = 0.5f / (64.0f * kCellsX), inset_v = 0.5f / (64.0f * kCellsY);
  return {static_cast<float>(column) / kCellsX + inset_u,
          static_cast<float>(row) / kCellsY + inset_v,
          static_cast<float>(column + 1) / kCellsX - inset_u,
          static_cast<float>(row + 1) / kCellsY - inset_v};
}

bool has_atlas(const std::filesystem::path& dir) {
  std::error_code ignored;
  return std::filesystem::is_regular_file(dir / kAtlasFile, ignored);
}

// stb_image_write's output callback: appends the encoded bytes to a std::vector<std::byte>.
void append_bytes(void* context, void* data, int size) {
  auto& out = *static_cast<std::vector<std::byte>*>(context);
  const auto* bytes = static_cast<const std::byte*>(data);
  out.insert(out.end(), bytes, bytes + size);
}

struct SdlFree {
  void operator()(void* p) const noexcept { SDL_free(p); }
};

}  // namespace

std::string find_assets_dir() {
  if (const char* env = std::getenv("QUADPOOL_ASSETS"); env != nullptr && *env != '\0') {
    return has_atlas(env) ? std::string(env) : std::string();
  }
  if (std::unique_ptr<char, SdlFree> base{SDL_GetBasePath()}) {
    const std::filesystem::path next_to_exe = std::filesystem::path(base.get()) / "assets";
    if (has_atlas(next_to_exe)) return next_to_exe.string();
    // An installed tree: bin/quadpool and share/quadpool/assets.
    const std::filesystem::path installed =
        (std::filesystem::path(base.get()) / QUADPOOL_INSTALLED_ASSETS_FROM_EXE).lexically_normal();
    if (has_atlas(installed)) return installed.string();
  }
  if (has_atlas(QUADPOOL_SOURCE_ASSETS_DIR)) return QUADPOOL_SOURCE_ASSETS_DIR;
  return {};
}

Atlas load_atlas(SDL_Renderer* renderer, std::string& error) {
  Atlas atlas;
  const std::string dir = find_assets_dir();
  if (dir.empty()) {
    error = fmt::format(
        "cannot find {} in $QUADPOOL_ASSETS, next to the executable, in {} from it, or in {}",
        kAtlasFile, QUADPOOL_INSTALLED_ASSETS_FROM_EXE, QUADPOOL_SOURCE_ASSETS_DIR);
    return atlas;
  }
  const std::string path = (std::filesystem::path(dir) / kAtlasFile).string();
  int width = 0, height = 0, channels = 0;
  std::unique_ptr<stbi_uc, decltype(&stbi_image_free)> pixels(
      stbi_load(path.c_str(), &width, &height, &channels, 4), &stbi_image_free);
  if (!pixels) {
    error = fmt::format("cannot load {}: {}", path, stbi_failure_reason());
    return atlas;
  }
  // stb gives R, G, B, A bytes in memory order: SDL's ABGR8888 on little-endian, RGBA32 anywhere.
  SDL_Surface* surface = SDL_CreateRGBSurfaceWithFormatFrom(pixels.get(), width, height, 32,
                                                            width * 4, SDL_PIXELFORMAT_RGBA32);
  if (surface == nullptr) {
    error = fmt::format("cannot wrap {} in a surface: {}", path, SDL_GetError());
    return atlas;
  }
  atlas.texture = SDL_CreateTextureFromSurface(renderer, surface);
  SDL_FreeSurface(surface);
  if (atlas.texture == nullptr) {
    error = fmt::format("cannot make a texture of {}: {}", path, SDL_GetError());
    return atlas;
  }
  SDL_SetTextureBlendMode(atlas.texture, SDL_BLENDMODE_BLEND);
  for (int k = 0; k < scene::kSpriteKinds; ++k) atlas.kinds[k] = cell(k, 0);
  atlas.contact_ring = cell(0, 1);
  atlas.selection_ring = cell(1, 1);
  const AtlasRegion white = cell(2, 1);
  const float mid_u = 0.5f * (white.u0 + white.u1), mid_v = 0.5f * (white.v0 + white.v1);
  atlas.white = {mid_u, mid_v, mid_u, mid_v};
  logger().debug("loaded {} ({}x{})", path, width, height);
  return atlas;
}

std::string save_screenshot(SDL_Renderer* renderer, const std::string& path) {
  int width = 0, height = 0;
  if (SDL_GetRendererOutputSize(renderer, &width, &height) != 0) {
    return fmt::format("cannot read the output size: {}", SDL_GetError());
  }
  // Three bytes a pixel: the frame is opaque, and PNG and BMP both take RGB.
  std::vector<std::uint8_t> pixels(static_cast<std::size_t>(width) * height * 3);
  if (SDL_RenderReadPixels(renderer, nullptr, SDL_PIXELFORMAT_RGB24, pixels.data(), width * 3) !=
      0) {
    return fmt::format("cannot read the frame's pixels: {}", SDL_GetError());
  }
  // Encoded in memory, then written through the one atomic writer: a full disk leaves the old
  // file as it was instead of a truncated image.
  std::vector<std::byte> file;
  const bool png = path.size() >= 4 && SDL_strcasecmp(path.c_str() + path.size() - 4, ".png") == 0;
  const int encoded =
      png ? stbi_write_png_to_func(&append_bytes, &file, width, height, 3, pixels.data(), width * 3)
          : stbi_write_bmp_to_func(&append_bytes, &file, width, height, 3, pixels.data());
  if (encoded == 0) return fmt::format("cannot encode the frame as {}", png ? "PNG" : "BMP");
  return write_file_atomically(path, file);
}

}  // namespace quadpool::game::demo
