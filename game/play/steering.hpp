#pragma once
/// The rules' small pieces of motion, shared by the threats, the hunters and the missiles:
/// bouncing off the walls, turning by a fixed rotation, and where a path passes a circle. No
/// libm call: sqrt is exact in IEEE 754, and rotations are given as constants.

#include <algorithm>
#include <cmath>
#include <optional>

#include "game/play/vec2.hpp"

namespace quadpool::game::play {

// Keeps a mover inside the world [0, side]^2: it bounces off the walls as the dust does.
inline void bounce(float& position, float& velocity, float radius, float side) noexcept {
  if (position < radius && velocity < 0.0f) velocity = -velocity;
  if (position > side - radius && velocity > 0.0f) velocity = -velocity;
}

// Turns `velocity` toward `target` by at most one step of (cos, sin), keeping its length: onto
// it when within the step, else by the step on the side where it lies.
inline void turn_toward(Vec2& velocity, Vec2 target, float cos, float sin) noexcept {
  const float along = dot(velocity, target);
  const float norms_sq = length_sq(velocity) * length_sq(target);
  if (along > 0.0f && along * along >= cos * cos * norms_sq) {
    velocity = normalized_or(target, velocity) * std::sqrt(length_sq(velocity));
    return;
  }
  const float cross = velocity.x * target.y - velocity.y * target.x;
  velocity = rotated(velocity, cos, cross < 0.0f ? -sin : sin);
}

// The share t of the path from `from` along `path` (length_sq path_sq) at which it passes
// closest to `centre`, when it passes within `reach`; nullopt when it does not.
inline std::optional<float> passes_within(Vec2 from, Vec2 path, float path_sq, Vec2 centre,
                                          float reach) noexcept {
  float t = path_sq > 0.0f ? dot(centre - from, path) / path_sq : 0.0f;
  t = std::clamp(t, 0.0f, 1.0f);
  const Vec2 closest = from + path * t;
  if (length_sq(centre - closest) >= reach * reach) return std::nullopt;
  return t;
}

}  // namespace quadpool::game::play
