// A game's bullets on quadpool: each bullet is an object in an ObjectPool, and a QuadTree over
// their boxes answers "which bullets are in the player's box?" every frame. Prints what it did
// and checks the tree's answer against a plain loop (exit 1 if they differ).
#include <cstdint>
#include <cstdio>
#include <vector>

#include "engine/memory/object_pool.hpp"
#include "engine/spatial/aabb.hpp"
#include "engine/spatial/quad_tree.hpp"

namespace {

using quadpool::memory::ObjectPool;
using quadpool::spatial::Aabb;
using quadpool::spatial::QuadTree;

struct Bullet {
  float x, y, dx, dy;
  Aabb box() const { return {x - 1.0f, y - 1.0f, x + 1.0f, y + 1.0f}; }
};

constexpr Aabb kWorld{0.0f, 0.0f, 1000.0f, 1000.0f};
constexpr Aabb kPlayer{480.0f, 480.0f, 520.0f, 520.0f};

}  // namespace

int main() {
  ObjectPool<Bullet> pool(256);  // bullets come and go every frame: no heap once warm
  std::vector<Bullet*> live;     // the dense list the game iterates, not the pool
  QuadTree tree({.bounds = kWorld});
  std::vector<Aabb> boxes;
  std::size_t hits = 0;

  for (int frame = 0; frame < 120; ++frame) {
    // Four bullets a frame from the corners, aimed across the world.
    for (int i = 0; i < 4; ++i) {
      const float fx = (i & 1) ? 1000.0f : 0.0f, fy = (i & 2) ? 1000.0f : 0.0f;
      const float step = 3.0f + static_cast<float>((frame * 7 + i) % 5);
      live.push_back(pool.create(
          Bullet{fx, fy, fx == 0.0f ? step : -step, fy == 0.0f ? step * 0.97f : -step * 0.97f}));
    }
    boxes.clear();
    for (Bullet* b : live) {
      b->x += b->dx;
      b->y += b->dy;
      boxes.push_back(b->box());
    }
    tree.rebuild(boxes);

    std::vector<std::uint32_t> in_player;
    tree.query(kPlayer, [&](std::uint32_t id) { in_player.push_back(id); });
    std::size_t expected = 0;
    for (const Aabb& box : boxes) expected += quadpool::spatial::overlaps(box, kPlayer) ? 1 : 0;
    if (in_player.size() != expected) {
      std::fprintf(stderr, "frame %d: the tree found %zu bullets in the player, a loop %zu\n",
                   frame, in_player.size(), expected);
      return 1;
    }
    hits += in_player.size();

    // Bullets that hit the player or left the world go back to the pool.
    std::vector<bool> gone(live.size(), false);
    for (std::uint32_t id : in_player) gone[id] = true;
    std::size_t kept = 0;
    for (std::size_t i = 0; i < live.size(); ++i) {
      const Bullet& b = *live[i];
      if (gone[i] || b.x < kWorld.min_x || b.x > kWorld.max_x || b.y < kWorld.min_y ||
          b.y > kWorld.max_y) {
        pool.destroy(live[i]);
      } else {
        live[kept++] = live[i];
      }
    }
    live.resize(kept);
  }

  const auto stats = pool.stats();
  std::printf("bullets: %zu hits on the player, %zu in flight, pool %zu blocks in %zu chunk(s)\n",
              hits, live.size(), stats.blocks_in_use, stats.chunks);
  for (Bullet* b : live) pool.destroy(b);  // every object before its pool goes away
  return 0;
}
