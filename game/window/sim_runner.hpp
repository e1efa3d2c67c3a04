#pragma once
/// Drives the Simulation for the demo: builds and rebuilds the scene, switches the tree's
/// allocator, runs each frame's ticks at the chosen speed with their warm-up accounting, and
/// keeps the contact highlight of the last tick.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "engine/memory/allocator_kind.hpp"
#include "game/window/controls.hpp"
#include "game/window/frame_stats.hpp"
#include "game/sim/simulation.hpp"
#include "game/sim/tick_recorder.hpp"
#include "common/scene/scene.hpp"

namespace quadpool::game::window {

class SimRunner {
 public:
  /// The first scene: `scene` (its sprite count clamped to [kMinSprites, kMaxSprites]), its
  /// tree on `allocator` with the game's default settings; `heap_counter` may be nullptr (then
  /// no allocation counts).
  SimRunner(const scene::SceneConfig& scene, memory::AllocatorKind allocator,
            sim::HeapCounter heap_counter, TaskSystem tasks = {});

  /// Replaces the scene with a new one of `sprites` (clamped) from `seed`, of the same kind, on
  /// the same allocator and tree settings.
  void reset(std::size_t sprites, std::uint64_t seed);
  /// Replaces the scene with a new one of `kind`, same sprite count and seed.
  void reset(scene::SceneKind kind);
  /// Like reset() with the same count and seed, but the sprites are `sprites` (a copy of an
  /// earlier sprites(), at most kMaxSprites): the A/B run starts every leg from one state.
  void reset_to(std::span<const scene::Sprite> sprites);
  /// New tree settings from the next tick on (the sprites stay); kept by later resets. Values
  /// out of QuadTreeConfig's ranges are clamped into them.
  void set_tree_limits(int max_depth, int leaf_capacity);
  /// The allocator from the next tick on; a real change is counted and logged.
  void set_allocator(memory::AllocatorKind kind);
  /// Runs this frame's ticks (one for a step, none while paused, `speed` per frame on average
  /// while running) and adds their phases and heap allocations to `sample`.
  void tick_frame(Pace pace, float speed, FrameSample& sample);
  /// Spawns `count` sprites within `spread` of world point (x, y).
  void spawn(float x, float y, std::size_t count, float spread);

  const sim::Simulation& sim() const noexcept { return *sim_; }
  /// The scene reset() last built: kind, seed and sprite count.
  const scene::SceneConfig& scene() const noexcept { return config_.scene; }
  /// The scene, the tree settings and the heap counter every reset uses.
  const sim::SimulationConfig& config() const noexcept { return config_; }
  std::uint64_t allocator_switches() const noexcept { return allocator_switches_; }
  /// Per sprite, 1 when its circle touched another in the last tick.
  std::span<const std::uint8_t> in_contact() const noexcept { return in_contact_; }

 private:
  void update_contacts();
  void rebuild_simulation();

  std::unique_ptr<sim::Simulation> sim_;
  sim::SimulationConfig config_;  // what the next reset builds (its allocator: the current one)
  sim::HeapWarmup warmup_;
  std::uint64_t allocator_switches_ = 0;
  float tick_debt_ = 0;  // fractional ticks owed at speeds below 1
  std::vector<std::uint8_t> in_contact_;
};

}  // namespace quadpool::game::window
