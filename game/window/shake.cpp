#include "game/window/shake.hpp"

#include <algorithm>

namespace quadpool::game::window {

namespace {

// A value in [-1, 1] from (tick, axis): an integer hash, so every build shakes alike.
float noise(std::uint32_t tick, std::uint32_t axis) noexcept {
  std::uint32_t h = tick * 0x9E3779B1u + axis * 0x85EBCA77u;
  h ^= h >> 15;
  h *= 0x2C1B3C6Du;
  h ^= h >> 12;
  return static_cast<float>(h & 0xFFFFu) / 32767.5f - 1.0f;
}

}  // namespace

void Shake::knock(float trauma) noexcept {
  trauma_ = std::clamp(trauma_ + trauma, 0.0f, 1.0f);
}

void Shake::tick() noexcept {
  trauma_ = std::max(0.0f, trauma_ - kDecayPerTick);
  flash_ = std::max(0.0f, flash_ - kFlashDecayPerTick);
  ++tick_;
}

ScreenPoint Shake::offset() const noexcept {
  if (!enabled_ || trauma_ <= 0.0f) return {0.0f, 0.0f};
  const float reach = kMaxPixels * trauma_ * trauma_;
  return {reach * noise(tick_, 1), reach * noise(tick_, 2)};
}

}  // namespace quadpool::game::window
