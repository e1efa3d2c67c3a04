#pragma once
/// The lab in the window: the simulation (SimRunner) with the query tool (Selection) and the
/// sprites every A/B leg starts from. It ticks at the chosen speed, spawns where the left button
/// is held, draws the sprites with their contacts, the tree and the query's marks, and rebuilds
/// its scene for the keys and the panel's widgets. The App owns one beside the PlayScreen and
/// switches to it with the mode key.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "common/scene/scene.hpp"
#include "game/window/sdl/key_map.hpp"
#include "game/window/sdl/overlay.hpp"
#include "game/window/sdl/screen.hpp"
#include "game/window/selection.hpp"
#include "game/window/sim_runner.hpp"
#include "game/window/window_options.hpp"

namespace quadpool::game::window::sdl {

class LabScreen final : public Screen {
 public:
  /// The scene of `options` (sprites, seed, kind) on its allocator, heap counter and tasks.
  LabScreen(const window::WindowOptions& options, const window::WindowRuntime& runtime);

  /// What a key or the panel did to the lab.
  struct Change {
    bool rebuilt = false;  // a new scene: the caller frames the camera again
    std::string notice;    // why nothing changed, for the user; empty: none
  };

  /// The lab has no input of its own: Input's gestures reach it through selection().
  bool handle(const SDL_Event&, bool, bool) override { return false; }
  /// Spawns at in.spawn_at, ticks at in.pace and in.speed, and updates the query tool (off
  /// while an A/B run measures).
  void tick(const TickInput& in, window::FrameSample& sample) override;
  /// Fits the whole world in `area`.
  void frame(window::Camera& camera, const window::ScreenRect& area) const override;
  /// The lab's camera stays where the user put it.
  void follow(window::Camera&, const window::ScreenRect&) const override {}
  /// The sprites with their contacts (controls.highlight_contacts), the tree
  /// (controls.draw_tree) and the query tool's marks.
  DrawCounts draw_world(SDL_Renderer* renderer, SpriteRenderer& sprites,
                        window::VertexStream& stream, const window::Camera& camera,
                        const window::ScreenRect& area, const window::Controls& controls) override;
  /// The lab's figures are all in the panel.
  void draw_hud(const window::ScreenRect&, bool) const override {}

  const sim::Simulation& sim() const noexcept override { return runner_.sim(); }
  std::span<const play::EntityReport> entities() override { return {}; }
  void set_allocator(memory::AllocatorKind kind) override { runner_.set_allocator(kind); }

  /// The sprites as they are now, spawned ones included: every leg starts from them.
  sim::SimulationConfig ab_subject() override;
  void start_ab_leg(memory::AllocatorKind kind, window::Camera& camera,
                    const window::ScreenRect& area) override;
  void end_ab(memory::AllocatorKind saved) override { runner_.set_allocator(saved); }

  /// A ramp's step: a new scene of `sprites` from `seed` (same kind and tree settings) on
  /// `kind`, framed in `area`.
  void start_ramp_step(std::size_t sprites, std::uint64_t seed, memory::AllocatorKind kind,
                       window::Camera& camera, const window::ScreenRect& area);

  /// The lab's keys: Reset (from `seed_field`, the panel's seed), DoubleSprites, HalveSprites,
  /// ClearSelection, NextQueryMode; any other action changes nothing here.
  Change apply(Action action, std::uint64_t seed_field);
  /// The panel's scene widgets; the scene and tree settings wait while `ab_running`.
  Change apply(const OverlayRequests& requests, bool ab_running);

  window::Selection& selection() noexcept { return selection_; }
  const window::Selection& selection() const noexcept { return selection_; }
  memory::AllocatorKind allocator() const noexcept { return runner_.sim().allocator(); }
  /// The seed of the scene the lab last built.
  std::uint64_t seed() const noexcept { return runner_.scene().seed; }
  std::uint64_t allocator_switches() const noexcept { return runner_.allocator_switches(); }

 private:
  Change resize(std::size_t wanted, const char* key);
  Change reset(std::size_t sprites, std::uint64_t seed);

  window::SimRunner runner_;
  window::Selection selection_;
  std::vector<scene::Sprite> ab_start_;  // the sprites as B found them: every A/B leg's start
};

}  // namespace quadpool::game::window::sdl
