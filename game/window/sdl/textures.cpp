#include "game/window/sdl/textures.hpp"

#include <SDL.h>
#include <stb_image.h>
#include <stb_image_write.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "game/util/atomic_file.hpp"
#include "game/util/log.hpp"
#include "game/util/shown_value.hpp"
#include "common/scene/scene.hpp"

namespace quadpool::game::window::sdl {

void TextureDeleter::operator()(SDL_Texture* texture) const noexcept {
  SDL_DestroyTexture(texture);
}

namespace {

constexpr const char* kAtlasFile = "sprites.png";
// scripts/make_assets.py: 4 x 2 cells of 64 pixels. The regions are cut, and their insets
// sized, for exactly this atlas: read_atlas() refuses a file of any other size.
constexpr int kCellPixels = 64, kCellsX = 4, kCellsY = 2;
constexpr int kAtlasWidth = kCellPixels * kCellsX, kAtlasHeight = kCellPixels * kCellsY;

AtlasRegion cell(int column, int row) {
  // Half a texel inset, so that nearest sampling at the edges never reads the next cell.
  constexpr float inset_u = 0.5f / kAtlasWidth, inset_v = 0.5f / kAtlasHeight;
  constexpr float cells_x = kCellsX, cells_y = kCellsY;
  return {static_cast<float>(column) / cells_x + inset_u,
          static_cast<float>(row) / cells_y + inset_v,
          static_cast<float>(column + 1) / cells_x - inset_u,
          static_cast<float>(row + 1) / cells_y - inset_v};
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

// Where sprites.png was looked for, in order, and where it was found.
struct AssetsSearch {
  std::vector<std::string> folders;
  bool from_environment = false;  // folders is $QUADPOOL_ASSETS alone
  std::string found;              // the first of `folders` that holds sprites.png; empty: none
};

AssetsSearch find_assets() {
  AssetsSearch search;
  if (const char* env = std::getenv("QUADPOOL_ASSETS"); env != nullptr && *env != '\0') {
    search.folders.emplace_back(env);
    search.from_environment = true;
  } else {
    if (std::unique_ptr<char, SdlFree> base{SDL_GetBasePath()}) {
      search.folders.push_back((std::filesystem::path(base.get()) / "assets").string());
      // An installed tree: bin/quadpool and share/quadpool/assets.
      search.folders.push_back(
          (std::filesystem::path(base.get()) / QUADPOOL_INSTALLED_ASSETS_FROM_EXE)
              .lexically_normal()
              .string());
    }
    search.folders.emplace_back(QUADPOOL_SOURCE_ASSETS_DIR);
  }
  const auto it = std::find_if(search.folders.begin(), search.folders.end(),
                               [](const std::string& folder) { return has_atlas(folder); });
  if (it != search.folders.end()) search.found = *it;
  return search;
}

}  // namespace

std::optional<AtlasImage> read_atlas(AtlasError& error) {
  const AssetsSearch search = find_assets();
  if (search.found.empty() && search.from_environment) {
    const std::string& folder = search.folders.front();
    std::error_code ignored;
    error = {fmt::format("cannot find {}: QUADPOOL_ASSETS is '{}', {}; while it is set it is "
                         "the only folder searched (unset it to search next to the executable)",
                         kAtlasFile, util::shown_value(folder, 200),
                         std::filesystem::is_directory(folder, ignored)
                             ? fmt::format("a folder without {}", kAtlasFile)
                             : std::string("which is not a folder")),
             2};
    return std::nullopt;
  }
  if (search.found.empty()) {
    std::string folders;
    for (std::size_t i = 0; i < search.folders.size(); ++i) {
      const char* separator = i == 0 ? "" : i + 1 == search.folders.size() ? " or " : ", ";
      folders += fmt::format("{}'{}'", separator, util::shown_value(search.folders[i], 200));
    }
    error = {fmt::format("cannot find {} in {}; set QUADPOOL_ASSETS to the folder that holds it",
                         kAtlasFile, folders),
             1};
    return std::nullopt;
  }
  AtlasImage image;
  image.path = (std::filesystem::path(search.found) / kAtlasFile).string();
  int channels = 0;
  const std::unique_ptr<stbi_uc, decltype(&stbi_image_free)> pixels(
      stbi_load(image.path.c_str(), &image.width, &image.height, &channels, 4), &stbi_image_free);
  const std::string expected = fmt::format(
      "the sprite atlas is {}x{} pixels ({} x {} cells of {}, as scripts/make_assets.py makes it)",
      kAtlasWidth, kAtlasHeight, kCellsX, kCellsY, kCellPixels);
  if (!pixels) {
    error = {fmt::format("cannot read '{}' as an image ({}); {}",
                         util::shown_value(image.path, 200), stbi_failure_reason(), expected),
             2};
    return std::nullopt;
  }
  if (image.width != kAtlasWidth || image.height != kAtlasHeight) {
    error = {fmt::format("'{}' is {}x{} pixels; {}", util::shown_value(image.path, 200),
                         image.width, image.height, expected),
             2};
    return std::nullopt;
  }
  image.rgba.assign(pixels.get(), pixels.get() + std::size_t{4} * kAtlasWidth * kAtlasHeight);
  return image;
}

Atlas load_atlas(SDL_Renderer* renderer, const AtlasImage& image, std::string& error) {
  Atlas atlas;
  // stb gives R, G, B, A bytes in memory order: SDL's ABGR8888 on little-endian, RGBA32 anywhere.
  // SDL only reads the pixels (the surface is freed before this returns).
  void* pixels = const_cast<std::uint8_t*>(image.rgba.data());
  SDL_Surface* surface = SDL_CreateRGBSurfaceWithFormatFrom(
      pixels, image.width, image.height, 32, image.width * 4, SDL_PIXELFORMAT_RGBA32);
  if (surface == nullptr) {
    error = fmt::format("cannot wrap {} in a surface: {}", image.path, SDL_GetError());
    return atlas;
  }
  atlas.texture = SDL_CreateTextureFromSurface(renderer, surface);
  SDL_FreeSurface(surface);
  if (atlas.texture == nullptr) {
    error = fmt::format("cannot make a texture of {}: {}", image.path, SDL_GetError());
    return atlas;
  }
  SDL_SetTextureBlendMode(atlas.texture, SDL_BLENDMODE_BLEND);
  for (int k = 0; k < scene::kSpriteKinds; ++k) atlas.kinds[k] = cell(k, 0);
  atlas.contact_ring = cell(0, 1);
  atlas.selection_ring = cell(1, 1);
  const AtlasRegion white = cell(2, 1);
  const float mid_u = 0.5f * (white.u0 + white.u1), mid_v = 0.5f * (white.v0 + white.v1);
  atlas.white = {mid_u, mid_v, mid_u, mid_v};
  util::logger().debug("loaded {} ({}x{})", image.path, image.width, image.height);
  return atlas;
}

std::string save_screenshot(SDL_Renderer* renderer, const std::string& path,
                            util::Existing existing) {
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
  return util::write_file_atomically(path, file, existing);
}

}  // namespace quadpool::game::window::sdl
