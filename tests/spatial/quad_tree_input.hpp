#pragma once
// One quad-tree fuzz input, run and checked: shared by the libFuzzer target
// (tests/fuzz/quad_tree_fuzz.cpp) and by spatial_tests, which replays the committed corpus
// without libFuzzer. The bytes choose a configuration, a node source and a set of boxes (on a
// coarse lattice that includes the world's edges and its quadrant lines, so touching, identical,
// zero-size, outside and oversized boxes are common, plus some raw float coordinates). The tree
// is rebuilt, validated, and its pairs and one query are compared with brute force; then it is
// rebuilt from the other node source and must report the same pairs in the same order, and once
// more with some boxes moved, reporting what a fresh tree reports. Ray casts and nearest queries
// are checked too (tests/spatial/query_checks.hpp), taken from the boxes themselves so that the
// input's layout stays what it was: rays from box corners along both axes, to other boxes'
// corners (as segments and without end) and of zero length, and points at the corners and
// centres of boxes.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "engine/spatial/brute_force.hpp"
#include "engine/spatial/quad_tree.hpp"
#include "engine/spatial/ray.hpp"
#include "tests/spatial/query_checks.hpp"

namespace quadpool::test {

namespace quad_tree_input {

using Pair = std::pair<std::uint32_t, std::uint32_t>;

// Reads the input front to back; past the end every read is zero.
class Bytes {
 public:
  Bytes(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  bool empty() const { return at_ >= size_; }
  std::uint8_t byte() { return at_ < size_ ? data_[at_++] : 0; }
  float raw_float() {
    std::uint32_t bits = 0;
    for (int i = 0; i < 4; ++i) bits = bits << 8 | byte();
    float value;
    std::memcpy(&value, &bits, sizeof value);
    // A NaN box is only left out (a test of its own covers that): keep every box in play here.
    return std::isnan(value) ? 0.0f : value;
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t at_ = 0;
};

// Ray casts and nearest queries on up to eight of the boxes, against brute force.
inline std::string check_queries(const spatial::QuadTree& tree,
                                 std::span<const spatial::Aabb> boxes, float world_width) {
  using spatial::Ray;
  constexpr float kNoEnd = std::numeric_limits<float>::infinity();
  const std::size_t step = boxes.size() / 8 + 1;
  for (std::size_t i = 0; i < boxes.size(); i += step) {
    const spatial::Aabb& a = boxes[i];
    const spatial::Aabb& b = boxes[(i * 7 + 3) % boxes.size()];
    const float cx = 0.5f * a.min_x + 0.5f * a.max_x, cy = 0.5f * a.min_y + 0.5f * a.max_y;
    const Ray rays[] = {{a.min_x, a.min_y, 1, 0, world_width},
                        {a.max_x, a.max_y, 0, -1, world_width},
                        {a.min_x, a.max_y, -1, 0, kNoEnd},
                        {a.min_x, a.min_y, b.max_x - a.min_x, b.max_y - a.min_y, 1},
                        {a.max_x, a.min_y, b.min_x - a.max_x, b.max_y - a.min_y, kNoEnd},
                        {cx, cy, 0, 0, 0},
                        {cx, cy, b.min_x - cx, b.min_y - cy, 0.5f}};
    for (const Ray& ray : rays) {
      if (std::string error = test::check_ray(tree, boxes, ray); !error.empty()) return error;
    }
    const float points[][2] = {
        {a.min_x, a.min_y}, {a.max_x, a.max_y}, {cx, cy}, {b.min_x, a.max_y}};
    for (const auto& p : points) {
      for (const std::size_t k : {1u, 3u, 17u, 150u}) {  // 150: past nearest()'s stack buffer
        if (std::string error = test::check_nearest(tree, boxes, p[0], p[1], k); !error.empty()) {
          return error;
        }
      }
    }
  }
  return {};
}

inline std::vector<Pair> pairs_of(const spatial::QuadTree& tree) {
  std::vector<Pair> pairs;
  tree.for_each_pair([&](std::uint32_t a, std::uint32_t b) { pairs.emplace_back(a, b); });
  return pairs;
}

}  // namespace quad_tree_input

/// Runs one input; returns "" when the tree agrees with brute force, else what went wrong. A
/// failed validate() fires QUADPOOL_ASSERT.
inline std::string run_quad_tree_input(const std::uint8_t* data, std::size_t size) {
  using namespace spatial;
  using quad_tree_input::Bytes;
  using quad_tree_input::Pair;
  using quad_tree_input::pairs_of;

  Bytes in(data, size);
  const QuadTreeConfig config{
      .bounds = {0.0f, 0.0f, 64.0f, 32.0f + static_cast<float>(in.byte() % 64)},
      .max_depth = 1 + in.byte() % 16,
      .leaf_capacity = 1 + in.byte() % 12};
  const memory::AllocatorKind first_kind =
      in.byte() % 2 == 0 ? memory::AllocatorKind::Pool : memory::AllocatorKind::NewDelete;
  const float lattice_x = (config.bounds.max_x - config.bounds.min_x) / 16.0f;
  const float lattice_y = (config.bounds.max_y - config.bounds.min_y) / 16.0f;

  std::vector<Aabb> boxes;
  while (!in.empty() && boxes.size() < 400) {
    const std::uint8_t kind = in.byte();
    Aabb box;
    if (kind % 8 == 7) {  // raw floats: huge, tiny, infinite
      box = {in.raw_float(), in.raw_float(), in.raw_float(), in.raw_float()};
    } else {  // lattice points from -2 to 18 sixteenths of the world on each axis
      const auto x0 = static_cast<float>(in.byte() % 21) - 2.0f;
      const auto y0 = static_cast<float>(in.byte() % 21) - 2.0f;
      const std::uint8_t extent = in.byte();
      box = {x0 * lattice_x, y0 * lattice_y, (x0 + static_cast<float>(extent % 5)) * lattice_x,
             (y0 + static_cast<float>(extent / 5 % 5)) * lattice_y};
    }
    if (box.min_x > box.max_x) std::swap(box.min_x, box.max_x);
    if (box.min_y > box.max_y) std::swap(box.min_y, box.max_y);
    boxes.push_back(box);
  }
  const Aabb area = boxes.empty() ? config.bounds : boxes.back();

  QuadTree tree(config, first_kind);
  tree.rebuild(boxes);
  tree.validate();
  const std::vector<Pair> reported = pairs_of(tree);
  std::vector<Pair> sorted = reported;
  std::sort(sorted.begin(), sorted.end());
  std::vector<Pair> expected;
  brute_force_pairs(boxes, [&](std::uint32_t a, std::uint32_t b) { expected.emplace_back(a, b); });
  if (sorted != expected) return "the pairs differ from brute force";

  std::vector<std::uint32_t> hits, expected_hits;
  tree.query(area, [&](std::uint32_t id) { hits.push_back(id); });
  std::sort(hits.begin(), hits.end());
  brute_force_query(boxes, area, [&](std::uint32_t id) { expected_hits.push_back(id); });
  if (hits != expected_hits) return "the query differs from brute force";
  if (std::string error = quad_tree_input::check_queries(
          tree, boxes, config.bounds.max_x - config.bounds.min_x);
      !error.empty()) {
    return error;
  }

  tree.set_allocator(first_kind == memory::AllocatorKind::Pool ? memory::AllocatorKind::NewDelete
                                                       : memory::AllocatorKind::Pool);
  tree.rebuild(boxes);
  tree.validate();
  if (pairs_of(tree) != reported)
    return "the other node source reports other pairs or another order";

  // The next frame starts from this frame's order (few boxes moved: repaired; many: sorted
  // again) and must report what a fresh tree reports, in the same order.
  std::vector<Aabb> moved = boxes;
  const std::size_t step = 1 + boxes.size() % 24;  // every box to one in 24
  for (std::size_t i = 0; i < moved.size(); i += step) {
    moved[i].min_x += lattice_x;
    moved[i].max_x += lattice_x;
    moved[i].min_y -= 0.5f * lattice_y;
    moved[i].max_y -= 0.5f * lattice_y;
  }
  tree.rebuild(moved);
  tree.validate();
  QuadTree fresh(config);
  fresh.rebuild(moved);
  if (pairs_of(tree) != pairs_of(fresh))
    return "a tree rebuilt after a move reports other pairs or another order than a fresh one";
  return {};
}

}  // namespace quadpool::test
