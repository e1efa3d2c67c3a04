// The demo's frame loop, input, A/B comparison and exit summary.
//
// Sections: scripted input, construction and reset, the frame loop, input, simulation,
// A/B comparison, the summary.
#include "game/demo/app.hpp"

#include <SDL.h>
#include <imgui.h>
#include <imgui_impl_sdl.h>
#include <imgui_impl_sdlrenderer.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>

#include "engine/core/log.hpp"
#include "game/simulation.hpp"
#include "game/json_writer.hpp"

namespace quadpool::game::demo {

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

constexpr std::size_t kMinSprites = 100;
// Sprites added per frame while the left button is held.
constexpr std::size_t kSpawnPerFrame = 8;

}  // namespace

// --- scripted input ----------------------------------------------------------------------------

std::vector<ScriptedKey> parse_key_script(const std::string& text, std::string& error) {
  std::vector<ScriptedKey> keys;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    const std::string entry = text.substr(start, end - start);
    const std::size_t colon = entry.find(':');
    char* parsed_to = nullptr;
    const unsigned long long frame =
        colon == std::string::npos ? 0 : std::strtoull(entry.c_str(), &parsed_to, 10);
    const bool frame_ok = colon != std::string::npos && colon > 0 &&
                          parsed_to == entry.c_str() + colon && entry[0] != '-';
    const SDL_Keycode key =
        frame_ok ? SDL_GetKeyFromName(entry.substr(colon + 1).c_str()) : SDLK_UNKNOWN;
    if (!frame_ok || key == SDLK_UNKNOWN) {
      error = fmt::format(
          "QUADPOOL_DEMO_KEYS: '{}' is not FRAME:KEY (a frame number from 0, an "
          "SDL key name such as A, Space or .)",
          entry);
      return {};
    }
    keys.push_back({frame, key});
    start = end + 1;
  }
  std::stable_sort(keys.begin(), keys.end(),
                   [](const ScriptedKey& a, const ScriptedKey& b) { return a.frame < b.frame; });
  return keys;
}

// --- construction and reset --------------------------------------------------------------------

App::App(SDL_Window* window, SDL_Renderer* renderer, const Atlas& atlas, const DemoOptions& options,
         std::vector<ScriptedKey> script)
    : window_(window),
      renderer_(renderer),
      options_(options),
      script_(std::move(script)),
      // Room for the sprites, a ring each and the tree's lines, for every frame in flight.
      stream_(std::max<std::size_t>(options.sprites, 1000) * 4 * 3 * VertexStream::kFramesInFlight),
      sprite_renderer_(renderer, atlas) {
  SDL_RendererInfo info{};
  if (SDL_GetRendererInfo(renderer_, &info) == 0 && info.name != nullptr)
    renderer_name_ = info.name;
  SDL_GetRendererOutputSize(renderer_, &width_, &height_);
  seed_input_ = options.seed;
  reset(options.sprites, options.seed);
  sim_->set_allocator(options.allocator);
}

App::~App() = default;

void App::reset(std::size_t sprites, std::uint64_t seed) {
  const AllocatorKind allocator = sim_ ? sim_->allocator() : options_.allocator;
  scene_.sprites = std::clamp(sprites, kMinSprites, kMaxSprites);
  scene_.seed = seed;
  SimulationConfig config;
  config.scene = scene_;
  config.allocator = allocator;
  config.heap_counter = options_.heap_counter;
  sim_.reset();  // free the old scene first: at the cap it is ~100 MB
  sim_ = std::make_unique<Simulation>(config);
  ticks_since_reset_ = 0;
  tick_debt_ = 0;
  in_contact_.clear();
  selected_.clear();
  selection_.reset();
  sprites_slider_ = static_cast<int>(scene_.sprites);
  fit_camera();
}

void App::fit_camera() {
  camera_.fit(sim_->world_side(), width_, height_, controls_.show_ui ? kOverlayWidth : 0.0f);
}

void App::set_allocator(AllocatorKind kind) {
  if (kind == sim_->allocator()) return;
  sim_->set_allocator(kind);
  ++allocator_switches_;
  logger().info("allocator: {} from the next tick", allocator_name(kind));
}

// --- the frame loop ----------------------------------------------------------------------------

int App::run() {
  bool screenshot_written = false;
  // Process CPU time beside wall time: on a shared machine the wall-clock frame rate moves with
  // the load, CPU time per frame much less.
  const std::clock_t cpu_start = std::clock();
  while (!quit_) {
    const Clock::time_point frame_start = Clock::now();
    // Scripted keys enter SDL's queue like real ones, and are handled below like real ones.
    while (next_script_key_ < script_.size() && script_[next_script_key_].frame <= frame_) {
      SDL_Event press{};
      press.type = SDL_KEYDOWN;
      press.key.state = SDL_PRESSED;
      press.key.windowID = SDL_GetWindowID(window_);
      press.key.keysym.sym = script_[next_script_key_].keycode;
      press.key.keysym.scancode = SDL_GetScancodeFromKey(press.key.keysym.sym);
      SDL_Event release = press;
      release.type = SDL_KEYUP;
      release.key.state = SDL_RELEASED;
      SDL_PushEvent(&press);
      SDL_PushEvent(&release);
      ++next_script_key_;
    }
    SDL_Event event;
    while (SDL_PollEvent(&event)) {
      ImGui_ImplSDL2_ProcessEvent(&event);
      handle_event(event);
    }
    SDL_GetRendererOutputSize(renderer_, &width_, &height_);

    FrameSample sample;
    sample.allocator = sim_->allocator();
    if (spawning_ && !ab_) {
      const ScreenPoint at = camera_.to_world(mouse_x_, mouse_y_);
      const float spread = 20.0f / camera_.scale();
      if (sim_->spawn_at(at.x, at.y, kSpawnPerFrame, spread) > 0) ticks_since_reset_ = 0;
    }
    tick_simulation(sample);
    update_selection();

    const Clock::time_point render_start = Clock::now();
    SDL_SetRenderDrawColor(renderer_, 18, 20, 28, 255);
    SDL_RenderClear(renderer_);
    stream_.begin_frame(frame_);
    render_world();
    ImGui_ImplSDLRenderer_NewFrame();
    ImGui_ImplSDL2_NewFrame();
    ImGui::NewFrame();
    if (controls_.show_ui) draw_overlay();
    ImGui::Render();
    ImGui_ImplSDLRenderer_RenderDrawData(ImGui::GetDrawData());
    stream_.end_frame();

    const bool last_frame = options_.frames && frame_ + 1 >= *options_.frames;
    if (last_frame) {
      quit_ = true;
      if (!options_.screenshot.empty()) {
        // SDL_RenderReadPixels reads the back buffer: before SDL_RenderPresent.
        const std::string error = save_screenshot(renderer_, options_.screenshot);
        if (!error.empty()) {
          std::fprintf(stderr, "quadpool: --screenshot %s: %s\n", options_.screenshot.c_str(),
                       error.c_str());
          return 1;
        }
        screenshot_written = true;
        logger().info("wrote {}", options_.screenshot);
      }
    }
    SDL_RenderPresent(renderer_);
    sample.render = static_cast<float>(ms_since(render_start));
    sample.total = static_cast<float>(ms_since(frame_start));
    stats_.record(sample);
    if (ab_) advance_ab(sample);
    ++frame_;
  }
  cpu_ms_per_frame_ = stats_.frames() == 0
                          ? 0.0
                          : 1000.0 * static_cast<double>(std::clock() - cpu_start) /
                                CLOCKS_PER_SEC / static_cast<double>(stats_.frames());
  if (options_.frames) print_summary(screenshot_written);
  logger().info("{} frames, {:.1f} FPS (median frame {:.2f} ms)", stats_.frames(),
                stats_.frame_ms().median > 0 ? 1000.0 / stats_.frame_ms().median : 0.0,
                stats_.frame_ms().median);
  return 0;
}

void App::render_world() {
  WorldView view;
  view.sprites = sim_->sprites();
  view.world_side = sim_->world_side();
  if (controls_.highlight_contacts) view.in_contact = in_contact_;
  if (controls_.draw_tree && sim_->ticks() > 0) view.tree = &sim_->tree();
  view.selected = selected_;
  if (selecting_ || selection_) view.selection = selection_;
  last_draw_ = sprite_renderer_.draw(stream_, camera_, width_, height_, view);
}

// --- input -------------------------------------------------------------------------------------

void App::handle_event(const SDL_Event& event) {
  const ImGuiIO& io = ImGui::GetIO();
  switch (event.type) {
    case SDL_QUIT:
      quit_ = true;
      break;
    case SDL_KEYDOWN:
      if (!io.WantCaptureKeyboard && event.key.repeat == 0) {
        handle_key(event.key.keysym.sym, (event.key.keysym.mod & KMOD_SHIFT) != 0);
      }
      break;
    case SDL_MOUSEBUTTONDOWN: {
      if (io.WantCaptureMouse) break;
      mouse_x_ = static_cast<float>(event.button.x);
      mouse_y_ = static_cast<float>(event.button.y);
      if (event.button.button == SDL_BUTTON_RIGHT) {
        panning_ = true;
      } else if (event.button.button == SDL_BUTTON_LEFT) {
        if ((SDL_GetModState() & KMOD_SHIFT) != 0) {
          selecting_ = true;
          const ScreenPoint at = camera_.to_world(mouse_x_, mouse_y_);
          select_from_x_ = at.x;
          select_from_y_ = at.y;
          selection_ = spatial::Aabb{at.x, at.y, at.x, at.y};
        } else {
          spawning_ = true;
        }
      }
      break;
    }
    case SDL_MOUSEBUTTONUP:
      if (event.button.button == SDL_BUTTON_RIGHT) panning_ = false;
      if (event.button.button == SDL_BUTTON_LEFT) spawning_ = selecting_ = false;
      break;
    case SDL_MOUSEMOTION: {
      mouse_x_ = static_cast<float>(event.motion.x);
      mouse_y_ = static_cast<float>(event.motion.y);
      if (panning_) {
        camera_.pan(static_cast<float>(event.motion.xrel), static_cast<float>(event.motion.yrel));
      }
      if (selecting_) {
        const ScreenPoint at = camera_.to_world(mouse_x_, mouse_y_);
        selection_ = spatial::Aabb{std::min(select_from_x_, at.x), std::min(select_from_y_, at.y),
                                   std::max(select_from_x_, at.x), std::max(select_from_y_, at.y)};
      }
      break;
    }
    case SDL_MOUSEWHEEL:
      if (!io.WantCaptureMouse && event.wheel.y != 0) {
        camera_.zoom_at(mouse_x_, mouse_y_, std::pow(1.15f, static_cast<float>(event.wheel.y)));
      }
      break;
    default:
      break;
  }
}

void App::handle_key(int keycode, bool shift) {
  // While an A/B run is going, the scene belongs to it: keys that would replace the scene or
  // switch the allocator wait until it is done.
  const bool scene_key = keycode == SDLK_r || keycode == SDLK_PLUS || keycode == SDLK_KP_PLUS ||
                         keycode == SDLK_EQUALS || keycode == SDLK_MINUS ||
                         keycode == SDLK_KP_MINUS || keycode == SDLK_a;
  if (ab_ && scene_key) {
    logger().info("A/B run in progress: key ignored");
    return;
  }
  switch (keycode) {
    case SDLK_ESCAPE:
      quit_ = true;
      break;
    case SDLK_SPACE:
      controls_.paused = !controls_.paused;
      break;
    case SDLK_PERIOD:
      controls_.paused = true;
      controls_.step_once = true;
      break;
    case SDLK_a:
      set_allocator(sim_->allocator() == AllocatorKind::Pool ? AllocatorKind::NewDelete
                                                             : AllocatorKind::Pool);
      break;
    case SDLK_t:
      controls_.draw_tree = !controls_.draw_tree;
      break;
    case SDLK_c:
      controls_.highlight_contacts = !controls_.highlight_contacts;
      break;
    case SDLK_r:
      reset(scene_.sprites, seed_input_);  // the seed in the overlay's field, as its button does
      break;
    case SDLK_h:
      controls_.show_ui = !controls_.show_ui;
      break;
    case SDLK_f:
      fit_camera();
      break;
    case SDLK_b:
      start_ab();
      break;
    case SDLK_F1:
    case SDLK_SLASH:
      controls_.show_help = !controls_.show_help;
      break;
    case SDLK_PLUS:
    case SDLK_KP_PLUS:
      reset(scene_.sprites * 2, scene_.seed);
      break;
    case SDLK_EQUALS:  // '+' is shift+'=' on most layouts
      if (shift) reset(scene_.sprites * 2, scene_.seed);
      break;
    case SDLK_MINUS:
    case SDLK_KP_MINUS:
      reset(scene_.sprites / 2, scene_.seed);
      break;
    default:
      break;
  }
}

// --- simulation ----------------------------------------------------------------------------

void App::tick_simulation(FrameSample& sample) {
  int ticks = 0;
  if (controls_.step_once) {
    ticks = 1;
    controls_.step_once = false;
  } else if (!controls_.paused) {
    tick_debt_ += std::clamp(controls_.speed, 0.0f, 16.0f);  // never a negative or huge count
    ticks = static_cast<int>(tick_debt_);
    tick_debt_ -= static_cast<float>(ticks);
  }
  for (int i = 0; i < ticks; ++i) {
    // A switch into a pool that has never held this scene's tree grows it: warm-up again.
    const bool cold_pool = sim_->allocator() == AllocatorKind::Pool &&
                           sim_->tree().pool_stats().capacity < sim_->last_tick().tree.nodes;
    if (cold_pool) ticks_since_reset_ = 0;
    const bool warm = ticks_since_reset_ >= kHeapWarmupTicks;
    const TickStats& tick = sim_->step();
    ++ticks_since_reset_;
    sample.integrate += static_cast<float>(tick.ms.integrate);
    sample.rebuild += static_cast<float>(tick.ms.rebuild);
    sample.pairs += static_cast<float>(tick.ms.pairs);
    sample.resolve += static_cast<float>(tick.ms.resolve);
    sample.allocator = tick.allocator;
    sample.ticked = true;
    sample.warm = (i == 0 ? warm : sample.warm && warm);
    if (tick.heap_allocations) {
      sample.tick_heap_allocations =
          sample.tick_heap_allocations.value_or(0) + *tick.heap_allocations;
    }
  }
  if (ticks > 0) update_contacts();
}

void App::update_contacts() {
  // The pairs' circles as the tick saw them (its boxes), so the highlight matches the contacts
  // it resolved.
  const std::span<const spatial::Aabb> boxes = sim_->last_boxes();
  in_contact_.assign(sim_->sprites().size(), 0);
  for (const Pair& pair : sim_->last_pairs()) {
    if (pair.b >= boxes.size() || pair.b >= in_contact_.size()) continue;
    const spatial::Aabb& a = boxes[pair.a];
    const spatial::Aabb& b = boxes[pair.b];
    const float dx = (a.min_x + a.max_x - b.min_x - b.max_x) * 0.5f;
    const float dy = (a.min_y + a.max_y - b.min_y - b.max_y) * 0.5f;
    const float reach = (a.max_x - a.min_x + b.max_x - b.min_x) * 0.5f;
    if (dx * dx + dy * dy < reach * reach) in_contact_[pair.a] = in_contact_[pair.b] = 1;
  }
}

void App::update_selection() {
  selected_.clear();
  if (!selection_ || sim_->ticks() == 0) return;
  sim_->tree().query(*selection_, [this](std::uint32_t id) { selected_.push_back(id); });
}

// --- A/B comparison ----------------------------------------------------------------------------

void App::start_ab() {
  if (ab_) return;
  controls_before_ab_ = controls_;
  allocator_before_ab_ = sim_->allocator();
  controls_.paused = false;
  controls_.speed = 1.0f;
  ab_.emplace();
  for (int mode = 0; mode < 2; ++mode) {
    ab_->frame_ms[mode].reserve(AbRun::kLegFrames * AbRun::kLegs / 2);
    ab_->tick_ms[mode].reserve(AbRun::kLegFrames * AbRun::kLegs / 2);
  }
  ab_result_.reset();
  set_allocator(AllocatorKind::Pool);
  reset(scene_.sprites, scene_.seed);
  logger().info("A/B: {} sprites, seed {}, {} legs of {} frames", scene_.sprites, scene_.seed,
                AbRun::kLegs, AbRun::kLegFrames);
}

void App::advance_ab(const FrameSample& sample) {
  AbRun& run = *ab_;
  if (!sample.ticked) return;
  const int mode = sample.allocator == AllocatorKind::Pool ? 0 : 1;
  run.frame_ms[mode].push_back(sample.total);
  run.tick_ms[mode].push_back(sample.integrate + sample.rebuild + sample.pairs + sample.resolve);
  if (++run.frames_in_leg < AbRun::kLegFrames) return;
  run.frames_in_leg = 0;
  if (++run.leg < AbRun::kLegs) {
    // Every leg replays the same seeded scene from its start, in the other mode.
    set_allocator(run.leg % 2 == 0 ? AllocatorKind::Pool : AllocatorKind::NewDelete);
    reset(scene_.sprites, scene_.seed);
    return;
  }
  AbResult result;
  result.sprites = scene_.sprites;
  result.seed = scene_.seed;
  for (int m = 0; m < 2; ++m) {
    result.frame_ms[m] = percentiles(run.frame_ms[m]);
    result.tick_ms[m] = percentiles(run.tick_ms[m]);
  }
  logger().info(
      "A/B done: frame median {:.2f} ms pool, {:.2f} ms new-delete; tick median {:.3f} "
      "ms pool, {:.3f} ms new-delete",
      result.frame_ms[0].median, result.frame_ms[1].median, result.tick_ms[0].median,
      result.tick_ms[1].median);
  ab_result_ = result;
  ab_.reset();
  controls_ = controls_before_ab_;
  set_allocator(allocator_before_ab_);
}

// --- the summary -------------------------------------------------------------------------------

void App::print_summary(bool screenshot_written) const {
  JsonWriter json;
  auto write_percentiles = [&](const char* key, const Percentiles& p) {
    json.begin(key);
    json.number("median", p.median);
    json.number("p99", p.p99);
    json.number("max", p.max);
    json.end();
  };
  auto write_mode = [&](const char* key, AllocatorKind kind) {
    const ModeSummary m = stats_.summary(kind);
    json.begin(key);
    json.integer("frames", m.frames);
    write_percentiles("frame_ms", m.frame_ms);
    write_percentiles("tick_ms", m.tick_ms);
    json.integer("warm_ticks", m.warm_ticks);
    json.integer("warm_ticks_with_heap_allocations", m.warm_ticks_with_heap_allocations);
    json.integer("max_warm_tick_heap_allocations", m.max_warm_tick_heap_allocations);
    json.end();
  };
  const Percentiles frame = stats_.frame_ms();
  const FrameSample phases = stats_.phase_medians();
  const memory::PoolStats pool = sim_->tree().pool_stats();
  const VertexStreamStats stream = stream_.stats();
  const spatial::QuadTreeStats tree = sim_->last_tick().tree;

  json.begin();
  json.integer("frames", stats_.frames());
  json.integer("sprites", sim_->sprites().size());
  json.integer("seed", scene_.seed);
  json.string("renderer", renderer_name_);
  json.integer("window_width", static_cast<std::uint64_t>(width_));
  json.integer("window_height", static_cast<std::uint64_t>(height_));
  json.boolean("vsync", options_.vsync);
  json.boolean("heap_counter", options_.heap_counter != nullptr);
  json.integer("allocator_switches", allocator_switches_);
  json.number("fps_median", frame.median > 0 ? 1000.0 / frame.median : 0.0);
  json.number("cpu_ms_per_frame", cpu_ms_per_frame_);  // this process's CPU, start-up included
  write_percentiles("frame_ms", frame);
  json.begin("phase_ms");  // medians
  json.number("integrate", phases.integrate);
  json.number("rebuild", phases.rebuild);
  json.number("pairs", phases.pairs);
  json.number("resolve", phases.resolve);
  json.number("render", phases.render);
  json.end();
  json.begin("modes");
  write_mode("pool", AllocatorKind::Pool);
  write_mode("new_delete", AllocatorKind::NewDelete);
  json.end();
  json.begin("pool");
  json.integer("capacity", pool.capacity);
  json.integer("in_use", pool.blocks_in_use);
  json.integer("high_water", pool.high_water);
  json.integer("chunks", pool.chunks);
  json.end();
  json.begin("tree");
  json.integer("nodes", tree.nodes);
  json.integer("leaves", tree.leaves);
  json.integer("max_depth_reached", tree.max_depth_reached);
  json.end();
  json.begin("vertex_stream");
  json.integer("capacity_bytes", stream.capacity_bytes);
  json.integer("frame_bytes", stream.frame_bytes);
  json.integer("stale_bytes", stream.stale_bytes);
  json.integer("batches", stream.batches);
  json.integer("grows", stream.grows);
  json.number("fragmentation", stream.fragmentation());
  json.end();
  json.integer("draw_calls", last_draw_.draw_calls);
  if (screenshot_written) {
    json.string("screenshot", options_.screenshot);
  } else {
    json.null("screenshot");
  }
  json.end();
  std::puts(json.text().c_str());
  std::fflush(stdout);
}

}  // namespace quadpool::game::demo
