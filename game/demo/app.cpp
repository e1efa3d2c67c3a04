// The demo's frame loop: events to actions, ticks, drawing, the A/B run's steps, the summary.
//
// Sections: construction and reset, the frame loop, actions, A/B comparison, the summary.
#include "game/demo/app.hpp"

#include <SDL.h>
#include <imgui.h>
#include <imgui_impl_sdl.h>
#include <imgui_impl_sdlrenderer.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <span>

#include <fmt/format.h>

#include "engine/memory/allocator_kind.hpp"
#include "game/lab/summary.hpp"
#include "game/log.hpp"
#include "game/simulation.hpp"
#include "scene/scene.hpp"

namespace quadpool::game::demo {

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Sprites added per frame while the left button is held.
constexpr std::size_t kSpawnPerFrame = 8;

// The vertex stream's first size, in quads per frame in flight.
constexpr std::size_t kInitialStreamQuads = 32768;

std::string renderer_name(SDL_Renderer* renderer) {
  SDL_RendererInfo info{};
  if (SDL_GetRendererInfo(renderer, &info) == 0 && info.name != nullptr) return info.name;
  return {};
}

}  // namespace

// --- construction and reset --------------------------------------------------------------------

App::App(SDL_Window* window, SDL_Renderer* renderer, const Atlas& atlas, const DemoOptions& options,
         std::vector<ScriptedKey> script)
    : target_{window, renderer, renderer_name(renderer), {}},
      options_(options),
      input_(std::move(script)),
      runner_(
          scene::SceneConfig{
              .seed = options.seed, .sprites = options.sprites, .kind = options.scene},
          options.allocator, options.heap_counter),
      // A start: the stream grows to what is drawn, which the density map bounds by the
      // screen's area however many sprites there are.
      stream_(kInitialStreamQuads * 4 * lab::VertexStream::kFramesInFlight),
      sprite_renderer_(renderer, atlas),
      overlay_(options.seed) {
  update_layout();
}

void App::reset(std::size_t sprites, std::uint64_t seed) {
  runner_.reset(sprites, seed);
  after_reset();
}

void App::reset(scene::SceneKind kind) {
  runner_.reset(kind);
  after_reset();
}

void App::after_reset() {
  selection_.clear();
  fit_camera();
}

// + and -: a new scene of `wanted` sprites (clamped to the limits). At a limit nothing changes
// and the panel says why, rather than restarting the scene at the size it already has.
void App::resize_scene(std::size_t wanted, const char* key) {
  const std::size_t now = runner_.sim().sprites().size();
  const std::size_t next = std::clamp(wanted, kMinSprites, kMaxSprites);
  if (next == now) {
    notify(now >= kMaxSprites
               ? fmt::format("{}: already at the cap of {} sprites", key, kMaxSprites)
               : fmt::format("{}: already at the minimum of {} sprite", key, kMinSprites));
    return;
  }
  reset(next, runner_.scene().seed);
}

void App::notify(std::string text) {
  logger().info("{}", text);
  notice_.text = std::move(text);
  notice_.until = Clock::now() + std::chrono::seconds(4);
}

void App::fit_camera() {
  camera_.fit(runner_.sim().world_side(), layout_.layout.world);
}

// A new window size or the panel shown or hidden: a new layout, and the camera fits the world's
// new area (the user's zoom and pan are given up, as F would).
void App::update_layout() {
  int width = 0, height = 0;
  SDL_GetRendererOutputSize(target_.renderer, &width, &height);
  const lab::Layout next = lab::layout_for(width, height, controls_.show_ui);
  const lab::Layout& now = layout_.layout;
  if (next.window.w == now.window.w && next.window.h == now.window.h &&
      next.panel.w == now.panel.w) {
    return;
  }
  layout_.layout = next;
  fit_camera();
  ++layout_.refits;
}

// --- the frame loop ----------------------------------------------------------------------------

int App::run() {
  bool screenshot_written = false;
  // Process CPU time beside wall time: on a shared machine the wall-clock frame rate moves with
  // the load, CPU time per frame much less.
  const std::clock_t cpu_start = std::clock();
  while (!quit_) {
    const Clock::time_point frame_start = Clock::now();
    const std::optional<scene::SceneKind> scripted_scene = input_.inject_script(frame_, target_.window);
    handle_events();
    if (scripted_scene) {
      OverlayRequests pick;
      pick.scene = scripted_scene;
      apply(pick);
    }
    if (options_.ab && frame_ == 0) start_ab();
    update_layout();

    lab::FrameSample sample;
    sample.tick.allocator = runner_.sim().allocator();
    if (input_.spawning() && !ab_.running()) {
      const lab::ScreenPoint at = camera_.to_world(input_.mouse().x, input_.mouse().y);
      runner_.spawn(at.x, at.y, kSpawnPerFrame, 20.0f / camera_.scale());
    }
    runner_.tick_frame(controls_, sample);
    // The query tool's timed scans would land in an A/B run's frame times: off while it runs.
    if (ab_.running()) selection_.clear();
    selection_.update(runner_.sim());

    const Clock::time_point render_start = Clock::now();
    const OverlayRequests requests = render();
    // Esc or the window's close button (handled above) end the demo after this frame too, so
    // --screenshot saves it however the demo ends.
    if (options_.frames && frame_ + 1 >= *options_.frames) quit_ = true;
    const bool last_frame = quit_;
    // SDL_RenderReadPixels reads the back buffer: before SDL_RenderPresent.
    if (!save_frame(last_frame)) return 1;
    screenshot_written = screenshot_written || (last_frame && !options_.screenshot.empty());
    SDL_RenderPresent(target_.renderer);
    sample.render = static_cast<float>(ms_since(render_start));
    sample.total = static_cast<float>(ms_since(frame_start));
    stats_.record(sample);
    advance_ab(sample);
    // After the sample is recorded: a request that replaces the scene acts from the next frame.
    apply(requests);
    ++frame_;
  }
  const double cpu_ms_per_frame = stats_.frames() == 0
                                      ? 0.0
                                      : 1000.0 * static_cast<double>(std::clock() - cpu_start) /
                                            CLOCKS_PER_SEC / static_cast<double>(stats_.frames());
  if (options_.frames) print_summary(screenshot_written, cpu_ms_per_frame);
  logger().info("{} frames, {:.1f} FPS (median frame {:.2f} ms)", stats_.frames(),
                stats_.frame_ms().median > 0 ? 1000.0 / stats_.frame_ms().median : 0.0,
                stats_.frame_ms().median);
  return 0;
}

void App::handle_events() {
  SDL_Event event;
  while (SDL_PollEvent(&event)) {
    ImGui_ImplSDL2_ProcessEvent(&event);
    const ImGuiIO& io = ImGui::GetIO();
    apply(input_.handle(event, io.WantCaptureMouse, io.WantCaptureKeyboard, camera_, selection_));
  }
}

// Draws the world and the overlay into the back buffer; returns what the overlay's widgets
// asked for.
OverlayRequests App::render() {
  SDL_SetRenderDrawColor(target_.renderer, 18, 20, 28, 255);
  SDL_RenderClear(target_.renderer);
  stream_.begin_frame(frame_);
  const Simulation& sim = runner_.sim();
  WorldView world;
  world.sprites = sim.sprites();
  world.world_side = sim.world_side();
  if (controls_.highlight_contacts) world.in_contact = runner_.in_contact();
  if (controls_.draw_tree && sim.ticks() > 0) world.tree = &sim.tree();
  world.selected = selection_.ids();
  world.selection = selection_.region();
  world.picked_leaf = selection_.picked_leaf();
  world.typical_radius = 0.5f * (runner_.scene().min_radius + runner_.scene().max_radius);
  const lab::ScreenRect& area = layout_.layout.world;
  // The world stays in its own rectangle: zoomed in, it must not spill under the panel.
  const SDL_Rect clip{static_cast<int>(area.x), static_cast<int>(area.y), static_cast<int>(area.w),
                      static_cast<int>(area.h)};
  SDL_RenderSetClipRect(target_.renderer, &clip);
  sprite_renderer_.draw(stream_, camera_, area, world);
  SDL_RenderSetClipRect(target_.renderer, nullptr);

  ImGui_ImplSDLRenderer_NewFrame();
  ImGui_ImplSDL2_NewFrame();
  ImGui::NewFrame();
  OverlayRequests requests;
  if (controls_.show_ui) {
    requests = overlay_.draw({.stats = stats_,
                              .sim = sim,
                              .stream = stream_,
                              .ab = ab_,
                              .selection = selection_,
                              .controls = controls_,
                              .last_draw = sprite_renderer_.last_counts(),
                              .frame = frame_,
                              .heap_counted = options_.heap_counter != nullptr,
                              .renderer_name = target_.renderer_name,
                              .layout = layout_.layout});
    if (overlay_.drawn_panel().overlaps(layout_.layout.world)) ++layout_.frames_overlapping;
  }
  if (Clock::now() < notice_.until) draw_notice(notice_.text, layout_.layout.world);
  ImGui::Render();
  ImGui_ImplSDLRenderer_RenderDrawData(ImGui::GetDrawData());
  stream_.end_frame();
  return requests;
}

// Saves the back buffer for F12 (any frame) and for --screenshot (the last frame). Returns
// false when --screenshot cannot be written, which ends the demo with exit code 1; an F12
// failure is only logged.
bool App::save_frame(bool last_frame) {
  if (controls_.screenshot) {
    controls_.screenshot = false;
    const std::string path = fmt::format("quadpool-{:06}.png", frame_);
    const std::string error = save_screenshot(target_.renderer, path);
    if (error.empty()) {
      target_.last_f12_screenshot = path;
      logger().info("F12: wrote {}", path);
    } else {
      logger().error("F12: {}: {}", path, error);
    }
  }
  if (!last_frame || options_.screenshot.empty()) return true;
  const std::string error = save_screenshot(target_.renderer, options_.screenshot);
  if (!error.empty()) {
    std::fprintf(stderr, "quadpool: --screenshot %s: %s\n", options_.screenshot.c_str(),
                 error.c_str());
    return false;
  }
  logger().info("wrote {}", options_.screenshot);
  return true;
}

// --- actions -----------------------------------------------------------------------------------

namespace {

// Actions that would change what an A/B run measures: they wait until it is done.
bool changes_the_measurement(Action action) noexcept {
  switch (action) {
    case Action::TogglePause:
    case Action::Step:
    case Action::SwitchAllocator:
    case Action::ToggleTree:
    case Action::ToggleContacts:
    case Action::Reset:
    case Action::DoubleSprites:
    case Action::HalveSprites:
    case Action::StartAb:
    case Action::ToggleUi:
      return true;
    default:
      return false;
  }
}

}  // namespace

void App::apply(Action action) {
  if (ab_.running() && action == Action::Quit) {
    cancel_ab();  // Esc during an A/B run stops the run, not the demo
    return;
  }
  if (ab_.running() && changes_the_measurement(action)) {
    logger().info("A/B run in progress: key ignored (Esc cancels the run)");
    return;
  }
  const scene::SceneConfig& scene = runner_.scene();
  switch (action) {
    case Action::None:
      break;
    case Action::TogglePause:
      controls_.paused = !controls_.paused;
      break;
    case Action::Step:
      controls_.paused = true;
      controls_.step_once = true;
      break;
    case Action::SwitchAllocator:
      runner_.set_allocator(runner_.sim().allocator() == memory::AllocatorKind::Pool
                                ? memory::AllocatorKind::NewDelete
                                : memory::AllocatorKind::Pool);
      break;
    case Action::ToggleTree:
      controls_.draw_tree = !controls_.draw_tree;
      break;
    case Action::ToggleContacts:
      controls_.highlight_contacts = !controls_.highlight_contacts;
      break;
    // The seed in the overlay's field, as its button does.
    case Action::Reset:
      reset(scene.sprites, overlay_.seed_field());
      break;
    // From the live count, spawned sprites included: what the panel's slider shows.
    case Action::DoubleSprites:
      resize_scene(runner_.sim().sprites().size() * 2, "+");
      break;
    case Action::HalveSprites:
      resize_scene(runner_.sim().sprites().size() / 2, "-");
      break;
    case Action::StartAb:
      start_ab();
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
    case Action::ClearSelection:
      selection_.clear();
      break;
    case Action::Screenshot:
      controls_.screenshot = true;
      break;
    case Action::Quit:
    case Action::CloseWindow:
      quit_ = true;
      break;
  }
}

void App::apply(const OverlayRequests& requests) {
  if (requests.allocator) runner_.set_allocator(*requests.allocator);
  if (requests.sprites) reset(*requests.sprites, runner_.scene().seed);
  if (requests.reset_seed) reset(runner_.scene().sprites, *requests.reset_seed);
  // The overlay locks these during an A/B run; a script's scene pick waits like a key would.
  if (ab_.running() && (requests.scene || requests.tree_limits)) {
    logger().info("A/B run in progress: scene and tree settings are locked (Esc cancels the run)");
  } else {
    if (requests.scene) reset(*requests.scene);
    if (requests.tree_limits) {
      runner_.set_tree_limits(requests.tree_limits->max_depth, requests.tree_limits->leaf_capacity);
    }
  }
  if (requests.start_ab) start_ab();
  if (requests.cancel_ab) cancel_ab();
}

// --- A/B comparison ----------------------------------------------------------------------------

// Every leg starts from the sprites as they are now, spawned ones included: the run measures
// the scene the user is looking at.
void App::start_ab() {
  if (ab_.running()) return;
  const std::span<const scene::Sprite> now = runner_.sim().sprites();
  ab_start_.assign(now.begin(), now.end());
  SimulationConfig subject = runner_.config();
  subject.scene.sprites = ab_start_.size();
  ab_.start(subject, controls_, runner_.sim().allocator());
  controls_.paused = false;
  controls_.speed = 1.0f;
  start_ab_leg();
}

void App::start_ab_leg() {
  runner_.set_allocator(ab_.leg_allocator());
  runner_.reset_to(ab_start_);
  after_reset();
}

void App::cancel_ab() {
  if (!ab_.running()) return;
  ab_.cancel();
  controls_ = ab_.saved_controls();
  runner_.set_allocator(ab_.saved_allocator());
}

void App::advance_ab(const lab::FrameSample& sample) {
  switch (ab_.record(sample)) {
    case lab::AbExperiment::Next::Continue:
      break;
    case lab::AbExperiment::Next::NewLeg:
      start_ab_leg();
      break;
    case lab::AbExperiment::Next::Done:
      controls_ = ab_.saved_controls();
      runner_.set_allocator(ab_.saved_allocator());
      break;
  }
}

// --- the summary -------------------------------------------------------------------------------

void App::print_summary(bool screenshot_written, double cpu_ms_per_frame) const {
  const lab::SummaryInputs in{
      .stats = stats_,
      .sim = runner_.sim(),
      .seed = runner_.scene().seed,
      .allocator_switches = runner_.allocator_switches(),
      .stream = stream_.stats(),
      .draw_calls = sprite_renderer_.last_counts().draw_calls,
      .density_map = sprite_renderer_.last_counts().density_map,
      .renderer = target_.renderer_name,
      .layout = layout_.layout,
      .layout_refits = layout_.refits,
      .layout_frames_overlapping = layout_.frames_overlapping,
      .vsync = options_.vsync,
      .heap_counter = options_.heap_counter != nullptr,
      .cpu_ms_per_frame = cpu_ms_per_frame,
      .screenshot = screenshot_written ? &options_.screenshot : nullptr,
      .ab = ab_,
      .f12_screenshot = target_.last_f12_screenshot,
      .selection = selection_,
      .panel_fit = overlay_.fit(),
      .sprites_slider = overlay_.sprites_slider(),
      .notice = notice_.text,
      .world_drawn = camera_.world_on_screen(runner_.sim().world_side()),
  };
  std::puts(lab::summary_json(in).c_str());
  std::fflush(stdout);
}

}  // namespace quadpool::game::demo
