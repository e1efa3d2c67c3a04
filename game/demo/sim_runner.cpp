#include "game/demo/sim_runner.hpp"

#include <algorithm>

#include "game/log.hpp"

namespace quadpool::game::demo {

SimRunner::SimRunner(const SceneConfig& scene, AllocatorKind allocator, HeapCounter heap_counter) {
  config_.scene = scene;
  config_.allocator = allocator;
  config_.heap_counter = heap_counter;
  reset(scene.sprites, scene.seed);
}

void SimRunner::reset(std::size_t sprites, std::uint64_t seed) {
  config_.scene.sprites = std::clamp(sprites, kMinSprites, kMaxSprites);
  config_.scene.seed = seed;
  rebuild_simulation();
}

void SimRunner::reset(SceneKind kind) {
  config_.scene.kind = kind;
  rebuild_simulation();
  logger().info("scene: {}, {} sprites, seed {}", scene_name(kind), config_.scene.sprites,
                config_.scene.seed);
}

void SimRunner::rebuild_simulation() {
  if (sim_) config_.allocator = sim_->allocator();
  sim_.reset();  // free the old scene first: at the cap it is ~100 MB
  sim_ = std::make_unique<Simulation>(config_);
  ticks_since_reset_ = 0;
  tick_debt_ = 0;
  in_contact_.clear();
}

void SimRunner::set_tree_limits(int max_depth, int leaf_capacity) {
  max_depth = std::clamp(max_depth, kMinTreeDepth, kMaxTreeDepth);
  leaf_capacity = std::clamp(leaf_capacity, kMinLeafCapacity, kMaxLeafCapacity);
  if (max_depth == config_.tree_max_depth && leaf_capacity == config_.tree_leaf_capacity) return;
  sim_->set_tree_limits(max_depth, leaf_capacity);
  config_.tree_max_depth = max_depth;
  config_.tree_leaf_capacity = leaf_capacity;
  ticks_since_reset_ = 0;  // a new tree has a cold pool: warm-up again
  logger().info("tree: max depth {}, leaf capacity {} from the next tick", max_depth,
                leaf_capacity);
}

void SimRunner::set_allocator(AllocatorKind kind) {
  if (kind == sim_->allocator()) return;
  sim_->set_allocator(kind);
  ++allocator_switches_;
  logger().info("allocator: {} from the next tick", allocator_name(kind));
}

void SimRunner::spawn(float x, float y, std::size_t count, float spread) {
  if (sim_->spawn_at(x, y, count, spread) > 0) ticks_since_reset_ = 0;
}

void SimRunner::tick_frame(Controls& controls, FrameSample& sample) {
  int ticks = 0;
  if (controls.step_once) {
    ticks = 1;
    controls.step_once = false;
  } else if (!controls.paused) {
    tick_debt_ += std::clamp(controls.speed, 0.0f, 16.0f);  // never a negative or huge count
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

void SimRunner::update_contacts() {
  // The pairs' circles as the tick saw them (its boxes), so the highlight matches the contacts
  // it resolved.
  const std::span<const spatial::Aabb> boxes = sim_->last_boxes();
  in_contact_.assign(sim_->sprites().size(), 0);
  const auto centre_x = [](const spatial::Aabb& b) { return (b.min_x + b.max_x) * 0.5f; };
  const auto centre_y = [](const spatial::Aabb& b) { return (b.min_y + b.max_y) * 0.5f; };
  const auto radius = [](const spatial::Aabb& b) { return (b.max_x - b.min_x) * 0.5f; };
  for (const Pair& pair : sim_->last_pairs()) {
    if (pair.b >= boxes.size() || pair.b >= in_contact_.size()) continue;
    const spatial::Aabb& a = boxes[pair.a];
    const spatial::Aabb& b = boxes[pair.b];
    if (circles_overlap(centre_x(a), centre_y(a), radius(a), centre_x(b), centre_y(b), radius(b))) {
      in_contact_[pair.a] = in_contact_[pair.b] = 1;
    }
  }
}

}  // namespace quadpool::game::demo
