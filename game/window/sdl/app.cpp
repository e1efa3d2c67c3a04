// The demo's frame loop: events to actions, ticks, drawing, the A/B run's steps, the summary.
//
// Sections: construction, modes, the frame loop, drawing, actions, A/B comparison, the ramp, the
// end and the summary.
#include "game/window/sdl/app.hpp"

#include <SDL.h>
#include <imgui.h>
#include <imgui_impl_sdl.h>
#include <imgui_impl_sdlrenderer.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <utility>

#include "engine/memory/allocator_kind.hpp"
#include "game/window/summary.hpp"
#include "game/util/log.hpp"
#include "game/play/play_report.hpp"
#include "game/sim/simulation.hpp"
#include "common/scene/scene.hpp"

namespace quadpool::game::window::sdl {

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// The vertex stream's first size, in quads per frame in flight.
constexpr std::size_t kInitialStreamQuads = 32768;

// The mode key (Tab) is the App's alone unless a text field of the panel is being edited: ImGui
// would also take a Tab that is held for a few frames, as a person holds it, to move the
// keyboard focus into the panel's first text field, and every hotkey after it would go there.
bool is_mode_key(const SDL_Event& event, Mode mode) noexcept {
  return (event.type == SDL_KEYDOWN || event.type == SDL_KEYUP) &&
         action_for_key(event.key.keysym.sym, false, mode) == Action::SwitchMode;
}

}  // namespace

// --- construction ------------------------------------------------------------------------------

App::App(SDL_Window* window, SDL_Renderer* renderer, const Atlas& atlas,
         const window::WindowOptions& options, const window::WindowRuntime& runtime,
         std::vector<ScriptedKey> script, std::optional<play::Replay> replay)
    : target_(window, renderer),
      options_(options),
      heap_counted_(runtime.heap_counter != nullptr),
      game_clock_(options.frame_ticks),
      input_(std::move(script)),
      lab_(options, runtime),
      play_(options, runtime, std::move(replay)),
      // A start: the stream grows to what is drawn, which the density map bounds by the
      // screen's area however many sprites there are.
      stream_(kInitialStreamQuads * 4 * window::VertexStream::kFramesInFlight),
      sprite_renderer_(renderer, atlas, runtime.tasks),
      overlay_(options.game.config.field.scene.seed),
      loop_{.mode = options.lab ? Mode::Lab : Mode::Play,
            .other_mode_draws_tree = !options.lab,
            .other_mode_shows_panel = !options.lab} {
  // The lab's subject is in its panel and its tree; the game keeps both out of the pilot's way.
  controls_.draw_tree = options.lab;
  controls_.show_ui = options.lab;
  update_layout();
}

Screen& App::shown() noexcept {
  if (loop_.mode == Mode::Play) return play_;
  return lab_;
}

const Screen& App::shown() const noexcept {
  if (loop_.mode == Mode::Play) return play_;
  return lab_;
}

// What a lab key or widget did: a new scene is framed again; a refusal is said.
void App::apply(const LabScreen::Change& change) {
  if (!change.notice.empty()) notify(change.notice);
  if (change.rebuilt) fit_camera();
}

void App::notify(std::string text) {
  util::logger().info("{}", text);
  notice_.show(std::move(text), std::chrono::seconds(4));
}

// Longer than a key's notice: it comes while the window is still opening.
void App::warn(std::string text) {
  util::logger().warn("{}", text);
  notice_.show(std::move(text), std::chrono::seconds(10));
}

// The lab fits the world; the game frames the ship.
void App::fit_camera() {
  shown().frame(camera_, target_.layout().world);
}

// --- modes -------------------------------------------------------------------------------------

// Each mode keeps its own world; the one not shown does not tick.
void App::switch_mode() {
  play_.release_pilot();
  loop_.mode = loop_.mode == Mode::Play ? Mode::Lab : Mode::Play;
  // The tree is the lab's subject and clutter in the game: each mode keeps its own T.
  std::swap(controls_.draw_tree, loop_.other_mode_draws_tree);
  std::swap(controls_.show_ui, loop_.other_mode_shows_panel);
  lab_.selection().clear();
  fit_camera();
  notify(loop_.mode == Mode::Play ? "Tab: the game (Tab again: the lab)"
                                  : "Tab: the lab (Tab again: the game)");
}

// The allocator switch moves both worlds, so that Tab never changes the allocator shown.
void App::switch_allocator() {
  const memory::AllocatorKind next = allocator() == memory::AllocatorKind::Pool
                                         ? memory::AllocatorKind::NewDelete
                                         : memory::AllocatorKind::Pool;
  lab_.set_allocator(next);
  play_.set_allocator(next);
}

// The lab's allocator is the one shown in either mode: A/B legs move it in the game too.
memory::AllocatorKind App::allocator() const noexcept {
  return lab_.allocator();
}

// A new window size or the panel shown or hidden: a new layout, and the camera fits the world's
// new area (the user's zoom and pan are given up, as F would).
void App::update_layout() {
  if (target_.relayout(controls_.show_ui)) fit_camera();
}

// --- the frame loop ----------------------------------------------------------------------------

int App::run() {
  bool screenshot_written = false;
  // Process CPU time beside wall time: on a shared machine the wall-clock frame rate moves with
  // the load, CPU time per frame much less.
  const std::clock_t cpu_start = std::clock();
  while (!loop_.quit) {
    const Clock::time_point frame_start = Clock::now();
    const std::optional<scene::SceneKind> scripted_scene =
        input_.inject_script(loop_.frame, target_.window());
    handle_events();
    if (scripted_scene) {
      OverlayRequests pick;
      pick.scene = scripted_scene;
      apply(pick);
    }
    if (options_.ab && loop_.frame == 0) start_ab();
    if (options_.ramp && loop_.frame == 0) toggle_ramp();
    update_layout();

    window::FrameSample sample;
    sample.tick.allocator = allocator();
    tick(sample);

    const Clock::time_point render_start = Clock::now();
    const OverlayRequests requests = render();
    // Esc or the window's close button (handled above) end the demo after this frame too, so
    // --screenshot saves it however the demo ends.
    if (options_.frames && loop_.frame + 1 >= *options_.frames) loop_.quit = true;
    const bool last_frame = loop_.quit;
    // SDL_RenderReadPixels reads the back buffer: before SDL_RenderPresent.
    if (!save_frame(last_frame)) return 1;
    screenshot_written = screenshot_written || (last_frame && !options_.screenshot.empty());
    target_.present();
    sample.render = static_cast<float>(ms_since(render_start));
    // The frame lasts until the display's next refresh, as a present that waits for vsync does.
    if (options_.vsync) target_.wait_for_refresh(frame_start);
    sample.total = static_cast<float>(ms_since(frame_start));
    stats_.record(sample);
    runs_.ab.record(sample, ab_parts());
    runs_.ramp.record(sample, ramp_parts());
    // After the sample is recorded: a request that replaces the scene acts from the next frame.
    apply(requests);
    ++loop_.frame;
  }
  const double cpu_ms_per_frame = stats_.frames() == 0
                                      ? 0.0
                                      : 1000.0 * static_cast<double>(std::clock() - cpu_start) /
                                            CLOCKS_PER_SEC / static_cast<double>(stats_.frames());
  const int exit_code = play_.finish();
  if (options_.frames) print_summary(screenshot_written, cpu_ms_per_frame);
  util::logger().info("{} frames, {:.1f} FPS (median frame {:.2f} ms)", stats_.frames(),
                      stats_.frame_ms().median > 0 ? 1000.0 / stats_.frame_ms().median : 0.0,
                      stats_.frame_ms().median);
  return exit_code;
}

// This frame's ticks, paced once for both modes: the lab's at its speed, or one of the game's
// (none while paused, one for a step), flown by whoever flies it.
void App::tick(window::FrameSample& sample) {
  const bool spawning = input_.spawning() && !runs_.running();
  const window::Pace pace = window::take_pace(controls_);
  shown().tick({.pace = pace,
                .speed = controls_.speed,
                .game_ticks = game_ticks(pace),
                .camera = camera_,
                .spawn_at = spawning ? std::optional(input_.mouse()) : std::nullopt,
                .ab_running = runs_.running()},
               sample);
}

// The game's ticks this frame at 60 a second of wall time. An A/B run measures one tick a frame,
// as fast as they go; the clock stops while the game is paused, stepped or not shown, so that
// it never catches up on that time.
int App::game_ticks(window::Pace pace) {
  if (loop_.mode != Mode::Play || pace != window::Pace::Run || runs_.running()) {
    game_clock_.stop();
    return 1;
  }
  const int ticks = game_clock_.ticks_at(Clock::now());
  if (game_clock_.newly_behind()) {
    notify("the game runs slower than real time: this machine cannot keep up 60 ticks a second");
  }
  return ticks;
}

void App::handle_events() {
  SDL_Event event;
  while (SDL_PollEvent(&event)) {
    if (!is_mode_key(event, loop_.mode) || ImGui::GetIO().WantTextInput) {
      ImGui_ImplSDL2_ProcessEvent(&event);
    }
    const ImGuiIO& io = ImGui::GetIO();
    // In the game the pilot's keys and buttons are the pilot's alone; in an A/B run the bot
    // flies, so they do nothing.
    if (!runs_.running() && shown().handle(event, io.WantCaptureMouse, io.WantCaptureKeyboard)) {
      continue;
    }
    if (event.type == SDL_WINDOWEVENT && event.window.event == SDL_WINDOWEVENT_FOCUS_LOST) {
      play_.release_pilot();
    }
    apply(input_.handle(event, io.WantCaptureMouse, io.WantCaptureKeyboard, camera_,
                        lab_.selection(), loop_.mode));
  }
}

// Draws the world and the overlay into the back buffer; returns what the overlay's widgets
// asked for.
OverlayRequests App::render() {
  stream_.begin_frame(loop_.frame);
  const window::ScreenRect& area = target_.layout().world;
  target_.begin_world();
  draw_world();
  target_.end_world();

  ImGui_ImplSDLRenderer_NewFrame();
  ImGui_ImplSDL2_NewFrame();
  ImGui::NewFrame();
  shown().draw_hud(area, controls_.paused);
  const OverlayRequests requests = draw_overlay();
  notice_.draw(area);
  ImGui::Render();
  ImGui_ImplSDLRenderer_RenderDrawData(ImGui::GetDrawData());
  stream_.end_frame();
  return requests;
}

// The game's chase camera follows the ship before it is drawn.
void App::draw_world() {
  const window::ScreenRect& area = target_.layout().world;
  shown().follow(camera_, area);
  shown().draw_world(target_.renderer(), sprite_renderer_, stream_, camera_, area, controls_);
}

OverlayRequests App::draw_overlay() {
  const OverlayView view{.stats = stats_,
                         .sim = shown().sim(),
                         .stream = stream_,
                         .ab = runs_.ab.experiment(),
                         .ramp = runs_.ramp.experiment(),
                         .ramp_top = static_cast<std::size_t>(options_.ramp_to),
                         .selection = lab_.selection(),
                         .controls = controls_,
                         .last_draw = sprite_renderer_.last_counts(),
                         .frame = loop_.frame,
                         .heap_counted = heap_counted_,
                         .renderer_name = target_.renderer_name(),
                         .layout = target_.layout(),
                         .mode = loop_.mode,
                         .entities = shown().entities()};
  if (!controls_.show_ui) {
    overlay_.draw_folded(view);
    return {};
  }
  const OverlayRequests requests = overlay_.draw(view);
  target_.watch_panel(overlay_.drawn_panel());
  return requests;
}

// Saves the back buffer for F12 (any frame) and for --screenshot (the last frame). Returns
// false when --screenshot cannot be written, which ends the demo with exit code 1; an F12
// failure is only logged.
bool App::save_frame(bool last_frame) {
  if (std::exchange(controls_.screenshot, false)) target_.save_f12(loop_.frame);
  return !last_frame || options_.screenshot.empty() || target_.save(options_.screenshot);
}

// --- actions -----------------------------------------------------------------------------------

// While an A/B run or the ramp times the ticks, Esc stops it rather than the demo (so does G the
// ramp), and what would change the measurement is ignored. True when `action` was taken here.
bool App::apply_while_measuring(Action action) {
  if (!runs_.running()) return false;
  if (action == Action::Quit || (action == Action::ToggleRamp && runs_.ramp.running())) {
    runs_.ab.cancel(ab_parts());
    runs_.ramp.stop(ramp_parts());
    return true;
  }
  if (!locked_during_ab(action)) return false;
  util::logger().info("{} in progress: key ignored (Esc stops it)",
                      runs_.ab.running() ? "A/B run" : "ramp");
  return true;
}

void App::apply(Action action) {
  if (apply_while_measuring(action)) return;
  switch (action) {
    case Action::None:
      break;
    case Action::TogglePause:
      controls_.paused = !controls_.paused;
      if (controls_.paused) play_.release_pilot();  // no key stays held across the pause
      break;
    case Action::Step:
      controls_.paused = true;
      controls_.step_once = true;
      break;
    case Action::SwitchAllocator:
      switch_allocator();
      break;
    case Action::SwitchMode:
      switch_mode();
      break;
    case Action::ToggleMute:
      play_.toggle_mute();
      break;
    case Action::ToggleTree:
      controls_.draw_tree = !controls_.draw_tree;
      break;
    case Action::ToggleContacts:
      controls_.highlight_contacts = !controls_.highlight_contacts;
      break;
    case Action::Reset:
    case Action::DoubleSprites:
    case Action::HalveSprites:
    case Action::ClearSelection:
    case Action::NextQueryMode:
      apply(lab_.apply(action, overlay_.seed_field()));
      break;
    case Action::StartAb:
      if (loop_.mode == Mode::Play && play_.player_in_game() && !runs_.ab.running() &&
          !runs_.ab.confirmed(Clock::now())) {
        notify("B again within 3 s: an A/B run ends this game (the bot flies every leg)");
        break;
      }
      start_ab();
      break;
    case Action::ToggleRamp:
      toggle_ramp();
      break;
    case Action::FitCamera:
      fit_camera();
      break;
    case Action::ToggleUi:
      controls_.show_ui = !controls_.show_ui;
      break;
    case Action::ToggleHelp:
      controls_.show_help = !controls_.show_help;
      break;
    case Action::Screenshot:
      controls_.screenshot = true;
      break;
    case Action::Quit:
    case Action::CloseWindow:
      loop_.quit = true;
      break;
  }
}

void App::apply(const OverlayRequests& requests) {
  if (requests.allocator && *requests.allocator != allocator()) switch_allocator();
  apply(lab_.apply(requests, runs_.running()));
  if (requests.start_ab) start_ab();
  if (requests.cancel_ab) runs_.ab.cancel(ab_parts());
  if (requests.start_ramp && !runs_.ramp.running()) toggle_ramp();
  if (requests.stop_ramp) runs_.ramp.stop(ramp_parts());
}

// --- A/B comparison ----------------------------------------------------------------------------

// B, the panel's button or --ab. In the game the bot flies every leg: no key stays held.
void App::start_ab() {
  if (runs_.running()) return;
  play_.release_pilot();
  runs_.ab.start(ab_parts());
}

AbRun::Parts App::ab_parts() noexcept {
  return {.shown = shown(),
          .lab = lab_,
          .controls = controls_,
          .camera = camera_,
          .area = target_.layout().world};
}

// --- the ramp ----------------------------------------------------------------------------------

// G, the panel's button or --ramp (which opens the lab): starts the ramp, or stops a running
// one. It grows the lab's field, so it runs in the lab only, and never beside an A/B run.
void App::toggle_ramp() {
  if (runs_.ramp.running()) {
    runs_.ramp.stop(ramp_parts());
    return;
  }
  if (loop_.mode != Mode::Lab || runs_.ab.running()) return;
  runs_.ramp.start(ramp_parts(), static_cast<std::size_t>(options_.ramp_to));
}

RampRun::Parts App::ramp_parts() noexcept {
  return {.lab = lab_, .controls = controls_, .camera = camera_, .area = target_.layout().world};
}

// --- the end and the summary -------------------------------------------------------------------

void App::print_summary(bool screenshot_written, double cpu_ms_per_frame) const {
  const bool playing = loop_.mode == Mode::Play;
  const play::GameReport game = play_.report();
  const window::PlaySummary play_summary = play_.stats();
  const window::SummaryInputs in{
      .stats = stats_,
      .sim = shown().sim(),
      // The shown world's seed: in play a replay's, not the command line's.
      .seed = playing ? play_.seed() : lab_.seed(),
      .allocator_switches = lab_.allocator_switches(),
      .stream = stream_.stats(),
      .draw_calls = sprite_renderer_.last_counts().draw_calls,
      .density_map = sprite_renderer_.last_counts().density_map,
      .sprites_in_view = sprite_renderer_.last_counts().sprites,
      .sprites_one_by_one = sprite_renderer_.last_counts().one_by_one,
      .renderer = target_.renderer_name(),
      .layout = target_.layout(),
      .layout_refits = target_.refits(),
      .layout_frames_overlapping = target_.frames_overlapping(),
      .vsync = options_.vsync,
      .draw_tree = controls_.draw_tree,
      .game_ticks = game_clock_.ticks(),
      .game_seconds = game_clock_.seconds(),
      .heap_counter = heap_counted_,
      .cpu_ms_per_frame = cpu_ms_per_frame,
      .screenshot = screenshot_written ? &options_.screenshot : nullptr,
      .ab = runs_.ab.experiment(),
      .ramp = runs_.ramp.experiment(),
      .f12_screenshot = target_.last_f12(),
      .selection = lab_.selection(),
      .panel_fit = overlay_.fit(),
      .sprites_slider = overlay_.sprites_slider(),
      .notice = notice_.text(),
      .world_drawn = camera_.world_on_screen(shown().sim().world_side()),
      .mode = playing ? "play" : "lab",
      .game = playing ? &game : nullptr,
      .play = playing ? &play_summary : nullptr,
  };
  std::puts(window::summary_json(in).c_str());
  std::fflush(stdout);
}

}  // namespace quadpool::game::window::sdl
