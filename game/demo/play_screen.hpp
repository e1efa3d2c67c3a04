#pragma once
/// The game in the window: the play session (game/arcade/) with what only a window has around
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

#include "game/arcade/play_session.hpp"
#include "game/demo/pilot_input.hpp"
#include "game/demo/play_renderer.hpp"
#include "game/demo/sound.hpp"
#include "game/demo/sprite_renderer.hpp"
#include "game/demo_options.hpp"
#include "game/high_score.hpp"
#include "game/lab/camera.hpp"
#include "game/lab/summary.hpp"
#include "game/lab/vertex_stream.hpp"
#include "game/play/entity_stores.hpp"
#include "game/play/replay.hpp"
#include "game/play_report.hpp"
#include "game/tick_recorder.hpp"
#include "scene/scene.hpp"

union SDL_Event;
struct SDL_Renderer;

namespace quadpool::game::demo {

class PlayScreen {
 public:
  /// The game of `options` (sprites, seed, scene, allocator, storm, bot, record), or the game
  /// `replay` holds. PlayWorld's exceptions pass through.
  PlayScreen(const DemoOptions& options, std::optional<play::Replay> replay);

  /// Feeds one event to the pilot; true when it was the pilot's.
  bool handle(const SDL_Event& event, bool ui_wants_mouse, bool ui_wants_keyboard);
  /// Runs one tick with the pilot's command (mouse aim is relative to the ship on `camera`),
  /// plays its sounds and, when a player's game ends, submits the score. False when nothing
  /// ran (a replay that is over).
  bool tick(const lab::Camera& camera);
  /// The chase camera: the ship at the centre of `area`, the zoom kept.
  void follow(lab::Camera& camera, const lab::ScreenRect& area) const;
  /// The camera on entering the game: zoomed in to the ship's surroundings.
  void frame(lab::Camera& camera, const lab::ScreenRect& area) const;
  /// The mode switched away, or the window lost focus: no key stays held.
  void release_pilot() noexcept { pilot_.release_all(); }
  void toggle_mute() noexcept { sound_.set_muted(!sound_.muted()); }

  /// Draws the field's rocks (dead ones skipped) and the game's entities.
  DrawCounts draw_world(SDL_Renderer* renderer, SpriteRenderer& sprites, lab::VertexStream& stream,
                        const lab::Camera& camera, const lab::ScreenRect& area, bool draw_tree);
  /// The HUD (inside an ImGui frame).
  void draw_hud(const lab::ScreenRect& area, bool paused) const;

  arcade::PlaySession& session() noexcept { return session_; }
  const arcade::PlaySession& session() const noexcept { return session_; }
  /// The JSON "game" object's content.
  GameReport report() const;
  lab::PlaySummary stats() const;
  /// Writes the record (--record) of the game since its last restart. "" when it worked or
  /// nothing was asked, else the line to print (the old file is kept).
  std::string write_record();

 private:
  void on_events();

  arcade::PlaySession session_;
  std::string record_path_;  // empty: no record
  bool recorded_ = false;    // the record was written
  PilotInput pilot_;
  Sound sound_;
  HighScoreFile high_score_;
  std::string notice_;
  PlayRenderer renderer_;
  std::vector<scene::Sprite> rocks_;  // the rocks drawn this frame; reserved to the field's size
};

}  // namespace quadpool::game::demo
