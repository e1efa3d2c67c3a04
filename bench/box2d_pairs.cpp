#include "bench/box2d_pairs.hpp"

#include <box2d/b2_broad_phase.h>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <utility>

#include "bench/hilbert_order.hpp"

namespace quadpool::bench {

namespace {

constexpr std::uint64_t kEmptySlot = ~std::uint64_t{0};
constexpr std::size_t kPrefetchAhead = 16;

b2AABB to_b2(const spatial::Aabb& box, float meters_per_unit) {
  b2AABB out;
  out.lowerBound.Set(box.min_x * meters_per_unit, box.min_y * meters_per_unit);
  out.upperBound.Set(box.max_x * meters_per_unit, box.max_y * meters_per_unit);
  return out;
}

// An open-addressing set of pair keys with linear probing and backward-shift deletion, beside a
// dense array of its keys for the sweep. Box2D's contact manager finds an existing contact by
// walking a body's contact list; a hash set is the cheaper equivalent here.
class PairSet {
 public:
  void insert(std::uint64_t key) {
    if ((pairs_.size() + 1) * 2 > slots_.size()) grow();
    std::size_t i = home(key);
    while (slots_[i] != kEmptySlot) {
      if (slots_[i] == key) return;
      i = (i + 1) & mask_;
    }
    slots_[i] = key;
    pairs_.push_back(key);
  }

  // Keeps the keys for which keep(key) is true; the others leave the set.
  template <class Keep>
  void sweep(Keep&& keep) {
    std::size_t kept = 0;
    for (const std::uint64_t key : pairs_) {
      if (keep(key)) {
        pairs_[kept++] = key;
      } else {
        erase(key);
      }
    }
    pairs_.resize(kept);
  }

  std::span<const std::uint64_t> keys() const { return pairs_; }

 private:
  std::size_t home(std::uint64_t key) const {
    return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> shift_);
  }

  void erase(std::uint64_t key) {
    std::size_t i = home(key);
    while (slots_[i] != key) i = (i + 1) & mask_;
    // Backward shift: pull later members of the probe run into the hole when their home slot
    // does not lie (cyclically) between the hole and their current slot.
    std::size_t j = i;
    for (;;) {
      j = (j + 1) & mask_;
      if (slots_[j] == kEmptySlot) break;
      const std::size_t k = home(slots_[j]);
      const bool k_in_hole_to_j = i <= j ? (i < k && k <= j) : (i < k || k <= j);
      if (!k_in_hole_to_j) {
        slots_[i] = slots_[j];
        i = j;
      }
    }
    slots_[i] = kEmptySlot;
  }

  void grow() {
    const std::size_t capacity = slots_.empty() ? 1024 : slots_.size() * 2;
    slots_.assign(capacity, kEmptySlot);
    mask_ = capacity - 1;
    shift_ = 64 - std::countr_zero(capacity);
    for (const std::uint64_t key : pairs_) {
      std::size_t i = home(key);
      while (slots_[i] != kEmptySlot) i = (i + 1) & mask_;
      slots_[i] = key;
    }
  }

  std::vector<std::uint64_t> slots_;
  std::vector<std::uint64_t> pairs_;
  std::size_t mask_ = 0;
  int shift_ = 64;
};

}  // namespace

// Proxies are known by their creation rank k: proxy[k] is the k-th proxy created, for the box
// order[k]; its user data is k, and the pair keys are pairs of ranks.
struct Box2dPairs::Impl {
  float meters_per_unit;
  b2BroadPhase broad_phase;
  std::vector<std::uint32_t> order;  // box index of each rank
  std::vector<int32> proxy;          // Box2D's proxy ids are tree node indices, not ranks
  std::vector<spatial::Aabb> current, previous;  // by rank, in world units
  PairSet live;
  std::vector<std::uint64_t> overlapping;

  // Called by b2BroadPhase::UpdatePairs with the user data (ranks) of the two proxies.
  void AddPair(void* user_a, void* user_b) {
    auto a = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(user_a));
    auto b = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(user_b));
    if (a > b) std::swap(a, b);
    live.insert(a << 32 | b);
  }
};

Box2dPairs::Box2dPairs(std::span<const spatial::Aabb> boxes, float units_per_meter)
    : impl_(std::make_unique<Impl>()) {
  Impl& impl = *impl_;
  impl.meters_per_unit = 1.0f / units_per_meter;
  impl.order = hilbert_order(boxes);
  impl.proxy.reserve(boxes.size());
  impl.current.reserve(boxes.size());
  for (std::size_t k = 0; k < boxes.size(); ++k) {
    const spatial::Aabb& box = boxes[impl.order[k]];
    impl.current.push_back(box);
    impl.proxy.push_back(impl.broad_phase.CreateProxy(
        to_b2(box, impl.meters_per_unit), reinterpret_cast<void*>(static_cast<std::uintptr_t>(k))));
  }
  impl.previous = impl.current;
}

Box2dPairs::~Box2dPairs() = default;

void Box2dPairs::move(std::span<const spatial::Aabb> boxes) {
  Impl& impl = *impl_;
  const float scale = impl.meters_per_unit;
  impl.previous.swap(impl.current);
  const std::size_t count = impl.proxy.size();
  for (std::size_t k = 0; k < count; ++k) {
    // The boxes are read in creation order, which is not theirs: fetch a few ahead.
    if (k + kPrefetchAhead < count) __builtin_prefetch(&boxes[impl.order[k + kPrefetchAhead]]);
    const spatial::Aabb& box = boxes[impl.order[k]];
    const spatial::Aabb& was = impl.previous[k];
    const b2Vec2 displacement((box.min_x - was.min_x) * scale, (box.min_y - was.min_y) * scale);
    impl.broad_phase.MoveProxy(impl.proxy[k], to_b2(box, scale), displacement);
    impl.current[k] = box;
  }
}

std::span<const std::uint64_t> Box2dPairs::overlapping_pairs() {
  Impl& impl = *impl_;
  impl.broad_phase.UpdatePairs(&impl);
  impl.overlapping.clear();
  impl.live.sweep([&](std::uint64_t key) {
    const auto a = static_cast<std::uint32_t>(key >> 32);
    const auto b = static_cast<std::uint32_t>(key);
    if (!impl.broad_phase.TestOverlap(impl.proxy[a], impl.proxy[b])) return false;
    if (spatial::overlaps(impl.current[a], impl.current[b])) {
      const std::uint64_t box_a = impl.order[a];
      const std::uint64_t box_b = impl.order[b];
      impl.overlapping.push_back(box_a < box_b ? box_a << 32 | box_b : box_b << 32 | box_a);
    }
    return true;
  });
  return impl.overlapping;
}

}  // namespace quadpool::bench
