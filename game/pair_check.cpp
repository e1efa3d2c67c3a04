#include "game/pair_check.hpp"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

namespace quadpool::game {

namespace {

bool pair_less(const Pair& x, const Pair& y) noexcept {
  return x.a != y.a ? x.a < y.a : x.b < y.b;
}

std::string box_text(std::span<const spatial::Aabb> boxes, std::uint32_t i) {
  if (i >= boxes.size()) return fmt::format("#{} (out of range)", i);
  const spatial::Aabb& b = boxes[i];
  return fmt::format("#{} [{}, {}]x[{}, {}]", i, b.min_x, b.max_x, b.min_y, b.max_y);
}

}  // namespace

std::string describe(const PairMismatch& mismatch, std::span<const spatial::Aabb> boxes) {
  const char* what = "";
  switch (mismatch.kind) {
    case PairMismatch::Kind::Missing:
      what = "missing (the boxes overlap)";
      break;
    case PairMismatch::Kind::Spurious:
      what = "reported but the boxes do not overlap";
      break;
    case PairMismatch::Kind::Duplicate:
      what = "reported more than once";
      break;
    case PairMismatch::Kind::NotOrdered:
      what = "reported with a >= b";
      break;
  }
  return fmt::format("pair ({}, {}) {}: {} and {}", mismatch.pair.a, mismatch.pair.b, what,
                     box_text(boxes, mismatch.pair.a), box_text(boxes, mismatch.pair.b));
}

std::span<const Pair> PairChecker::reference_pairs(std::span<const spatial::Aabb> boxes) {
  order_.resize(boxes.size());
  for (std::size_t i = 0; i < boxes.size(); ++i) order_[i] = static_cast<std::uint32_t>(i);
  std::sort(order_.begin(), order_.end(), [&](std::uint32_t x, std::uint32_t y) {
    return boxes[x].min_x != boxes[y].min_x ? boxes[x].min_x < boxes[y].min_x : x < y;
  });
  reference_.clear();
  for (std::size_t i = 0; i < order_.size(); ++i) {
    const spatial::Aabb& first = boxes[order_[i]];
    // Every later box starts at or after first.min_x; once one starts beyond first.max_x, all
    // the rest do too.
    for (std::size_t j = i + 1; j < order_.size() && boxes[order_[j]].min_x <= first.max_x; ++j) {
      if (spatial::overlaps(first, boxes[order_[j]])) {
        reference_.push_back({std::min(order_[i], order_[j]), std::max(order_[i], order_[j])});
      }
    }
  }
  std::sort(reference_.begin(), reference_.end(), pair_less);
  return reference_;
}

std::optional<PairMismatch> PairChecker::check(std::span<const spatial::Aabb> boxes,
                                               std::span<const Pair> reported) {
  for (const Pair& p : reported) {
    if (p.a >= p.b) return PairMismatch{PairMismatch::Kind::NotOrdered, p};
    if (p.b >= boxes.size()) return PairMismatch{PairMismatch::Kind::Spurious, p};
  }
  sorted_.assign(reported.begin(), reported.end());
  std::sort(sorted_.begin(), sorted_.end(), pair_less);
  const auto duplicate = std::adjacent_find(sorted_.begin(), sorted_.end());
  if (duplicate != sorted_.end()) return PairMismatch{PairMismatch::Kind::Duplicate, *duplicate};

  const std::span<const Pair> expected = reference_pairs(boxes);
  // Walk both sorted lists; the first difference in (a, b) order is the one reported.
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < expected.size() || j < sorted_.size()) {
    if (j == sorted_.size() || (i < expected.size() && pair_less(expected[i], sorted_[j]))) {
      return PairMismatch{PairMismatch::Kind::Missing, expected[i]};
    }
    if (i == expected.size() || pair_less(sorted_[j], expected[i])) {
      return PairMismatch{PairMismatch::Kind::Spurious, sorted_[j]};
    }
    ++i;
    ++j;
  }
  return std::nullopt;
}

}  // namespace quadpool::game
