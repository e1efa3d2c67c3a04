#include "game/window/sim_runner.hpp"

#include <algorithm>

#include "engine/memory/allocator_kind.hpp"
#include "game/util/log.hpp"
#include "common/scene/scene.hpp"

namespace quadpool::game::window {

SimRunner::SimRunner(const scene::SceneConfig& scene, memory::AllocatorKind allocator,
                     sim::HeapCounter heap_counter, TaskSystem tasks) {
  config_.scene = scene;
  config_.tasks = tasks;
  config_.allocator = allocator;
  config_.heap_counter = heap_counter;
  reset(scene.sprites, scene.seed);
}

void SimRunner::reset(std::size_t sprites, std::uint64_t seed) {
  config_.scene.sprites = std::clamp(sprites, sim::kMinSprites, sim::kMaxSprites);
  config_.scene.seed = seed;
  rebuild_simulation();
}

void SimRunner::reset(scene::SceneKind kind) {
  config_.scene.kind = kind;
  rebuild_simulation();
  util::logger().info("scene: {}, {} sprites, seed {}", scene::scene_name(kind),
                      config_.scene.sprites, config_.scene.seed);
}

void SimRunner::reset_to(std::span<const scene::Sprite> sprites) {
  rebuild_simulation();  // the same seeded scene, so the same world
  sim::Simulation& sim = *sim_;
  while (!sim.sprites().empty()) sim.remove_sprite(sim.sprites().size() - 1);  // from the end: O(1)
  for (const scene::Sprite& sprite : sprites) sim.add_sprite(sprite);
}

void SimRunner::rebuild_simulation() {
  if (sim_) config_.allocator = sim_->allocator();
  sim_.reset();  // free the old scene first: at the cap it is ~100 MB
  sim_ = std::make_unique<sim::Simulation>(config_);
  warmup_.restart();
  tick_debt_ = 0;
  in_contact_.clear();
}

void SimRunner::set_tree_limits(int max_depth, int leaf_capacity) {
  max_depth = std::clamp(max_depth, sim::kMinTreeDepth, sim::kMaxTreeDepth);
  leaf_capacity = std::clamp(leaf_capacity, sim::kMinLeafCapacity, sim::kMaxLeafCapacity);
  if (max_depth == config_.tree_max_depth && leaf_capacity == config_.tree_leaf_capacity) return;
  sim_->set_tree_limits(max_depth, leaf_capacity);
  config_.tree_max_depth = max_depth;
  config_.tree_leaf_capacity = leaf_capacity;
  warmup_.restart();  // a new tree has a cold pool
  util::logger().info("tree: max depth {}, leaf capacity {} from the next tick", max_depth,
                      leaf_capacity);
}

void SimRunner::set_allocator(memory::AllocatorKind kind) {
  if (kind == sim_->allocator()) return;
  sim_->set_allocator(kind);
  ++allocator_switches_;
  util::logger().info("allocator: {} from the next tick", memory::allocator_name(kind));
}

void SimRunner::spawn(float x, float y, std::size_t count, float spread) {
  if (sim_->spawn_at(x, y, count, spread) > 0) warmup_.restart();
}

void SimRunner::tick_frame(Pace pace, float speed, FrameSample& sample) {
  int ticks = 0;
  if (pace == Pace::Step) {
    ticks = 1;
  } else if (pace == Pace::Run) {
    tick_debt_ += std::clamp(speed, 0.0f, 16.0f);  // never a negative or huge count
    ticks = static_cast<int>(tick_debt_);
    tick_debt_ -= static_cast<float>(ticks);
  }
  for (int i = 0; i < ticks; ++i) {
    const bool warm = warmup_.next_tick(*sim_);
    const sim::TickSample tick = sim::TickSample::of(sim_->step(), warm);
    if (i == 0) {
      sample.tick = tick;
    } else {
      sample.tick.add(tick);
    }
    sample.ticked = true;
  }
  if (ticks > 0) update_contacts();
}

void SimRunner::update_contacts() {
  // The contacts the tick resolved, as it recorded them.
  in_contact_.assign(sim_->sprites().size(), 0);
  for (const spatial::Pair& contact : sim_->last_contacts())
    in_contact_[contact.a] = in_contact_[contact.b] = 1;
}

}  // namespace quadpool::game::window
