#pragma once
/// Vec2: the plain 2D float vector of the game's rules. Only + - * and sqrt, which IEEE 754
/// rounds exactly, so every result is the same on every compiler and C library (the targets
/// build with -ffp-contract=off, so no fused multiply-add changes a rounding).

#include <cmath>

namespace quadpool::game::play {

struct Vec2 {
  float x = 0.0f, y = 0.0f;

  friend Vec2 operator+(Vec2 a, Vec2 b) noexcept { return {a.x + b.x, a.y + b.y}; }
  friend Vec2 operator-(Vec2 a, Vec2 b) noexcept { return {a.x - b.x, a.y - b.y}; }
  friend Vec2 operator*(Vec2 a, float k) noexcept { return {a.x * k, a.y * k}; }
  friend bool operator==(Vec2, Vec2) = default;
};

inline float dot(Vec2 a, Vec2 b) noexcept { return a.x * b.x + a.y * b.y; }
inline float length_sq(Vec2 a) noexcept { return dot(a, a); }

/// `a` scaled to unit length; `fallback` when `a` is zero (or so small its square is 0).
inline Vec2 normalized_or(Vec2 a, Vec2 fallback) noexcept {
  const float sq = length_sq(a);
  if (!(sq > 0.0f)) return fallback;
  const float length = std::sqrt(sq);
  return {a.x / length, a.y / length};
}

/// `a` turned counter-clockwise by the angle whose cosine and sine are (c, s).
inline Vec2 rotated(Vec2 a, float c, float s) noexcept {
  return {a.x * c - a.y * s, a.x * s + a.y * c};
}

/// `a` turned a quarter counter-clockwise.
inline Vec2 perpendicular(Vec2 a) noexcept { return {-a.y, a.x}; }

}  // namespace quadpool::game::play
