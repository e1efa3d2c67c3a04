// The lab in the window: its simulation, its query tool, its scene changes and its drawing.
#include "game/window/sdl/lab_screen.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "game/util/log.hpp"

namespace quadpool::game::window::sdl {

namespace {

// Sprites added per frame while the left button is held.
constexpr std::size_t kSpawnPerFrame = 8;

}  // namespace

LabScreen::LabScreen(const window::WindowOptions& options, const window::WindowRuntime& runtime)
    : runner_(options.game.config.field.scene, options.game.config.field.allocator,
              runtime.heap_counter, runtime.tasks) {}

void LabScreen::tick(const TickInput& in, window::FrameSample& sample) {
  if (in.spawn_at) {
    const window::ScreenPoint at = in.camera.to_world(in.spawn_at->x, in.spawn_at->y);
    runner_.spawn(at.x, at.y, kSpawnPerFrame, 20.0f / in.camera.scale());
  }
  runner_.tick_frame(in.pace, in.speed, sample);
  // The query tool's timed scans would land in an A/B run's frame times: off while it runs.
  if (in.ab_running) selection_.clear();
  selection_.update(runner_.sim());
}

void LabScreen::frame(window::Camera& camera, const window::ScreenRect& area) const {
  camera.fit(runner_.sim().world_side(), area);
}

DrawCounts LabScreen::draw_world(SDL_Renderer*, SpriteRenderer& sprites,
                                 window::VertexStream& stream, const window::Camera& camera,
                                 const window::ScreenRect& area, const window::Controls& controls) {
  const sim::Simulation& sim = runner_.sim();
  WorldView world;
  world.sprites = sim.sprites();
  world.world_side = sim.world_side();
  if (controls.highlight_contacts) world.in_contact = runner_.in_contact();
  if (controls.draw_tree && sim.ticks() > 0) world.tree = &sim.tree();
  world.selected = selection_.ids();
  world.selection = selection_.region();
  world.picked_leaf = selection_.pick().leaf();
  world.query = selection_.shape();
  world.typical_radius = 0.5f * (runner_.scene().min_radius + runner_.scene().max_radius);
  return sprites.draw(stream, camera, area, world);
}

sim::SimulationConfig LabScreen::ab_subject() {
  sim::SimulationConfig subject = runner_.config();
  const std::span<const scene::Sprite> now = runner_.sim().sprites();
  ab_start_.assign(now.begin(), now.end());
  subject.scene.sprites = ab_start_.size();
  return subject;
}

void LabScreen::start_ab_leg(memory::AllocatorKind kind, window::Camera& camera,
                             const window::ScreenRect& area) {
  runner_.set_allocator(kind);
  runner_.reset_to(ab_start_);
  selection_.clear();
  frame(camera, area);
}

void LabScreen::start_ramp_step(std::size_t sprites, std::uint64_t seed, memory::AllocatorKind kind,
                                window::Camera& camera, const window::ScreenRect& area) {
  runner_.set_allocator(kind);
  reset(sprites, seed);
  frame(camera, area);
}

LabScreen::Change LabScreen::apply(Action action, std::uint64_t seed_field) {
  switch (action) {
    // The seed in the overlay's field, as its button does.
    case Action::Reset:
      return reset(runner_.scene().sprites, seed_field);
    // From the live count, spawned sprites included: what the panel's slider shows.
    case Action::DoubleSprites:
      return resize(runner_.sim().sprites().size() * 2, "+");
    case Action::HalveSprites:
      return resize(runner_.sim().sprites().size() / 2, "-");
    case Action::ClearSelection:
      selection_.clear();
      return {};
    case Action::NextQueryMode:
      selection_.set_mode(window::next_query_mode(selection_.mode()));
      return {};
    default:
      return {};
  }
}

LabScreen::Change LabScreen::apply(const OverlayRequests& requests, bool ab_running) {
  Change change;
  if (requests.sprites) change = reset(*requests.sprites, runner_.scene().seed);
  if (requests.reset_seed) change = reset(runner_.scene().sprites, *requests.reset_seed);
  // The overlay locks these during an A/B run; a script's scene pick waits like a key would.
  if (ab_running && (requests.scene || requests.tree_limits)) {
    util::logger().info(
        "A/B run in progress: scene and tree settings are locked (Esc cancels the run)");
    return change;
  }
  if (requests.scene) {
    runner_.reset(*requests.scene);
    selection_.clear();
    change.rebuilt = true;
  }
  if (requests.tree_limits) {
    runner_.set_tree_limits(requests.tree_limits->max_depth, requests.tree_limits->leaf_capacity);
  }
  return change;
}

// + and -: a new scene of `wanted` sprites (clamped to the limits). At a limit nothing changes
// and the notice says why, rather than restarting the scene at the size it already has.
LabScreen::Change LabScreen::resize(std::size_t wanted, const char* key) {
  const std::size_t now = runner_.sim().sprites().size();
  const std::size_t next = std::clamp(wanted, sim::kMinSprites, sim::kMaxSprites);
  if (next == now) {
    return {
        .rebuilt = false,
        .notice =
            now >= sim::kMaxSprites
                ? fmt::format("{}: already at the cap of {} sprites", key, sim::kMaxSprites)
                : fmt::format("{}: already at the minimum of {} sprite", key, sim::kMinSprites)};
  }
  return reset(next, runner_.scene().seed);
}

LabScreen::Change LabScreen::reset(std::size_t sprites, std::uint64_t seed) {
  runner_.reset(sprites, seed);
  selection_.clear();
  return {.rebuilt = true, .notice = {}};
}

}  // namespace quadpool::game::window::sdl
