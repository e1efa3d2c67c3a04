#pragma once
/// EntityTree<T>: a QuadTree over the entities of one store (threats, hunters), rebuilt when the
/// rules ask, so that they find what a path meets first (ray_cast) and what is nearest (nearest)
/// by the engine's queries instead of scanning, and answer with handles.
///
/// An entity's box is its circle's: centre motion.position, half-side radius. The box is as of
/// the last rebuild(): an entity that moved since is found by its old box, so callers test the
/// entity itself (get() by the handle) before they act.
///
/// The tree's nodes follow the world's allocator switch, and its buffers are sized to the store's
/// budget at construction, so a warm rebuild in Pool mode makes no heap allocation.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "engine/memory/allocator_kind.hpp"
#include "engine/memory/handle.hpp"
#include "engine/spatial/aabb.hpp"
#include "engine/spatial/quad_tree.hpp"
#include "engine/spatial/ray.hpp"
#include "game/play/entity_store.hpp"
#include "game/play/vec2.hpp"

namespace quadpool::game::play {

template <class T>
class EntityTree {
 public:
  using Handle = memory::Handle<T>;
  /// The most entities nearest() returns at once.
  static constexpr std::size_t kMostNearest = 16;

  /// A tree over the world [0, side]^2 (entities outside it are found all the same), its buffers
  /// grown for `budget` entities.
  EntityTree(float side, std::size_t budget, memory::AllocatorKind kind)
      : tree_(spatial::QuadTreeConfig{.bounds = {0.0f, 0.0f, side, side},
                                      .max_depth = kMaxDepth,
                                      .leaf_capacity = kLeafCapacity},
              kind) {
    boxes_.reserve(budget);
    handles_.reserve(budget);
    warm_up(side, budget);
  }

  /// The tree's nodes come from `kind` from the next rebuild on.
  void set_allocator(memory::AllocatorKind kind) noexcept { tree_.set_allocator(kind); }

  /// Rebuilds the tree from every live entity of `store`, in the store's order.
  void rebuild(const EntityStore<T>& store) {
    boxes_.clear();
    handles_.clear();
    store.for_each([&](Handle h, const T& entity) {
      const Vec2 at = entity.motion.position;
      boxes_.push_back(
          {at.x - entity.radius, at.y - entity.radius, at.x + entity.radius, at.y + entity.radius});
      handles_.push_back(h);
    });
    tree_.rebuild(boxes_);
  }

  /// QuadTree::ray_cast() of the segment `from` + t * `path`, 0 <= t <= max_t, swept by a square
  /// of half-side `radius`: calls float f(Handle, float t) as the tree calls its callback with an
  /// id, and f answers the same way (the new limit).
  template <class F>
  void ray_cast(Vec2 from, Vec2 path, float max_t, float radius, F&& f) const {
    tree_.ray_cast(spatial::Ray{from.x, from.y, path.x, path.y, max_t}, radius,
                   [&](std::uint32_t id, float t) { return f(handles_[id], t); });
  }

  /// Writes to `out` the handles of the out.size() (at most kMostNearest) entities whose boxes
  /// are nearest to `at`, nearest first (QuadTree::nearest()); returns how many.
  std::size_t nearest(Vec2 at, std::span<Handle> out) const {
    std::array<std::uint32_t, kMostNearest> ids{};
    const std::size_t k = std::min(out.size(), ids.size());
    const std::size_t found = tree_.nearest(at.x, at.y, std::span(ids).first(k));
    for (std::size_t i = 0; i < found; ++i) out[i] = handles_[ids[i]];
    return found;
  }

  /// Entities in the tree as of the last rebuild().
  std::size_t size() const noexcept { return handles_.size(); }

 private:
  static constexpr int kMaxDepth = 6;
  static constexpr int kLeafCapacity = 8;

  // Builds the tree once with the budget's boxes in groups of one more than a leaf holds, each
  // group in one spot: every group splits down to max_depth, the most nodes per box any rebuild
  // can ask for, so the node pool and the tree's buffers start as large as they ever need be.
  void warm_up(float side, std::size_t budget) {
    const std::size_t group = kLeafCapacity + 1;
    const std::size_t groups = (budget + group - 1) / group;
    const auto columns =
        static_cast<std::size_t>(std::ceil(std::sqrt(static_cast<double>(groups))));
    const float step = side / static_cast<float>(std::max<std::size_t>(columns, 1));
    for (std::size_t i = 0; i < budget; ++i) {
      const std::size_t spot = i / group;
      const float x = step * (static_cast<float>(spot % columns) + 0.5f);
      const float y = step * (static_cast<float>(spot / columns) + 0.5f);
      boxes_.push_back({x, y, x, y});
    }
    tree_.rebuild(boxes_);
    boxes_.clear();
    tree_.rebuild(boxes_);
  }

  spatial::QuadTree tree_;
  std::vector<spatial::Aabb> boxes_;
  std::vector<Handle> handles_;  // per id of the tree
};

}  // namespace quadpool::game::play
