#pragma once
/// The game in the window: the play session (game/play/) with what only a window has around
/// it. PilotInput turns keys, mouse and controller into each tick's command, Sound plays the
/// tick's events, the high score file takes a finished game's score, and the world is drawn:
/// the rocks still in the field by the SpriteRenderer (as in the lab), the ship, shots, debris,
/// sparks and explosions by the PlayRenderer, and the score line and the centred screens by the
/// HUD. The App owns one beside the LabScreen and switches to it with the mode key.

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "common/scene/scene.hpp"
#include "game/play/entity_stores.hpp"
#include "game/play/high_score.hpp"
#include "game/play/play_report.hpp"
#include "game/play/play_session.hpp"
#include "game/play/replay.hpp"
#include "game/sim/tick_recorder.hpp"
#include "game/window/camera.hpp"
#include "game/window/score_popups.hpp"
#include "game/window/sdl/pilot_input.hpp"
#include "game/window/sdl/play_hud.hpp"
#include "game/window/sdl/play_renderer.hpp"
#include "game/window/sdl/screen.hpp"
#include "game/window/sdl/sound.hpp"
#include "game/window/sdl/sprite_renderer.hpp"
#include "game/window/shake.hpp"
#include "game/window/summary.hpp"
#include "game/window/vertex_stream.hpp"
#include "game/window/window_options.hpp"

union SDL_Event;
struct SDL_Renderer;

namespace quadpool::game::window::sdl {

class PlayScreen final : public Screen {
 public:
  /// The game of `options` (sprites, seed, scene, allocator, storm, bot, record), or the game
  /// `replay` holds. PlayWorld's exceptions pass through.
  PlayScreen(const window::WindowOptions& options, const window::WindowRuntime& runtime,
             std::optional<play::Replay> replay);

  /// Feeds one event to the pilot; true when it was the pilot's.
  bool handle(const SDL_Event& event, bool ui_wants_mouse, bool ui_wants_keyboard) override;
  /// Unless in.pace is Paused, runs one tick with the pilot's command (mouse aim is relative to
  /// the ship on in.camera), plays its sounds and, when a player's game ends, submits the score.
  /// Nothing runs when a replay is over.
  void tick(const TickInput& in, window::FrameSample& sample) override;
  /// The camera on entering the game: zoomed in to the ship's surroundings.
  void frame(window::Camera& camera, const window::ScreenRect& area) const override;
  /// The chase camera: the ship at the centre of `area`, the zoom kept.
  void follow(window::Camera& camera, const window::ScreenRect& area) const override;
  /// Draws the field's rocks (dead ones skipped), the tree (controls.draw_tree) and the game's
  /// entities.
  DrawCounts draw_world(SDL_Renderer* renderer, SpriteRenderer& sprites,
                        window::VertexStream& stream, const window::Camera& camera,
                        const window::ScreenRect& area, const window::Controls& controls) override;
  /// The HUD.
  void draw_hud(const window::ScreenRect& area, bool paused) const override;

  /// The game's field.
  const sim::Simulation& sim() const noexcept override { return session_.world().field(); }
  std::span<const play::EntityReport> entities() override;
  void set_allocator(memory::AllocatorKind kind) override { session_.set_allocator(kind); }

  /// The game's field config: every leg restarts the game from it with the bot flying.
  sim::SimulationConfig ab_subject() override { return session_.world().config().field; }
  /// A new game on `kind` for the bot; the chase camera keeps its zoom.
  void start_ab_leg(memory::AllocatorKind kind, window::Camera& camera,
                    const window::ScreenRect& area) override;
  /// A new game for whoever flew before.
  void end_ab(memory::AllocatorKind saved) override { session_.end_ab(saved); }

  /// The mode switched away, or the window lost focus: no key stays held.
  void release_pilot() noexcept { pilot_.release_all(); }
  /// The player flies a game that is not over: something worth asking before it is thrown away.
  bool player_in_game() const noexcept {
    return session_.pilot() == play::Pilot::Player && !session_.world().status().game_over;
  }
  void toggle_mute() noexcept { sound_.set_muted(!sound_.muted()); }

  /// The JSON "game" object's content.
  play::GameReport report() const;
  window::PlaySummary stats() const;
  /// The seed of the game played: the replay's when there is one, else the command line's.
  std::uint64_t seed() const noexcept { return session_.config().field.scene.seed; }
  /// At exit: writes the record (--record) of the game since its last restart and judges a
  /// replay. Returns the exit code: 1 (said on stderr) when the record cannot be written (the
  /// old file is kept) or a replay played to its end did not end on its hash.
  int finish();

 private:
  void on_events();
  std::string write_record();

  play::PlaySession session_;
  std::string record_path_;  // empty: no record
  bool recorded_ = false;    // the record was written
  PilotInput pilot_;
  Sound sound_;
  play::HighScoreFile high_score_;
  std::string notice_;
  PlayRenderer renderer_;
  window::Shake shake_;               // the view's shake and the hit's red veil
  window::ScorePopups popups_;
  window::Camera drawn_camera_;  // the (shaken) camera of the last draw_world, for the pop-ups
  mutable std::vector<ScreenPopup> screen_popups_;  // draw_hud's, reserved to the slots
  std::vector<scene::Sprite> rocks_;  // the rocks drawn this frame; reserved to the field's size
  std::array<play::EntityReport, play::kEntityTypes> entities_{};  // the panel's, this frame
};

}  // namespace quadpool::game::window::sdl
