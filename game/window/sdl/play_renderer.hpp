#pragma once
/// Draws play's own things over the field: the threats, the storm power-up, the ship, its shots,
/// and the debris, sparks and explosions of broken rocks. The dust is the field's sprites, which
/// SpriteRenderer draws as in the lab (dimmed); dust already broken (PlayWorld::rock_is_dead) is
/// the caller's to skip.
///
/// Each kind is one SDL_RenderGeometry call of untextured triangles, built in one vertex buffer
/// that is kept between frames: once it has grown to the busiest frame, drawing allocates
/// nothing. Entities outside the part of the world that `world_rect` shows are skipped before
/// any vertex is written, so a storm's 50,000 entities cost a test each and only the visible
/// ones cost vertices. Everything is clipped to `world_rect`.
///
/// Looks, chosen to read on the dark background:
///   threats    dark red rocks with a bright red rim, over the dust: the danger reads at once
///   storm      a pulsing gold ring with a diamond inside, blinking over its last two seconds
///   out of view  a threat or the storm outside the view: an arrow in its colour on the view's
///              edge, pointing at it
///   ship       a mint dart with a white rim along its heading; an orange flame while thrusting;
///              blinks while invulnerable; its shield a blue ring, as opaque as the shield is full
///   shots      bright yellow streaks along their flight
///   debris     small grey-brown squares, fading out over their last ticks
///   sparks     short streaks behind their motion, in one of four hot colours, fading
///   explosions orange rings that grow to their blast radius and fade with age

#include <cstddef>
#include <vector>

#include "game/window/sdl/sprite_renderer.hpp"
#include "game/window/camera.hpp"
#include "game/window/vertex_stream.hpp"
#include "game/play/play_world.hpp"
#include "game/play/vec2.hpp"

struct SDL_Renderer;

namespace quadpool::game::window::sdl {

/// What the last PlayRenderer::draw drew: entities inside the view, and the cost.
struct PlayDrawCounts {
  std::size_t shots = 0, debris = 0, sparks = 0, explosions = 0, threats = 0;
  bool pickup = false;         ///< the storm power-up was in view
  std::size_t offscreen_markers =
      0;                       ///< arrows on the edge toward threats and the storm out of view
  bool ship = false;           ///< false while blinked out, or outside the view
  std::size_t vertices = 0;    ///< all kinds
  std::size_t draw_calls = 0;  ///< SDL_RenderGeometry calls
};

class PlayRenderer {
 public:
  static constexpr Rgba kShipColour{120, 255, 170, 255};
  static constexpr Rgba kFlameColour{255, 150, 40, 255};
  static constexpr Rgba kShieldColour{90, 170, 255, 255};  ///< alpha scaled by the shield
  static constexpr Rgba kShotColour{255, 250, 120, 255};
  static constexpr Rgba kDebrisColour{175, 150, 125, 255};
  static constexpr Rgba kExplosionColour{255, 140, 50, 255};
  static constexpr Rgba kThreatColour{105, 45, 40, 255};
  static constexpr Rgba kThreatRim{255, 75, 55, 255};
  static constexpr Rgba kPickupColour{255, 215, 70, 255};
  static constexpr Rgba kShipRim{255, 255, 255, 255};
  /// A spark's hue picks one of these.
  static constexpr Rgba kSparkColours[4] = {
      {255, 210, 90, 255}, {255, 110, 60, 255}, {130, 220, 255, 255}, {255, 255, 215, 255}};
  /// While invulnerable the ship shows for this many ticks, then hides for as many.
  static constexpr int kBlinkTicks = 4;

  /// Draws `world`'s ship and entities through `camera`, clipped to `world_rect` (window
  /// pixels). `thrusting`: the command of the last tick thrust, so the flame shows (the Ship
  /// does not record it). Restores the renderer's clip rectangle and blend mode. O(live
  /// entities) tests, O(visible entities) vertices; allocation-free once warm.
  void draw(SDL_Renderer* renderer, const window::Camera& camera, const window::ScreenRect& world_rect,
            const play::PlayWorld& world, bool thrusting = false);

  const PlayDrawCounts& last_counts() const noexcept { return last_; }

 private:
  class Mesh;
  void draw_explosions(Mesh& mesh, const play::PlayWorld& world);
  void draw_debris(Mesh& mesh, const play::PlayWorld& world);
  void draw_sparks(Mesh& mesh, const play::PlayWorld& world);
  void draw_shots(Mesh& mesh, const play::PlayWorld& world);
  void draw_threats(Mesh& mesh, const play::PlayWorld& world);
  void draw_pickup(Mesh& mesh, const play::PlayWorld& world);
  void draw_ship(Mesh& mesh, const play::PlayWorld& world, bool thrusting);
  void draw_offscreen_markers(Mesh& mesh, const play::PlayWorld& world,
                              const window::ScreenRect& rect);

  std::vector<window::Vertex> vertices_;  // one kind's triangles; kept between frames
  PlayDrawCounts last_{};
};

}  // namespace quadpool::game::window::sdl
