#pragma once
/// Drives the Simulation for the demo: builds and rebuilds the scene, switches the tree's
/// allocator, runs each frame's ticks at the chosen speed with their warm-up accounting, and
/// keeps the contact highlight of the last tick.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "game/demo/controls.hpp"
#include "game/demo/frame_stats.hpp"
#include "game/simulation.hpp"

namespace quadpool::game::demo {

class SimRunner {
 public:
  /// The first scene: `sprites` (clamped to [kMinSprites, kMaxSprites]) from `seed`, its tree
  /// on `allocator`; `heap_counter` may be nullptr (then no allocation counts).
  SimRunner(std::size_t sprites, std::uint64_t seed, AllocatorKind allocator,
            HeapCounter heap_counter);

  /// The fewest sprites a scene has.
  static constexpr std::size_t kMinSprites = 100;

  /// Replaces the scene with a new one of `sprites` (clamped) from `seed`, on the same allocator.
  void reset(std::size_t sprites, std::uint64_t seed);
  /// The allocator from the next tick on; a real change is counted and logged.
  void set_allocator(AllocatorKind kind);
  /// Runs this frame's ticks (one after a step, none while paused, `controls.speed` per frame on
  /// average otherwise) and adds their phases and heap allocations to `sample`.
  void tick_frame(Controls& controls, FrameSample& sample);
  /// Spawns `count` sprites within `spread` of world point (x, y).
  void spawn(float x, float y, std::size_t count, float spread);

  const Simulation& sim() const noexcept { return *sim_; }
  /// The scene reset() last built: seed and sprite count.
  const SceneConfig& scene() const noexcept { return scene_; }
  std::uint64_t allocator_switches() const noexcept { return allocator_switches_; }
  /// Per sprite, 1 when its circle touched another in the last tick.
  std::span<const std::uint8_t> in_contact() const noexcept { return in_contact_; }

 private:
  void update_contacts();

  std::unique_ptr<Simulation> sim_;
  SceneConfig scene_;
  HeapCounter heap_counter_;
  std::uint64_t ticks_since_reset_ = 0;
  std::uint64_t allocator_switches_ = 0;
  float tick_debt_ = 0;  // fractional ticks owed at speeds below 1
  std::vector<std::uint8_t> in_contact_;
};

}  // namespace quadpool::game::demo
