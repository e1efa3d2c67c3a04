// What the order of a game's boxes costs the QuadTree's rebuild, and the remedy. The same field
// of drifting rocks runs twice: once in the order the rocks spawned (their indices say nothing of
// where they are, as in most games), once put in the tree's order every fourth frame
// (QuadTree::item_order, then renumber_in_item_order). Prints each run's rebuild time and pair
// count, and exits 1 if the two runs ever find a different number of pairs.
//
//   box_order [ROCKS]   (default 200000, from 1 to 4000000)
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <vector>

#include "engine/spatial/aabb.hpp"
#include "engine/spatial/quad_tree.hpp"

namespace {

using quadpool::spatial::Aabb;
using quadpool::spatial::QuadTree;

constexpr float kSide = 8000.0f;
constexpr int kFrames = 24;

struct Rock {
  float x, y, dx, dy;
  Aabb box() const { return {x - 2.0f, y - 2.0f, x + 2.0f, y + 2.0f}; }
  void move() {
    x += dx;
    y += dy;
    if (x < 0.0f || x > kSide) dx = -dx;
    if (y < 0.0f || y > kSide) dy = -dy;
  }
};

// The same field every time: a small linear congruential generator, so the example needs nothing
// but the engine.
std::vector<Rock> spawn(std::size_t count) {
  std::uint32_t state = 2026;
  const auto unit = [&state] {
    state = state * 1664525u + 1013904223u;
    return static_cast<float>(state >> 8) * 0x1.0p-24f;
  };
  std::vector<Rock> rocks(count);
  for (Rock& r : rocks) r = {unit() * kSide, unit() * kSide, unit() - 0.5f, unit() - 0.5f};
  return rocks;
}

struct Run {
  double rebuild_ms = 0.0;         // summed over the frames after the first
  std::vector<std::size_t> pairs;  // a count each frame
};

Run run(std::size_t count, bool keep_tree_order) {
  std::vector<Rock> rocks = spawn(count), sorted(count);
  std::vector<Aabb> boxes(count);
  QuadTree tree({.bounds = {0.0f, 0.0f, kSide, kSide}});
  Run result;
  for (int frame = 0; frame < kFrames; ++frame) {
    for (std::size_t i = 0; i < count; ++i) {
      rocks[i].move();
      boxes[i] = rocks[i].box();
    }
    const auto start = std::chrono::steady_clock::now();
    tree.rebuild(boxes);
    // The first frame makes the tree's buffers; the frames after it are the steady state.
    if (frame > 0) {
      result.rebuild_ms +=
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
              .count();
    }
    if (keep_tree_order && frame % 4 == 0 && tree.stats().rejected_boxes == 0) {
      const std::span<const std::uint32_t> order = tree.item_order();  // ids, leaf by leaf
      for (std::size_t i = 0; i < order.size(); ++i) sorted[i] = rocks[order[i]];
      rocks.swap(sorted);
      tree.renumber_in_item_order();  // the tree's ids are now the rocks' new indices
    }
    std::size_t pairs = 0;
    tree.for_each_pair([&pairs](std::uint32_t, std::uint32_t) { ++pairs; });
    result.pairs.push_back(pairs);
  }
  return result;
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t count = 200'000;
  if (argc > 2) {
    std::fprintf(stderr, "box_order: takes one argument, ROCKS, at most\n");
    return 2;
  }
  if (argc == 2) {
    char* end = nullptr;
    const long long value = std::strtoll(argv[1], &end, 10);
    if (*end != '\0' || value < 1 || value > 4'000'000) {
      std::fprintf(stderr, "box_order: ROCKS is '%s'; it must be one integer from 1 to 4000000\n",
                   argv[1]);
      return 2;
    }
    count = static_cast<std::size_t>(value);
  }
  const Run spawned = run(count, false);
  const Run sorted = run(count, true);
  for (std::size_t frame = 0; frame < spawned.pairs.size(); ++frame) {
    if (spawned.pairs[frame] != sorted.pairs[frame]) {
      std::fprintf(stderr, "box_order: frame %zu: %zu pairs in spawn order, %zu in the tree's\n",
                   frame, spawned.pairs[frame], sorted.pairs[frame]);
      return 1;
    }
  }
  std::printf(
      "box_order: %zu rocks, %d frames: rebuild %.2f ms a frame in spawn order, %.2f in the "
      "tree's order (%.2fx); %zu pairs in the last frame either way\n",
      count, kFrames - 1, spawned.rebuild_ms / (kFrames - 1), sorted.rebuild_ms / (kFrames - 1),
      sorted.rebuild_ms / spawned.rebuild_ms, sorted.pairs.back());
  return 0;
}
