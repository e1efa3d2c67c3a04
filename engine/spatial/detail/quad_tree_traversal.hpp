#pragma once
/// The template traversal of QuadTree (quad_tree.hpp, which includes this file at its end):
/// for_each_pair(), query() and for_each_node(), and the recursion behind them. Include
/// engine/spatial/quad_tree.hpp, not this file.

#include <bit>
#include <cstdint>

#include "engine/spatial/aabb.hpp"
#include "engine/spatial/detail/box_columns.hpp"
#include "engine/spatial/detail/quad_tree_node.hpp"
#include "engine/spatial/detail/wide_kernels.hpp"
#include "engine/spatial/quad_tree.hpp"

namespace quadpool::spatial {

template <class F>
void QuadTree::for_each_pair(F&& f) const {
  if (root_ != nullptr) pairs_within(root_, f);
}

template <class F>
void QuadTree::for_each_pair_in(const PairPiece& piece, F&& f) const {
  if (piece.b == nullptr) {
    pairs_within(piece.a, f);
  } else {
    pairs_between(piece.a, piece.b, f);
  }
}

template <class F>
void QuadTree::query(const Aabb& area, F&& f) const {
  if (root_ != nullptr) query_node(root_, area, f);
}

template <class F>
void QuadTree::for_each_node(F&& f) const {
  if (root_ != nullptr) visit_nodes(root_, config_.bounds, f);
}

// report() runs once per pair, and GCC left it out of line in the parallel pair search's kernels
// (with the caller's callback inlined into it): forced inline, the pair search takes 3 % less
// time at 1M sprites.
#if defined(__GNUC__) || defined(__clang__)
#define QUADPOOL_DETAIL_ALWAYS_INLINE [[gnu::always_inline]] inline
#else
#define QUADPOOL_DETAIL_ALWAYS_INLINE inline
#endif

template <class F>
QUADPOOL_DETAIL_ALWAYS_INLINE void QuadTree::report(std::uint32_t i, std::uint32_t j, F& f) const {
  // Items are ordered by cell, so the ids of a pair can come in either order.
  const std::uint32_t a = item_ids_[i], b = item_ids_[j];
  if (a < b) {
    f(a, b);
  } else {
    f(b, a);
  }
}

template <class F>
void QuadTree::pairs_within_leaf(const Node* leaf, F& f) const {
  const std::uint32_t first = leaf->first_item;
  const std::uint32_t end = leaf->end_item;
  if constexpr (detail::kWideKernelsBuilt) {
    if (end - first <= detail::kMaskWidth && detail::wide_kernels_enabled()) {
      std::uint64_t words[detail::kLeafWordsPerRowPair * detail::kMaskWidth / 2];
      detail::leaf_overlap_words(detail::view_of(columns_), first, end, words);
      report_leaf_words(first, end, words, f);
      return;
    }
  }
  // Two boxes at a time: their own pair, then both against the rest of the leaf in one pass.
  for (std::uint32_t i = first; i + 1 < end; i += 2) {
    const Aabb a = columns_.get(i);
    const Aabb b = columns_.get(i + 1);
    if (overlaps(a, b)) report(i, i + 1, f);
    detail::for_each_overlap2(
        detail::view_of(columns_), i + 2, end, a, b, [&](std::uint32_t j) { report(i, j, f); },
        [&](std::uint32_t j) { report(i + 1, j, f); });
  }
}

template <class F>
void QuadTree::report_leaf_words(std::uint32_t first, std::uint32_t end, const std::uint64_t* words,
                                 F& f) const {
  // The words that hold a hit are gathered first, without a branch, and one walk then visits
  // every hit of the leaf in the 4-wide loop's order (see leaf_overlap_words): a branch per
  // pair, not several per row.
  constexpr std::uint32_t kWords = detail::kLeafWordsPerRowPair * detail::kMaskWidth / 2;
  std::uint64_t bits[kWords + 1];
  std::uint32_t row[kWords + 1], column[kWords + 1];
  std::uint32_t count = 0;
  const auto keep = [&](std::uint64_t word, std::uint32_t r, std::uint32_t c) {
    bits[count] = word;
    row[count] = r;
    column[count] = c;
    count += word != 0 ? 1u : 0u;
  };
  const std::uint32_t n = end - first;
  for (std::uint32_t r = 0; r + 1 < n; r += 2, words += detail::kLeafWordsPerRowPair) {
    keep(words[0], first + r, first + r + 1);
    keep(words[1], first + r, first + r + 2);
    keep(words[2], first + r, first + r + detail::kLeafHighColumns);
  }
  bits[count] = 0;
  detail::for_each_set_bit(bits, count, [&](std::uint32_t w, std::uint32_t bit) {
    report(row[w] + ((bit >> 2) & 1u), column[w] + 4 * (bit >> 3) + (bit & 3u), f);
  });
}

template <class F>
void QuadTree::pairs_within(const Node* node, F& f) const {
  if (node->is_leaf()) {
    pairs_within_leaf(node, f);
    return;
  }
  const int count = node->child_count;
  for (int i = 0; i < count; ++i) pairs_within(node->children[i], f);
  // A pair whose boxes sit under two different children is found here, once: each box is
  // stored in one leaf, so the pair belongs to exactly one (node, child i, child j) triple.
  for (int i = 0; i < count; ++i) {
    for (int j = i + 1; j < count; ++j) {
      if (overlaps(node->children[i]->loose, node->children[j]->loose)) {
        pairs_between(node->children[i], node->children[j], f);
      }
    }
  }
}

template <class F>
void QuadTree::pairs_between(const Node* a, const Node* b, F& f) const {
  // The caller has checked that a's and b's loose bounds overlap; children are checked here,
  // before the call, because most of them miss and a call costs more than the test.
  if (a->is_leaf() && b->is_leaf()) {
    pairs_between_leaves(a, b, f);
    return;
  }
  // Split the bigger side, so that both sides shrink at about the same rate.
  if (b->is_leaf() || (!a->is_leaf() && a->item_count() >= b->item_count())) {
    for (int i = 0; i < a->child_count; ++i) {
      if (overlaps(a->children[i]->loose, b->loose)) pairs_between(a->children[i], b, f);
    }
  } else {
    for (int i = 0; i < b->child_count; ++i) {
      if (overlaps(a->loose, b->children[i]->loose)) pairs_between(a, b->children[i], f);
    }
  }
}

template <class F>
void QuadTree::pairs_between_leaves(const Node* a, const Node* b, F& f) const {
  // A pair's overlap lies inside both leaves' bounds, so only boxes that reach into the
  // intersection of the two can be part of one; near a shared edge that is a few of each.
  const Aabb& la = a->loose;
  const Aabb& lb = b->loose;
  const Aabb shared{
      la.min_x > lb.min_x ? la.min_x : lb.min_x, la.min_y > lb.min_y ? la.min_y : lb.min_y,
      la.max_x < lb.max_x ? la.max_x : lb.max_x, la.max_y < lb.max_y ? la.max_y : lb.max_y};
  if constexpr (detail::kWideKernelsBuilt) {
    if (a->item_count() <= detail::kMaskWidth && b->item_count() <= detail::kMaskWidth &&
        detail::wide_kernels_enabled()) {
      std::uint32_t a_slots[detail::kMaskWidth], b_slots[detail::kMaskWidth + 8];
      std::uint64_t masks[detail::kMaskWidth + 1];
      const std::uint32_t rows =
          detail::leaf_pair_masks(detail::view_of(columns_), a->first_item, a->end_item,
                                  b->first_item, b->end_item, shared, a_slots, masks, b_slots);
      masks[rows] = 0;
      detail::for_each_set_bit(masks, rows, [&](std::uint32_t r, std::uint32_t bit) {
        report(a_slots[r], b_slots[bit], f);
      });
      return;
    }
  }
  // b's candidates are copied into a small local set of columns, so that each of a's is tested
  // against them four at a time.
  detail::CandidateColumns from_b;
  bool b_overflowed = false;
  detail::for_each_overlap(columns_, b->first_item, b->end_item, shared, [&](std::uint32_t j) {
    if (!from_b.push(columns_, j)) b_overflowed = true;
  });
  if (from_b.count == 0) return;
  from_b.seal();
  detail::for_each_overlap(columns_, a->first_item, a->end_item, shared, [&](std::uint32_t i) {
    const Aabb box = columns_.get(i);
    if (b_overflowed) {  // a crowded leaf at max_depth: test the whole of b
      detail::for_each_overlap(columns_, b->first_item, b->end_item, box,
                               [&](std::uint32_t j) { report(i, j, f); });
      return;
    }
    detail::for_each_overlap(from_b.view(), 0, from_b.count, box,
                             [&](std::uint32_t k) { report(i, from_b.slot[k], f); });
  });
}

template <class F>
void QuadTree::query_node(const Node* node, const Aabb& area, F& f) const {
  if (!overlaps(node->loose, area)) return;
  if (node->is_leaf()) {
    detail::for_each_overlap(columns_, node->first_item, node->end_item, area,
                             [&](std::uint32_t i) { f(item_ids_[i]); });
    return;
  }
  for (int i = 0; i < node->child_count; ++i) query_node(node->children[i], area, f);
}

template <class F>
void QuadTree::visit_nodes(const Node* node, const Aabb& quadrant, F& f) const {
  f(static_cast<const Aabb&>(quadrant), static_cast<int>(node->depth));
  for (int i = 0; i < node->child_count; ++i) {
    const Node* child = node->children[i];
    visit_nodes(child, detail::child_quadrant(quadrant, child->quadrant_index), f);
  }
}

}  // namespace quadpool::spatial

#undef QUADPOOL_DETAIL_ALWAYS_INLINE
