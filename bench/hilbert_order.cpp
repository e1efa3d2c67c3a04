#include "bench/hilbert_order.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace quadpool::bench {

namespace {

// The distance of a point along a Hilbert curve over a 65536 x 65536 grid: points close on the
// curve are close in the plane.
std::uint64_t hilbert_distance(std::uint32_t x, std::uint32_t y) {
  std::uint64_t d = 0;
  for (std::uint32_t s = 1u << 15; s > 0; s >>= 1) {
    const std::uint32_t rx = (x & s) != 0 ? 1 : 0;
    const std::uint32_t ry = (y & s) != 0 ? 1 : 0;
    d += static_cast<std::uint64_t>(s) * s * ((3 * rx) ^ ry);
    if (ry == 0) {  // rotate the quadrant so that the curve stays continuous
      if (rx == 1) {
        x = 0xFFFF - x;
        y = 0xFFFF - y;
      }
      std::swap(x, y);
    }
  }
  return d;
}

}  // namespace

std::vector<std::uint32_t> hilbert_order(std::span<const spatial::Aabb> boxes) {
  float lo_x = 0, lo_y = 0, hi_x = 0, hi_y = 0;
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    const float x = 0.5f * (boxes[i].min_x + boxes[i].max_x);
    const float y = 0.5f * (boxes[i].min_y + boxes[i].max_y);
    lo_x = i == 0 ? x : std::min(lo_x, x);
    hi_x = i == 0 ? x : std::max(hi_x, x);
    lo_y = i == 0 ? y : std::min(lo_y, y);
    hi_y = i == 0 ? y : std::max(hi_y, y);
  }
  const float scale = 65535.0f / std::max({hi_x - lo_x, hi_y - lo_y, 1e-6f});
  std::vector<std::pair<std::uint64_t, std::uint32_t>> keyed(boxes.size());
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    const float x = 0.5f * (boxes[i].min_x + boxes[i].max_x);
    const float y = 0.5f * (boxes[i].min_y + boxes[i].max_y);
    keyed[i] = {hilbert_distance(static_cast<std::uint32_t>((x - lo_x) * scale),
                                 static_cast<std::uint32_t>((y - lo_y) * scale)),
                static_cast<std::uint32_t>(i)};
  }
  std::sort(keyed.begin(), keyed.end());
  std::vector<std::uint32_t> order(boxes.size());
  for (std::size_t k = 0; k < keyed.size(); ++k) order[k] = keyed[k].second;
  return order;
}

}  // namespace quadpool::bench
