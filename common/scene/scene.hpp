#pragma once
/// The one definition of a scene, shared by the game, the tests and the benchmarks so that all
/// of them measure the same workload. A scene is N circular sprites in a square world whose side
/// grows with sqrt(N) (world_side()), so the average density is the same for every N: about 32%
/// of the world is covered by sprites, 65% in the mixed scene, whose 1% of large sprites have
/// 100 times the area (coverage()). The kinds differ in where the sprites start, how big they
/// are and where they head:
///
///   uniform    radii 2..6 spread evenly, random headings (the scene a uniform grid likes best)
///   clustered  85% of the sprites, slow, in 5 dense Gaussian blobs; the rest spread evenly
///   mixed      the uniform scene with every 100th sprite 10x larger (radii 20..60), 10x slower
///   streams    two crowds in alternate single-file lanes that slide through each other in
///              opposite directions, so the dense region moves every tick
///
/// (Radii and speeds are SceneConfig's defaults; the other numbers are the constants below.
/// docs/simulation.md, "Scenes", shows how each scene evolves.)
/// This library depends on the engine only (Aabb, Random), so engine tests and benchmarks may
/// use it without reaching into game/.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "engine/spatial/aabb.hpp"

namespace quadpool::scene {

/// The families of scenes. Each is seeded and deterministic on every platform.
enum class SceneKind { Uniform, Clustered, Mixed, Streams };

/// Every SceneKind, in declaration order (for loops over all scenes and for pickers).
inline constexpr std::array kSceneKinds{SceneKind::Uniform, SceneKind::Clustered,
                                        SceneKind::Mixed, SceneKind::Streams};

/// "uniform", "clustered", "mixed" or "streams": the spelling of the command line and the JSON.
const char* scene_name(SceneKind kind) noexcept;

/// The SceneKind spelled `name` exactly as scene_name() spells it; nullopt for anything else.
std::optional<SceneKind> parse_scene_kind(std::string_view name) noexcept;

struct SceneConfig {
  std::uint64_t seed = 1;
  std::size_t sprites = 10'000;
  float min_radius = 2.0f;  // the small sprites' radii; Mixed's large ones are 10x these
  float max_radius = 6.0f;
  float speed = 0.5f;  // world units per tick
  SceneKind kind = SceneKind::Uniform;
};

// --- the scenes' parameters (documented in docs/simulation.md) ---------------------------------

/// Clustered: the share of the sprites in the blobs, and the number of blobs.
inline constexpr double kClusteredShare = 0.85;
inline constexpr int kClusteredBlobs = 5;
/// Clustered: how much slower the blobs' sprites start than the others (slow crowds in a thin
/// fast gas, so that a blob holds together for thousands of ticks rather than bursting).
inline constexpr float kClusteredSlowdown = 10.0f;
/// Mixed: the share of large sprites, how much larger their radii are than the small ones',
/// and how much slower they start (about equipartition of energy with the small ones, so that
/// the heavy sprites neither plough through the crowd nor get battered by it).
inline constexpr double kMixedLargeShare = 0.01;
inline constexpr float kMixedLargeScale = 10.0f;
inline constexpr float kMixedLargeSlowdown = 10.0f;
/// Streams: the room between lanes and the largest gap between two sprites of a lane, in
/// multiples of min_radius.
inline constexpr float kStreamsLaneGap = 0.5f;

/// Number of sprite looks in assets/; a sprite's kind is in [0, kSpriteKinds).
inline constexpr std::uint8_t kSpriteKinds = 4;

struct Sprite {
  float x, y;    // centre
  float vx, vy;  // world units per tick
  float radius;
  std::uint8_t kind;
};

/// Side of the square world for `sprites` sprites: 4096 * sqrt(sprites / 100000). The same
/// for every SceneKind, so that the scenes differ in distribution, never in average density.
float world_side(std::size_t sprites) noexcept;

/// How much of the world `config`'s sprites cover, on average over their random radii: their
/// count times their mean area over the world's area (world_side(config.sprites)^2), overlaps
/// counted each time. Mixed counts its large sprites as spawn_sprites() makes them
/// (kMixedLargeShare of the count, rounded, at kMixedLargeScale times the radii). With
/// SceneConfig's default radii it is about 0.32 for every kind but Mixed, about 0.65 there
/// (0.97 at 50 sprites, whose one large sprite is 2% of them, the most at any count); 0 for no
/// sprites. The world's side follows the count alone, so larger radii crowd it, and the pairs
/// a tick grow in proportion (sprites of one radius spread evenly at coverage c overlap about
/// 4c others each): a replay's reader refuses a start that covers far more than any scene the
/// game records (game/play/replay.hpp). O(1).
double coverage(const SceneConfig& config) noexcept;

/// `config.sprites` sprites of the family `config.kind`, every one inside the world of side
/// world_side(config.sprites) (a sprite wider than that world is centred). Deterministic for a
/// given config on every platform: all randomness comes from quadpool::Random seeded with
/// config.seed. The Uniform scene is bit-for-bit the scene of every earlier version.
std::vector<Sprite> spawn_sprites(const SceneConfig& config);

/// The largest radius among `sprites`, 0 when there are none (what a grid's cell size or a
/// loose tree's slack must cover). O(N).
float largest_radius(std::span<const Sprite> sprites) noexcept;

/// One tick of motion: moves every sprite by its velocity and reflects it off the walls of the
/// square [0, side]^2, so that it ends inside [radius, side - radius] on both axes.
void move_and_bounce(std::span<Sprite> sprites, float side) noexcept;

/// Moves the sprite the shortest way into [radius, side - radius] on both axes (the centre of
/// the world on an axis that is narrower than the sprite). The velocity is left alone.
void clamp_into_world(Sprite& sprite, float side) noexcept;

/// The sprite's bounding box.
inline spatial::Aabb bounds_of(const Sprite& s) noexcept {
  return {s.x - s.radius, s.y - s.radius, s.x + s.radius, s.y + s.radius};
}

}  // namespace quadpool::scene
