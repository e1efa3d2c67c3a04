// The game in the window: the session, its pilot, its sounds, its high score, its drawing.
#include "game/window/sdl/play_screen.hpp"

#include <SDL.h>

#include <algorithm>
#include <cstdio>
#include <utility>

#include <fmt/format.h>

#include "game/audio/synth.hpp"
#include "game/window/sdl/play_hud.hpp"
#include "game/util/log.hpp"
#include "game/util/shown_value.hpp"
#include "game/play/ship.hpp"
#include "game/play/vec2.hpp"

namespace quadpool::game::window::sdl {

namespace {

// How much of the world the camera shows across the window's shorter side when the game
// starts: enough to see a rock coming, close enough to see the ship.
constexpr float kPlayViewWorldUnits = 320.0f;

// How the dust is dimmed under the game's own things.
constexpr Rgba kDustTint{95, 95, 115, 255};

}  // namespace

PlayScreen::PlayScreen(const window::WindowOptions& options, const window::WindowRuntime& runtime,
                       std::optional<play::Replay> replay)
    : session_(play::session_start(options.game, std::move(replay), runtime.tasks,
                                   runtime.heap_counter)),
      record_path_(options.game.record),
      high_score_(play::default_high_score_path()),
      shake_(options.shake) {
  rocks_.reserve(session_.world().field().sprites().size());
  screen_popups_.reserve(window::ScorePopups::kSlots);
}

bool PlayScreen::handle(const SDL_Event& event, bool ui_wants_mouse, bool ui_wants_keyboard) {
  return pilot_.handle(event, ui_wants_mouse, ui_wants_keyboard);
}

void PlayScreen::tick(const TickInput& in, window::FrameSample& sample) {
  if (in.pace == window::Pace::Paused) return;
  const play::Ship& ship = session_.world().ship();
  const window::ScreenPoint at = in.camera.to_screen(ship.position.x, ship.position.y);
  // The frame's command flies each of its ticks: keys are read once a frame.
  const play::InputCommand player = pilot_.command(at.x, at.y, ship.heading);
  // A replay played to its end waits on its verdict screen; the restart key watches it again.
  if (session_.replay_finished() && player.restart()) session_.restart();
  const int ticks = in.pace == window::Pace::Step ? 1 : in.game_ticks;
  for (int i = 0; i < ticks && session_.step(player); ++i) {
    on_events();
    if (sample.ticked) {
      sample.tick.add(session_.last_sample());
    } else {
      sample.tick = session_.last_sample();
      sample.ticked = true;
    }
  }
}

void PlayScreen::on_events() {
  const play::PlayEvents& events = session_.events();
  // A hit knocks the view and flashes red, a lost life throws it; the explosions the guns set
  // off nudge it.
  shake_.tick();
  popups_.after_tick(session_.world().last_tick());
  if (events.explosion) shake_.knock(0.15f);
  if (events.hit) {
    shake_.knock(0.35f);
    shake_.flash();
  }
  if (events.life_lost) shake_.knock(0.8f);
  if (events.shot) sound_.play(audio::SoundEffect::Shot);
  if (events.hit) sound_.play(audio::SoundEffect::Hit);
  if (events.explosion) sound_.play(audio::SoundEffect::Explosion);
  if (events.life_lost) sound_.play(audio::SoundEffect::LifeLost);
  // The player's games only: the bot's and a replay's scores are not the user's to keep. A
  // game's score is final when it ends (the rules score nothing after the last life).
  if (session_.pilot() != play::Pilot::Player || !events.game_over) return;
  const std::uint64_t score = session_.world().status().score;
  // A save that fails is logged by the file, and stays on screen until the next one.
  notice_ = high_score_.submit(score);
  util::logger().info("game over: score {}, high score {}", score, high_score_.best());
}

void PlayScreen::follow(window::Camera& camera, const window::ScreenRect& area) const {
  const play::Vec2 target = session_.camera_target();
  camera.center_within(target.x, target.y, session_.world().field().world_side(), area);
}

void PlayScreen::frame(window::Camera& camera, const window::ScreenRect& area) const {
  const float side = session_.world().field().world_side();
  camera.fit(side, area);
  const float wanted = std::min(area.w, area.h) / kPlayViewWorldUnits;
  if (wanted > camera.scale()) {
    camera.zoom_at(area.x + 0.5f * area.w, area.y + 0.5f * area.h, wanted / camera.scale());
  }
  follow(camera, area);
}

DrawCounts PlayScreen::draw_world(SDL_Renderer* renderer, SpriteRenderer& sprites,
                                  window::VertexStream& stream, const window::Camera& camera,
                                  const window::ScreenRect& area,
                                  const window::Controls& controls) {
  const play::PlayWorld& world = session_.world();
  const sim::Simulation& field = world.field();
  const auto all = field.sprites();
  rocks_.clear();
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (!world.rock_is_dead(i)) rocks_.push_back(all[i]);
  }
  WorldView view;
  view.sprites = rocks_;
  view.world_side = field.world_side();
  if (controls.draw_tree && world.ticks() > 0) view.tree = &field.tree();
  const scene::SceneConfig& scene = world.config().field.scene;
  view.typical_radius = 0.5f * (scene.min_radius + scene.max_radius);
  // The dust is scenery: dimmed, so that the threats and the ship stand out.
  view.tint = kDustTint;
  // The world through the shaken view; the pilot aims through the camera itself.
  window::Camera shaken = camera;
  const window::ScreenPoint knock = shake_.offset();
  shaken.pan(knock.x, knock.y);
  const DrawCounts counts = sprites.draw(stream, shaken, area, view);
  drawn_camera_ = shaken;
  const bool thrusting = session_.last_command().thrust() && !world.status().game_over;
  renderer_.draw(renderer, shaken, area, world, thrusting);
  return counts;
}

void PlayScreen::draw_hud(const window::ScreenRect& area, bool paused) const {
  screen_popups_.clear();
  popups_.for_each([&](const window::ScorePopups::Popup& popup) {
    screen_popups_.push_back(
        {drawn_camera_.to_screen(popup.at.x, popup.at.y), popup.points, popup.strength()});
  });
  const PlayHudView view{
      .world = &session_.world(),
      .high_score = high_score_.best(),
      .notice = notice_,
      .paused = paused,
      .muted = sound_.muted(),
      .bot_flying = session_.pilot() == play::Pilot::Bot ||
                    session_.pilot() == play::Pilot::Random ||
                    session_.pilot() == play::Pilot::Idle,
      .replaying = session_.pilot() == play::Pilot::Replay,
      .controller_name = pilot_.controller_name(),
      .replay_matches = session_.replay_finished()
                            ? std::optional(session_.replay_mismatch().empty())
                            : std::nullopt,
      .pilot_tag = session_.pilot() == play::Pilot::Bot
                       ? "bot flying"
                       : std::string(play::pilot_name(session_.pilot())) + " pilot",
      .flash = shake_.flash_strength(),
      .popups = screen_popups_};
  draw_play_hud(view, area);
}

std::span<const play::EntityReport> PlayScreen::entities() {
  entities_ = session_.world().entity_reports();
  return entities_;
}

void PlayScreen::start_ab_leg(memory::AllocatorKind kind, window::Camera&,
                              const window::ScreenRect&) {
  session_.start_ab_leg(kind);
}

play::GameReport PlayScreen::report() const {
  play::GameReport report = session_.report();
  if (recorded_) report.recorded_to = record_path_;
  return report;
}

window::PlaySummary PlayScreen::stats() const {
  return {.pilot = play::pilot_name(session_.pilot()),
          .state_hash = session_.world().state_hash(),
          .high_score = high_score_.best(),
          .notice = notice_,
          .sound_device = sound_.has_device(),
          .muted = sound_.muted(),
          .sounds_played = sound_.played()};
}

std::string PlayScreen::write_record() {
  if (record_path_.empty()) return {};
  std::string problem = session_.write_recording(record_path_);
  if (!problem.empty()) return problem;
  recorded_ = true;
  util::logger().info("wrote the game's replay to {} ({} ticks)", util::shown_path(record_path_),
                      session_.world().ticks());
  return {};
}

int PlayScreen::finish() {
  int exit_code = 0;
  if (const std::string problem = write_record(); !problem.empty()) {
    std::fprintf(stderr, "%s\n", problem.c_str());
    exit_code = 1;
  }
  if (const std::string mismatch = session_.replay_mismatch(); !mismatch.empty()) {
    std::fprintf(stderr, "%s\n", mismatch.c_str());
    exit_code = 1;
  }
  return exit_code;
}

}  // namespace quadpool::game::window::sdl
