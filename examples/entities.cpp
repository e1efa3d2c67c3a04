// A game's enemies on quadpool's SlotPool: each enemy is an object in a pool chunk, other
// objects (here, homing missiles) refer to it by a Handle, and a handle to an enemy that has
// died reads as nullptr instead of pointing at whatever took its slot. Prints what it did and
// exits 1 if a handle ever reached another enemy than its own.
#include <cstdio>
#include <vector>

#include "engine/memory/handle.hpp"
#include "engine/memory/slot_pool.hpp"

namespace {

using quadpool::memory::Handle;
using quadpool::memory::SlotPool;

struct Enemy {
  int id;
  int health;
};

struct Missile {
  Handle<Enemy> target;  // not an Enemy*: the target may die first
  int target_id;         // to check that a live handle reaches the enemy it was made for
  int damage;
};

}  // namespace

int main() {
  SlotPool<Enemy> enemies;
  enemies.reserve(64);  // no heap traffic for the first 64 live enemies
  std::vector<Missile> missiles;
  int next_id = 0, kills = 0, missed = 0, wrong_target = 0;

  for (int frame = 0; frame < 200; ++frame) {
    // Two enemies a frame, each fired at by a missile that lands three frames later.
    for (int i = 0; i < 2; ++i) {
      const int id = next_id++;
      const Handle<Enemy> enemy = enemies.create(Enemy{id, 3});
      missiles.push_back({enemy, id, 1 + id % 3});
    }
    std::vector<Missile> flying;
    for (std::size_t m = 0; m < missiles.size(); ++m) {
      Missile& missile = missiles[m];
      if (m + 6 >= missiles.size()) {  // fired in the last three frames: still in flight
        flying.push_back(missile);
        continue;
      }
      Enemy* target = enemies.get(missile.target);
      if (target == nullptr) {  // it died before the missile arrived
        ++missed;
        continue;
      }
      if (target->id != missile.target_id) ++wrong_target;
      target->health -= missile.damage;
      if (target->health <= 0) {
        enemies.destroy(missile.target);
        ++kills;
      }
    }
    missiles.swap(flying);
    // Every 10th frame a bomb kills the wounded, and every fourth enemy: some missiles in
    // flight lose their target.
    if (frame % 10 == 9) {
      std::vector<Handle<Enemy>> hit;
      enemies.for_each([&](Handle<Enemy> h, Enemy& e) {
        if (e.health < 3 || e.id % 4 == 0) hit.push_back(h);
      });
      for (Handle<Enemy> h : hit) kills += enemies.destroy(h) ? 1 : 0;
    }
  }
  const auto stats = enemies.stats();
  std::printf("entities: %d enemies, %d killed, %d missiles found their target gone, %zu alive in "
              "%zu slot(s)\n",
              next_id, kills, missed, stats.live, stats.slots_used);
  return wrong_target == 0 && stats.live + static_cast<std::size_t>(kills) ==
                                  static_cast<std::size_t>(next_id) ? 0 : 1;
}
