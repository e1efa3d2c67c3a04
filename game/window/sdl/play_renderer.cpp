#include "game/window/sdl/play_renderer.hpp"

#include <SDL.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <optional>

#include "engine/spatial/aabb.hpp"
#include "game/play/entities.hpp"
#include "game/play/ship.hpp"

// window::Vertex has SDL_Vertex's layout: sprite_renderer.cpp checks it with a static_assert.

namespace quadpool::game::window::sdl {

namespace {

using play::Vec2;

// The ring's points on the unit circle; rings take every one, every second or every fourth.
constexpr int kCirclePoints = 32;

const std::array<window::ScreenPoint, kCirclePoints>& unit_circle() {
  // Drawing only: libm's cos and sin are fine here, nothing of it feeds the game's state.
  static const std::array<window::ScreenPoint, kCirclePoints> points = [] {
    std::array<window::ScreenPoint, kCirclePoints> p{};
    for (int i = 0; i < kCirclePoints; ++i) {
      const double angle = 2.0 * 3.14159265358979323846 * i / kCirclePoints;
      p[static_cast<std::size_t>(i)] = {static_cast<float>(std::cos(angle)),
                                        static_cast<float>(std::sin(angle))};
    }
    return p;
  }();
  return points;
}

// `c` with its alpha scaled by `amount` in [0, 1].
Rgba faded(Rgba c, float amount) noexcept {
  const float a = static_cast<float>(c.a) * std::clamp(amount, 0.0f, 1.0f);
  return {c.r, c.g, c.b, static_cast<std::uint8_t>(a)};
}

// Fades out over the last `ticks` ticks of a life.
float fade_out(std::int32_t ticks_left, float ticks) noexcept {
  return static_cast<float>(ticks_left) / ticks;
}

}  // namespace

/// The triangles of one kind: culls in world units, writes screen-space vertices into the
/// renderer's kept buffer, and draws them with one call.
class PlayRenderer::Mesh {
 public:
  Mesh(SDL_Renderer* renderer, const window::Camera& camera, const spatial::Aabb& visible,
       std::vector<window::Vertex>& vertices, PlayDrawCounts& counts)
      : renderer_(renderer),
        camera_(camera),
        visible_(visible),
        vertices_(vertices),
        counts_(counts) {}

  /// True when something within `reach` world units of `p` may show.
  bool visible(Vec2 p, float reach) const noexcept {
    return p.x + reach >= visible_.min_x && p.x - reach <= visible_.max_x &&
           p.y + reach >= visible_.min_y && p.y - reach <= visible_.max_y;
  }
  window::ScreenPoint screen(Vec2 p) const noexcept { return camera_.to_screen(p.x, p.y); }
  float pixels(float world_units) const noexcept { return world_units * camera_.scale(); }

  void triangle(window::ScreenPoint a, window::ScreenPoint b, window::ScreenPoint c, Rgba colour) {
    for (const window::ScreenPoint& p : {a, b, c}) {
      vertices_.push_back({p.x, p.y, colour.r, colour.g, colour.b, colour.a, 0.0f, 0.0f});
    }
  }
  void quad(window::ScreenPoint a, window::ScreenPoint b, window::ScreenPoint c, window::ScreenPoint d,
            Rgba colour) {
    triangle(a, b, c, colour);
    triangle(c, d, a, colour);
  }
  /// A streak from `a` to `b` (pixels), `half_width` either side, at least `min_length` long
  /// (grown past `b`; a zero-length one points right).
  void segment(window::ScreenPoint a, window::ScreenPoint b, float half_width, float min_length,
               Rgba colour) {
    float dx = b.x - a.x, dy = b.y - a.y;
    const float length = std::sqrt(dx * dx + dy * dy);
    if (length > 0.0f) {
      dx /= length;
      dy /= length;
    } else {
      dx = 1.0f;
      dy = 0.0f;
    }
    const float drawn = std::max(length, min_length);
    const window::ScreenPoint end{a.x + dx * drawn, a.y + dy * drawn};
    const float nx = -dy * half_width, ny = dx * half_width;
    quad({a.x + nx, a.y + ny}, {end.x + nx, end.y + ny}, {end.x - nx, end.y - ny},
         {a.x - nx, a.y - ny}, colour);
  }
  /// A square of `half` pixels either side of `centre`.
  void square(window::ScreenPoint centre, float half, Rgba colour) {
    quad({centre.x - half, centre.y - half}, {centre.x + half, centre.y - half},
         {centre.x + half, centre.y + half}, {centre.x - half, centre.y + half}, colour);
  }
  /// A ring of `radius` pixels, `half_width` either side of it; a dot when it is under 1.5 px.
  void ring(window::ScreenPoint centre, float radius, float half_width, Rgba colour) {
    if (radius < 1.5f) {
      square(centre, std::max(radius, 0.75f), colour);
      return;
    }
    // Fewer segments for small rings: a storm's thousands of blasts are mostly a few px wide.
    const int step = radius >= 24.0f ? 1 : radius >= 8.0f ? 2 : 4;
    const auto& circle = unit_circle();
    const float inner = std::max(radius - half_width, 0.0f), outer = radius + half_width;
    for (int i = 0; i < kCirclePoints; i += step) {
      const window::ScreenPoint u = circle[static_cast<std::size_t>(i)];
      const window::ScreenPoint v = circle[static_cast<std::size_t>((i + step) % kCirclePoints)];
      quad({centre.x + u.x * inner, centre.y + u.y * inner},
           {centre.x + u.x * outer, centre.y + u.y * outer},
           {centre.x + v.x * outer, centre.y + v.y * outer},
           {centre.x + v.x * inner, centre.y + v.y * inner}, colour);
    }
  }

  /// A filled rock of `radius` pixels: a fan of kCirclePoints / 2 triangles whose rim points
  /// sit at 80..100% of the radius in a pattern picked by `look`.
  void rock(window::ScreenPoint centre, float radius, std::uint8_t look, Rgba colour) {
    constexpr std::array<float, 8> kBumps{1.0f, 0.86f, 0.97f, 0.8f, 0.93f, 1.0f, 0.84f, 0.95f};
    const auto& circle = unit_circle();
    constexpr int kStep = 2;
    const auto rim = [&](int i) {
      const float r = radius * kBumps[static_cast<std::size_t>(i / kStep + look) % kBumps.size()];
      const window::ScreenPoint u = circle[static_cast<std::size_t>(i % kCirclePoints)];
      return window::ScreenPoint{centre.x + u.x * r, centre.y + u.y * r};
    };
    for (int i = 0; i < kCirclePoints; i += kStep) triangle(centre, rim(i), rim(i + kStep), colour);
  }

  /// Draws what was added since the last flush with one call, and empties the buffer (its
  /// capacity stays).
  void flush() {
    if (vertices_.empty()) return;
    SDL_RenderGeometry(renderer_, nullptr, reinterpret_cast<const SDL_Vertex*>(vertices_.data()),
                       static_cast<int>(vertices_.size()), nullptr, 0);
    counts_.vertices += vertices_.size();
    ++counts_.draw_calls;
    vertices_.clear();
  }

 private:
  SDL_Renderer* renderer_;
  const window::Camera& camera_;
  spatial::Aabb visible_;
  std::vector<window::Vertex>& vertices_;
  PlayDrawCounts& counts_;
};

void PlayRenderer::draw(SDL_Renderer* renderer, const window::Camera& camera,
                        const window::ScreenRect& world_rect, const play::PlayWorld& world,
                        bool thrusting) {
  last_ = {};
  // The caller's clip and blend mode come back afterwards.
  const bool had_clip = SDL_RenderIsClipEnabled(renderer) == SDL_TRUE;
  SDL_Rect old_clip{};
  SDL_RenderGetClipRect(renderer, &old_clip);
  SDL_BlendMode old_blend = SDL_BLENDMODE_NONE;
  SDL_GetRenderDrawBlendMode(renderer, &old_blend);

  const SDL_Rect clip{static_cast<int>(world_rect.x), static_cast<int>(world_rect.y),
                      static_cast<int>(world_rect.w), static_cast<int>(world_rect.h)};
  SDL_RenderSetClipRect(renderer, &clip);
  // Untextured geometry blends with the renderer's draw blend mode.
  SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND);
  {
    Mesh mesh(renderer, camera, camera.visible_world(world_rect), vertices_, last_);
    // Back to front: faint, big things first; the ship on top of everything.
    draw_explosions(mesh, world);
    draw_debris(mesh, world);
    draw_sparks(mesh, world);
    draw_shots(mesh, world);
    draw_threats(mesh, world);
    draw_hunters(mesh, world);
    draw_missiles(mesh, world);
    draw_pickup(mesh, world);
    draw_ship(mesh, world, thrusting);
    draw_offscreen_markers(mesh, world, world_rect);
  }
  SDL_SetRenderDrawBlendMode(renderer, old_blend);
  SDL_RenderSetClipRect(renderer, had_clip ? &old_clip : nullptr);
}

void PlayRenderer::draw_explosions(Mesh& mesh, const play::PlayWorld& world) {
  world.entities().explosions.for_each([&](const play::Explosion& e) {
    const float radius = e.radius();
    if (!mesh.visible(e.centre, radius)) return;
    const float pixels = mesh.pixels(radius);
    const float age_left = static_cast<float>(e.ticks_left) / static_cast<float>(e.lifetime);
    mesh.ring(mesh.screen(e.centre), pixels, std::clamp(0.08f * pixels, 0.75f, 3.0f),
              faded(kExplosionColour, age_left));
    ++last_.explosions;
  });
  mesh.flush();
}

void PlayRenderer::draw_debris(Mesh& mesh, const play::PlayWorld& world) {
  world.entities().debris.for_each([&](const play::Debris& d) {
    if (!mesh.visible(d.motion.position, d.size)) return;
    mesh.square(mesh.screen(d.motion.position), std::max(mesh.pixels(d.size), 1.0f),
                faded(kDebrisColour, fade_out(d.motion.ticks_left, 20.0f)));
    ++last_.debris;
  });
  mesh.flush();
}

void PlayRenderer::draw_sparks(Mesh& mesh, const play::PlayWorld& world) {
  // A spark is drawn where it was two ticks ago to where it is: a streak along its motion.
  constexpr float kTrailTicks = 2.0f;
  world.entities().sparks.for_each([&](const play::Spark& s) {
    const Vec2 head = s.motion.position;
    const Vec2 tail = head - s.motion.velocity * kTrailTicks;
    const float reach =
        kTrailTicks * std::max(std::abs(s.motion.velocity.x), std::abs(s.motion.velocity.y)) + 1.0f;
    if (!mesh.visible(head, reach)) return;
    const Rgba colour = kSparkColours[s.hue % std::size(kSparkColours)];
    mesh.segment(mesh.screen(tail), mesh.screen(head), 0.75f, 2.0f,
                 faded(colour, fade_out(s.motion.ticks_left, 12.0f)));
    ++last_.sparks;
  });
  mesh.flush();
}

void PlayRenderer::draw_shots(Mesh& mesh, const play::PlayWorld& world) {
  const float half_width = std::clamp(mesh.pixels(world.tuning().shots.radius), 1.0f, 2.5f);
  world.entities().shots.for_each([&](const play::Shot& s) {
    const Vec2 head = s.motion.position;
    // A short streak behind the shot: most of one tick's flight.
    const Vec2 tail = head - s.motion.velocity * 0.6f;
    const float reach = std::max(std::abs(s.motion.velocity.x), std::abs(s.motion.velocity.y));
    if (!mesh.visible(head, reach)) return;
    mesh.segment(mesh.screen(tail), mesh.screen(head), half_width, 4.0f, kShotColour);
    ++last_.shots;
  });
  mesh.flush();
}

void PlayRenderer::draw_missiles(Mesh& mesh, const play::PlayWorld& world) {
  world.entities().missiles.for_each([&](const play::Missile& m) {
    const Vec2 head = m.motion.position;
    // A streak of two ticks' flight behind a white head.
    const Vec2 tail = head - m.motion.velocity * 2.0f;
    const float reach =
        2.0f * std::max(std::abs(m.motion.velocity.x), std::abs(m.motion.velocity.y));
    if (!mesh.visible(head, reach)) return;
    mesh.segment(mesh.screen(tail), mesh.screen(head), 1.5f, 4.0f, kMissileColour);
    mesh.square(mesh.screen(head), 2.0f, kShipRim);
    ++last_.missiles;
  });
  mesh.flush();
}

void PlayRenderer::draw_threats(Mesh& mesh, const play::PlayWorld& world) {
  world.entities().threats.for_each([&](const play::Threat& t) {
    const float reach = t.radius * 1.3f;
    if (!mesh.visible(t.motion.position, reach)) return;
    const window::ScreenPoint c = mesh.screen(t.motion.position);
    const float r = std::max(mesh.pixels(t.radius), 4.0f);
    // The rim first, a little larger, so the body leaves a bright edge around it.
    mesh.ring(c, r * 1.08f, std::max(0.09f * r, 1.25f), kThreatRim);
    mesh.rock(c, r, t.kind, kThreatColour);
    ++last_.threats;
  });
  mesh.flush();
}

// A dart along the hunter's flight (its heading when at rest), a white one under it for a rim.
void PlayRenderer::draw_hunters(Mesh& mesh, const play::PlayWorld& world) {
  world.entities().hunters.for_each([&](const play::Hunter& hunter) {
    if (!mesh.visible(hunter.motion.position, hunter.radius * 1.3f)) return;
    const window::ScreenPoint c = mesh.screen(hunter.motion.position);
    const float r = std::max(mesh.pixels(hunter.radius), 5.0f);
    const Vec2 h = play::normalized_or(hunter.motion.velocity, {1.0f, 0.0f});
    const Vec2 n = play::perpendicular(h);
    const auto dart = [&](float scale, Rgba colour) {
      const auto at = [&](float along, float across) {
        return window::ScreenPoint{c.x + (h.x * along + n.x * across) * r * scale,
                                   c.y + (h.y * along + n.y * across) * r * scale};
      };
      mesh.quad(at(1.2f, 0.0f), at(-0.8f, 0.9f), at(-0.4f, 0.0f), at(-0.8f, -0.9f), colour);
    };
    dart(1.18f, kShipRim);
    dart(1.0f, kHunterColour);
    ++last_.hunters;
  });
  mesh.flush();
}

void PlayRenderer::draw_pickup(Mesh& mesh, const play::PlayWorld& world) {
  const std::optional<play::Pickup>& pickup = world.pickup();
  if (!pickup) return;
  // Blinks over its last two seconds: it is about to go.
  constexpr int kBlinkFrom = 120;
  if (pickup->ticks_left < kBlinkFrom && (pickup->ticks_left / 8) % 2 != 0) return;
  const float radius = world.tuning().storm.pickup_radius;
  if (!mesh.visible(pickup->position, radius * 1.5f)) return;
  const window::ScreenPoint c = mesh.screen(pickup->position);
  const float r = std::max(mesh.pixels(radius), 6.0f);
  // A slow pulse, from the tick count: drawing only.
  const float pulse = 0.85f + 0.15f * static_cast<float>((world.ticks() / 6) % 4) / 3.0f;
  mesh.ring(c, r * pulse, std::max(0.1f * r, 1.25f), kPickupColour);
  const float d = 0.55f * r;
  mesh.quad({c.x, c.y - d}, {c.x + d, c.y}, {c.x, c.y + d}, {c.x - d, c.y}, kPickupColour);
  last_.pickup = true;
  mesh.flush();
}

// A threat, a hunter or the storm out of view: a small arrow on the world rectangle's edge,
// pointing at it from the view's centre, so that what comes is never a surprise.
void PlayRenderer::draw_offscreen_markers(Mesh& mesh, const play::PlayWorld& world,
                                          const window::ScreenRect& rect) {
  constexpr float kInset = 16.0f, kSize = 9.0f;
  const float cx = rect.x + 0.5f * rect.w, cy = rect.y + 0.5f * rect.h;
  const float half_w = 0.5f * rect.w - kInset, half_h = 0.5f * rect.h - kInset;
  if (half_w <= 0.0f || half_h <= 0.0f) return;
  const auto marker = [&](Vec2 at, float reach, Rgba colour) {
    if (mesh.visible(at, reach)) return;
    const window::ScreenPoint p = mesh.screen(at);
    const float dx = p.x - cx, dy = p.y - cy;
    const float length = std::sqrt(dx * dx + dy * dy);
    if (length <= 0.0f) return;
    const float ux = dx / length, uy = dy / length;
    // Where the line from the centre toward it crosses the inset rectangle.
    const float t = std::min(std::abs(ux) > 0.0f ? half_w / std::abs(ux) : half_h / std::abs(uy),
                             std::abs(uy) > 0.0f ? half_h / std::abs(uy) : half_w / std::abs(ux));
    const window::ScreenPoint m{cx + ux * t, cy + uy * t};
    mesh.triangle({m.x + ux * kSize, m.y + uy * kSize},
                  {m.x - ux * kSize - uy * kSize, m.y - uy * kSize + ux * kSize},
                  {m.x - ux * kSize + uy * kSize, m.y - uy * kSize - ux * kSize}, colour);
    ++last_.offscreen_markers;
  };
  if (!world.status().game_over) {
    world.entities().threats.for_each(
        [&](const play::Threat& t) { marker(t.motion.position, t.radius, kThreatRim); });
    world.entities().hunters.for_each(
        [&](const play::Hunter& h) { marker(h.motion.position, h.radius, kHunterColour); });
  }
  if (const std::optional<play::Pickup>& pickup = world.pickup()) {
    marker(pickup->position, world.tuning().storm.pickup_radius, kPickupColour);
  }
  mesh.flush();
}

void PlayRenderer::draw_ship(Mesh& mesh, const play::PlayWorld& world, bool thrusting) {
  const play::Ship& ship = world.ship();
  const play::Tuning& tuning = world.tuning();
  // A lost game has no ship; an invulnerable one blinks.
  if (world.status().game_over) return;
  if (ship.invulnerable_ticks > 0 && (ship.invulnerable_ticks / kBlinkTicks) % 2 != 0) return;
  const float shield_radius = 1.7f * tuning.ship.radius;
  if (!mesh.visible(ship.position, shield_radius)) return;
  // Never under 5 px, so a zoomed-out view still shows where the ship is.
  const float r = std::max(mesh.pixels(tuning.ship.radius), 5.0f);
  const window::ScreenPoint c = mesh.screen(ship.position);
  const Vec2 h = ship.heading, n = play::perpendicular(ship.heading);
  const auto at = [&](float along, float across) {
    return window::ScreenPoint{c.x + (h.x * along + n.x * across) * r,
                            c.y + (h.y * along + n.y * across) * r};
  };
  if (ship.shield > 0 && tuning.ship.shield > 0) {
    const float full = static_cast<float>(ship.shield) / static_cast<float>(tuning.ship.shield);
    mesh.ring(c, 1.7f * r, std::max(0.08f * r, 0.75f), faded(kShieldColour, 0.25f + 0.6f * full));
  }
  if (thrusting) mesh.triangle(at(-0.7f, 0.4f), at(-0.7f, -0.4f), at(-1.6f, 0.0f), kFlameColour);
  // The body: a dart whose nose is the heading; the ship's centre lies inside it. A white one a
  // size larger behind it leaves a rim that stands out over dust of any colour.
  mesh.triangle(at(1.75f, 0.0f), at(-1.15f, 1.1f), at(-0.45f, 0.0f), kShipRim);
  mesh.triangle(at(1.75f, 0.0f), at(-0.45f, 0.0f), at(-1.15f, -1.1f), kShipRim);
  mesh.triangle(at(1.4f, 0.0f), at(-0.9f, 0.85f), at(-0.5f, 0.0f), kShipColour);
  mesh.triangle(at(1.4f, 0.0f), at(-0.5f, 0.0f), at(-0.9f, -0.85f), kShipColour);
  last_.ship = true;
  mesh.flush();
}

}  // namespace quadpool::game::window::sdl
