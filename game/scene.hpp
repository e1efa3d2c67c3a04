#pragma once
/// The one definition of a scene, shared by the game, the tests and the benchmarks so that all
/// three measure the same workload: N circles with radii uniform in [2, 6], moving 0.5 units per
/// tick on random headings in a square world whose side grows with sqrt(N), which keeps the
/// density constant at about 1.3 overlaps per circle.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "engine/spatial/aabb.hpp"

namespace quadpool::game {

struct SceneConfig {
  std::uint64_t seed = 1;
  std::size_t sprites = 10'000;
  float min_radius = 2.0f;
  float max_radius = 6.0f;
  float speed = 0.5f;  // world units per tick
};

/// Number of sprite looks in assets/; a sprite's kind is in [0, kSpriteKinds).
inline constexpr std::uint8_t kSpriteKinds = 4;

struct Sprite {
  float x, y;    // centre
  float vx, vy;  // world units per tick
  float radius;
  std::uint8_t kind;
};

/// Side of the square world for `sprites` sprites: 4096 * sqrt(sprites / 100000).
float world_side(std::size_t sprites) noexcept;

/// `config.sprites` sprites placed uniformly inside the world, headings uniform, all at
/// `config.speed`. Deterministic for a given config on every platform.
std::vector<Sprite> spawn_sprites(const SceneConfig& config);

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

}  // namespace quadpool::game
