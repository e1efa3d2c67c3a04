#pragma once
/// The game in the window: the play session (game/play/) with what only a window has around
/// it. PilotInput turns keys, mouse and controller into each tick's command, Sound plays the
/// tick's events, the high score file takes a finished game's score, and the world is drawn:
/// the rocks still in the field by the SpriteRenderer (as in the lab), the ship, shots, debris,
/// sparks and explosions by the PlayRenderer, and the score line and the centred screens by the
/// HUD. The App owns one and switches to it with the mode key.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "game/play/play_session.hpp"
#include "game/window/sdl/pilot_input.hpp"
#include "game/window/sdl/play_renderer.hpp"
#include "game/window/sdl/sound.hpp"
#include "game/window/sdl/sprite_renderer.hpp"
#include "game/window/window_options.hpp"
#include "game/play/high_score.hpp"
#include "game/window/camera.hpp"
#include "game/window/summary.hpp"
#include "game/window/vertex_stream.hpp"
#include "game/play/entity_stores.hpp"
#include "game/play/replay.hpp"
#include "game/play/play_report.hpp"
#include "game/sim/tick_recorder.hpp"
#include "common/scene/scene.hpp"

union SDL_Event;
struct SDL_Renderer;

namespace quadpool::game::window::sdl {

class PlayScreen {
 public:
  /// The game of `options` (sprites, seed, scene, allocator, storm, bot, record), or the game
  /// `replay` holds. PlayWorld's exceptions pass through.
  PlayScreen(const WindowOptions& options, std::optional<play::Replay> replay);

  /// Feeds one event to the pilot; true when it was the pilot's.
  bool handle(const SDL_Event& event, bool ui_wants_mouse, bool ui_wants_keyboard);
  /// Runs one tick with the pilot's command (mouse aim is relative to the ship on `camera`),
  /// plays its sounds and, when a player's game ends, submits the score. False when nothing
  /// ran (a replay that is over).
  bool tick(const window::Camera& camera);
  /// The chase camera: the ship at the centre of `area`, the zoom kept.
  void follow(window::Camera& camera, const window::ScreenRect& area) const;
  /// The camera on entering the game: zoomed in to the ship's surroundings.
  void frame(window::Camera& camera, const window::ScreenRect& area) const;
  /// The mode switched away, or the window lost focus: no key stays held.
  void release_pilot() noexcept { pilot_.release_all(); }
  void toggle_mute() noexcept { sound_.set_muted(!sound_.muted()); }

  /// Draws the field's rocks (dead ones skipped) and the game's entities.
  DrawCounts draw_world(SDL_Renderer* renderer, SpriteRenderer& sprites, window::VertexStream& stream,
                        const window::Camera& camera, const window::ScreenRect& area, bool draw_tree);
  /// The HUD (inside an ImGui frame).
  void draw_hud(const window::ScreenRect& area, bool paused) const;

  play::PlaySession& session() noexcept { return session_; }
  const play::PlaySession& session() const noexcept { return session_; }
  /// The JSON "game" object's content.
  GameReport report() const;
  window::PlaySummary stats() const;
  /// Writes the record (--record) of the game since its last restart. "" when it worked or
  /// nothing was asked, else the line to print (the old file is kept).
  std::string write_record();

 private:
  void on_events();

  play::PlaySession session_;
  std::string record_path_;  // empty: no record
  bool recorded_ = false;    // the record was written
  PilotInput pilot_;
  Sound sound_;
  HighScoreFile high_score_;
  std::string notice_;
  PlayRenderer renderer_;
  std::vector<scene::Sprite> rocks_;  // the rocks drawn this frame; reserved to the field's size
};

}  // namespace quadpool::game::window::sdl
