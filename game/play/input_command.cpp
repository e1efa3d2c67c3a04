#include "game/play/input_command.hpp"

#include <cmath>

namespace quadpool::game::play {

FixedAim aim_toward(float dx, float dy) noexcept {
  if (!std::isfinite(dx) || !std::isfinite(dy)) return {};
  const float larger = std::fabs(dx) > std::fabs(dy) ? std::fabs(dx) : std::fabs(dy);
  if (larger == 0.0f) return {};
  const float scale = static_cast<float>(FixedAim::kAimScale) / larger;
  // Rounded to the nearest step; the larger component lands on kAimScale exactly.
  return {static_cast<std::int16_t>(std::lround(dx * scale)),
          static_cast<std::int16_t>(std::lround(dy * scale))};
}

}  // namespace quadpool::game::play
