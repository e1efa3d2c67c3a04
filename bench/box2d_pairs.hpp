#pragma once
// Box2D 2.4's broad phase (b2BroadPhase, a dynamic AABB tree) driven the way b2World drives it,
// so that it yields every overlapping pair each frame. Bench-only; compiled only when Debian's
// libbox2d-dev is found (QUADPOOL_HAVE_BOX2D).
//
// b2BroadPhase does not keep pairs: UpdatePairs() reports only pairs that may have *started* to
// overlap, for proxies whose fat AABB had to be moved. Like b2ContactManager, this class keeps
// the set of live pairs itself: UpdatePairs() adds to it, and a sweep drops the pairs whose fat
// AABBs no longer overlap. The pairs whose real boxes overlap are then reported. That sweep is
// part of what Box2D needs to answer "which pairs overlap this frame", so the benchmark times it.

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "engine/spatial/aabb.hpp"

namespace quadpool::bench {

class Box2dPairs {
 public:
  /// Creates one proxy per box. Box2D works in meters and its fat-AABB margin (b2_aabbExtension,
  /// 0.1 m) is tuned for objects of about a meter, so boxes are divided by `units_per_meter` on
  /// the way in, as a game converts pixels to meters.
  ///
  /// The proxies are created in the order of a Hilbert curve through the boxes' centres, not in
  /// the boxes' order. b2DynamicTree builds itself by inserting one leaf at a time and keeps its
  /// nodes in allocation order, so a level created region by region gets a tree whose nearby
  /// nodes are near in memory; a million proxies created in random order give a tree in which
  /// every query touches hundreds of nodes scattered over 100 MB (docs/spatial.md, "At 100k
  /// and 1M sprites"). Creation is not timed.
  Box2dPairs(std::span<const spatial::Aabb> boxes, float units_per_meter);
  ~Box2dPairs();
  Box2dPairs(const Box2dPairs&) = delete;
  Box2dPairs& operator=(const Box2dPairs&) = delete;

  /// b2BroadPhase::MoveProxy for every box, with its displacement since the last frame (Box2D
  /// stretches the fat AABB along it), in creation order (b2World walks its body list, newest
  /// first: the same neighbourhoods, the other way round), and keeps this frame's boxes. `boxes` has as many boxes as
  /// the constructor's.
  void move(std::span<const spatial::Aabb> boxes);

  /// UpdatePairs, then the sweep; returns the live pairs whose real boxes (those of the last
  /// move()) overlap, as box indices (a << 32 | b) with a < b, in no particular order.
  std::span<const std::uint64_t> overlapping_pairs();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace quadpool::bench
