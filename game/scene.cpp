#include "game/scene.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "engine/core/random.hpp"

namespace quadpool::game {

float world_side(std::size_t sprites) noexcept {
  return 4096.0f * static_cast<float>(std::sqrt(static_cast<double>(sprites) / 100000.0));
}

std::vector<Sprite> spawn_sprites(const SceneConfig& config) {
  Random rng(config.seed);
  const float side = world_side(config.sprites);
  std::vector<Sprite> sprites(config.sprites);
  for (Sprite& s : sprites) {
    s.radius = rng.uniform(config.min_radius, config.max_radius);
    // A world too small for the radius (a handful of sprites) centres the sprite instead.
    const float lo = std::min(s.radius, side * 0.5f);
    const float hi = std::max(side - s.radius, side * 0.5f);
    s.x = rng.uniform(lo, hi);
    s.y = rng.uniform(lo, hi);
    const float heading = rng.uniform(0.0f, 2.0f * std::numbers::pi_v<float>);
    s.vx = config.speed * std::cos(heading);
    s.vy = config.speed * std::sin(heading);
    s.kind = static_cast<std::uint8_t>(rng.below(kSpriteKinds));
  }
  return sprites;
}

namespace {
// Moves one coordinate into [lo, hi]; a sprite wider than the world is pinned to the middle.
void clamp_axis(float& p, float lo, float hi) noexcept {
  if (lo > hi) {
    p = 0.5f * (lo + hi);
  } else {
    p = std::clamp(p, lo, hi);
  }
}

// Reflects one coordinate off [lo, hi]; the velocity component points back inside afterwards.
void bounce(float& p, float& v, float lo, float hi) noexcept {
  if (lo > hi) {
    clamp_axis(p, lo, hi);
    return;
  }
  if (p < lo) {
    p = std::min(lo + (lo - p), hi);
    v = std::abs(v);
  } else if (p > hi) {
    p = std::max(hi - (p - hi), lo);
    v = -std::abs(v);
  }
}
}  // namespace

void move_and_bounce(std::span<Sprite> sprites, float side) noexcept {
  for (Sprite& s : sprites) {
    s.x += s.vx;
    s.y += s.vy;
    bounce(s.x, s.vx, s.radius, side - s.radius);
    bounce(s.y, s.vy, s.radius, side - s.radius);
  }
}

void clamp_into_world(Sprite& sprite, float side) noexcept {
  clamp_axis(sprite.x, sprite.radius, side - sprite.radius);
  clamp_axis(sprite.y, sprite.radius, side - sprite.radius);
}

}  // namespace quadpool::game
