#include "common/scene/scene.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "engine/core/portable_math.hpp"
#include "engine/core/random.hpp"

namespace quadpool::scene {

namespace {

constexpr float kTwoPi = 2.0f * std::numbers::pi_v<float>;

// Clustered: the fraction of a blob's centre that its sprites cover. Much more, and random
// placement overlaps so much that the first ticks' corrections blow the blob up.
constexpr double kClusteredPeakCoverage = 0.9;

// Uniform in [lo, hi] for a sprite of `radius` on an axis [lo_wall, hi_wall]; an axis narrower
// than the sprite gives its middle.
float uniform_between_walls(Random& rng, float radius, float lo_wall, float hi_wall) {
  const float mid = 0.5f * (lo_wall + hi_wall);
  const float lo = std::min(lo_wall + radius, mid);
  const float hi = std::max(hi_wall - radius, mid);
  return rng.uniform(lo, hi);
}

void set_heading(Sprite& s, float heading, float speed) {
  const CosSin direction = portable_cos_sin(heading);
  s.vx = speed * direction.cosine;
  s.vy = speed * direction.sine;
}

// The mean area of a sprite with a radius uniform in [lo, hi]: pi * E[r^2].
double mean_area(float lo, float hi) {
  const double a = lo;
  const double b = hi;
  const double mean_square = b > a ? (b * b * b - a * a * a) / (3.0 * (b - a)) : a * a;
  return std::numbers::pi * mean_square;
}

// Mixed: how many of `sprites` are large (exactly this many, spread evenly over the indices).
std::size_t mixed_large_count(std::size_t sprites) {
  return static_cast<std::size_t>(std::llround(kMixedLargeShare * static_cast<double>(sprites)));
}

std::vector<Sprite> spawn_uniform(const SceneConfig& config) {
  // Every draw, and its order, is the scene of earlier versions: its state hashes are pinned.
  Random rng(config.seed);
  const float side = world_side(config.sprites);
  std::vector<Sprite> sprites(config.sprites);
  for (Sprite& s : sprites) {
    s.radius = rng.uniform(config.min_radius, config.max_radius);
    s.x = uniform_between_walls(rng, s.radius, 0.0f, side);
    s.y = uniform_between_walls(rng, s.radius, 0.0f, side);
    set_heading(s, rng.uniform(0.0f, kTwoPi), config.speed);
    s.kind = static_cast<std::uint8_t>(rng.below(kSpriteKinds));
  }
  return sprites;
}

struct Blob {
  float x, y, sigma;
  double cumulative_weight;  // for picking a blob in proportion to its weight
};

// The blob centre, out of a few candidates, farthest from the blobs placed so far (Mitchell's
// best-candidate sampling), so that blobs rarely merge into one.
void place_blob(Random& rng, std::span<Blob> placed, Blob& blob, float side) {
  float best_distance_sq = -1.0f;
  for (int candidate = 0; candidate < 16; ++candidate) {
    const float x = uniform_between_walls(rng, 2.0f * blob.sigma, 0.0f, side);
    const float y = uniform_between_walls(rng, 2.0f * blob.sigma, 0.0f, side);
    float nearest_sq = side * side * 4.0f;
    for (const Blob& other : placed) {
      nearest_sq = std::min(nearest_sq, (x - other.x) * (x - other.x) + (y - other.y) * (y - other.y));
    }
    if (nearest_sq > best_distance_sq) {
      best_distance_sq = nearest_sq;
      blob.x = x;
      blob.y = y;
    }
  }
}

// kClusteredBlobs blobs of random weight; each sigma gives the blob's centre the same coverage.
std::vector<Blob> make_blobs(Random& rng, const SceneConfig& config, float side) {
  std::vector<Blob> blobs(kClusteredBlobs);
  double total_weight = 0.0;
  for (Blob& blob : blobs) {
    blob.cumulative_weight = total_weight += rng.uniform(0.5f, 1.5f);
  }
  const double blob_sprites = kClusteredShare * static_cast<double>(config.sprites);
  double previous = 0.0;
  for (std::size_t b = 0; b < blobs.size(); ++b) {
    Blob& blob = blobs[b];
    const double share = (blob.cumulative_weight - previous) / total_weight;
    previous = blob.cumulative_weight;
    blob.cumulative_weight /= total_weight;
    // A 2D Gaussian of n sprites covers n * area / (2 pi sigma^2) at its centre.
    const double sigma_sq = share * blob_sprites * mean_area(config.min_radius, config.max_radius) /
                            (2.0 * std::numbers::pi * kClusteredPeakCoverage);
    blob.sigma = static_cast<float>(std::sqrt(sigma_sq));
    place_blob(rng, std::span(blobs).first(b), blob, side);
  }
  return blobs;
}

std::vector<Sprite> spawn_clustered(const SceneConfig& config) {
  Random rng(config.seed);
  const float side = world_side(config.sprites);
  const std::vector<Blob> blobs = make_blobs(rng, config, side);
  std::vector<Sprite> sprites(config.sprites);
  for (Sprite& s : sprites) {
    s.radius = rng.uniform(config.min_radius, config.max_radius);
    const float heading = rng.uniform(0.0f, kTwoPi);
    if (rng.chance(kClusteredShare)) {
      set_heading(s, heading, config.speed / kClusteredSlowdown);
      const double pick = rng.unit_double();
      const auto blob = std::find_if(blobs.begin(), blobs.end() - 1, [&](const Blob& b) {
        return pick < b.cumulative_weight;
      });
      // Box-Muller: a 2D normal offset from a uniform angle and a radius drawn from (0, 1].
      const float length = blob->sigma * std::sqrt(-2.0f * portable_log(1.0f - rng.unit_float()));
      const CosSin offset = portable_cos_sin(rng.uniform(0.0f, kTwoPi));
      s.x = blob->x + length * offset.cosine;
      s.y = blob->y + length * offset.sine;
      // Each blob has its own look, so the demo shows where its sprites went.
      s.kind = static_cast<std::uint8_t>((blob - blobs.begin()) % kSpriteKinds);
      clamp_into_world(s, side);
    } else {
      set_heading(s, heading, config.speed);
      s.x = uniform_between_walls(rng, s.radius, 0.0f, side);
      s.y = uniform_between_walls(rng, s.radius, 0.0f, side);
      s.kind = static_cast<std::uint8_t>(rng.below(kSpriteKinds));
    }
  }
  return sprites;
}

std::vector<Sprite> spawn_mixed(const SceneConfig& config) {
  // The same draws in the same order as spawn_uniform, so that the small sprites are the uniform
  // scene's: side by side with it, the large sprites are the only difference.
  Random rng(config.seed);
  const float side = world_side(config.sprites);
  const std::size_t large_count = mixed_large_count(config.sprites);
  std::vector<Sprite> sprites(config.sprites);
  for (std::size_t i = 0; i < sprites.size(); ++i) {
    Sprite& s = sprites[i];
    // Exactly large_count large sprites, spread evenly over the indices.
    const bool large = (i + 1) * large_count / sprites.size() != i * large_count / sprites.size();
    const float scale = large ? kMixedLargeScale : 1.0f;
    s.radius = rng.uniform(scale * config.min_radius, scale * config.max_radius);
    s.x = uniform_between_walls(rng, s.radius, 0.0f, side);
    s.y = uniform_between_walls(rng, s.radius, 0.0f, side);
    const float speed = large ? config.speed / kMixedLargeSlowdown : config.speed;
    set_heading(s, rng.uniform(0.0f, kTwoPi), speed);
    s.kind = static_cast<std::uint8_t>(rng.below(kSpriteKinds));
  }
  return sprites;
}

std::vector<Sprite> spawn_streams(const SceneConfig& config) {
  Random rng(config.seed);
  const float side = world_side(config.sprites);
  // Lanes just wider than the largest sprite, so that sprites in different lanes never touch.
  // Even lanes carry the crowd that heads right and starts at the left wall, odd lanes the one
  // that heads left from the right wall. Every sprite sits on its lane's centre line and moves
  // along it, so every contact is head-on along x and no sprite ever leaves its lane: the
  // crowds slide through each other, pile up against the far walls and spread back as a
  // one-dimensional gas in each lane, and the scene keeps its stripes for any number of ticks.
  const float lane_height = 2.0f * config.max_radius + kStreamsLaneGap * config.min_radius;
  const auto lanes = static_cast<std::size_t>(std::max(1.0f, std::floor(side / lane_height)));
  const float lane_pitch = side / static_cast<float>(lanes);
  std::vector<Sprite> sprites(config.sprites);
  std::vector<float> lane_front(lanes, 0.0f);  // how far each lane's train reaches so far
  for (std::size_t i = 0; i < sprites.size(); ++i) {
    Sprite& s = sprites[i];
    const std::size_t lane = i % lanes;
    const bool rightward = lane % 2 == 0;
    s.radius = rng.uniform(config.min_radius, config.max_radius);
    // Nose to tail, a small random gap apart, from the crowd's own wall inwards.
    const float along = lane_front[lane] + s.radius;
    lane_front[lane] = along + s.radius + rng.uniform(0.0f, kStreamsLaneGap * config.min_radius);
    s.x = rightward ? along : side - along;
    s.y = (static_cast<float>(lane) + 0.5f) * lane_pitch;
    s.vx = rightward ? config.speed : -config.speed;
    s.vy = 0.0f;
    s.kind = rightward ? 0 : 1;
    // A train longer than its lane (a world of a few sprites) overlaps; the first ticks' contacts
    // push it apart.
    clamp_into_world(s, side);
  }
  return sprites;
}

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

const char* scene_name(SceneKind kind) noexcept {
  switch (kind) {
    case SceneKind::Uniform: return "uniform";
    case SceneKind::Clustered: return "clustered";
    case SceneKind::Mixed: return "mixed";
    case SceneKind::Streams: return "streams";
  }
  return "unknown";
}

std::optional<SceneKind> parse_scene_kind(std::string_view name) noexcept {
  for (const SceneKind kind : kSceneKinds) {
    if (name == scene_name(kind)) return kind;
  }
  return std::nullopt;
}

float world_side(std::size_t sprites) noexcept {
  return 4096.0f * static_cast<float>(std::sqrt(static_cast<double>(sprites) / 100000.0));
}

double coverage(const SceneConfig& config) noexcept {
  if (config.sprites == 0) return 0.0;
  const double small_area = mean_area(config.min_radius, config.max_radius);
  double area = static_cast<double>(config.sprites) * small_area;
  if (config.kind == SceneKind::Mixed) {
    const double large_area = mean_area(kMixedLargeScale * config.min_radius,
                                        kMixedLargeScale * config.max_radius);
    area += static_cast<double>(mixed_large_count(config.sprites)) * (large_area - small_area);
  }
  const double side = world_side(config.sprites);
  return area / (side * side);
}

std::vector<Sprite> spawn_sprites(const SceneConfig& config) {
  switch (config.kind) {
    case SceneKind::Uniform: return spawn_uniform(config);
    case SceneKind::Clustered: return spawn_clustered(config);
    case SceneKind::Mixed: return spawn_mixed(config);
    case SceneKind::Streams: return spawn_streams(config);
  }
  return spawn_uniform(config);
}

float largest_radius(std::span<const Sprite> sprites) noexcept {
  float largest = 0.0f;
  for (const Sprite& s : sprites) largest = std::max(largest, s.radius);
  return largest;
}

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

}  // namespace quadpool::scene
