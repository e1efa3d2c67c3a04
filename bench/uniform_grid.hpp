#pragma once
// A uniform grid rebuilt every frame: the baseline that the QuadTree's benchmark has to stay
// close to. Bench-only code, written to be fast rather than general:
// - each box is stored once, in the cell of its centre (clamped into the world);
// - a pair is looked for in the box's own cell and in four of its eight neighbours (right, and
//   the three cells of the row above), so each pair of cells is visited once;
// - precondition: no box is wider or taller than one cell (cell = 2 x the largest radius), so
//   overlapping boxes have centres at most one cell apart.
// The build is a counting sort: count per cell, prefix sums, scatter, so every cell's boxes are
// contiguous and a frame allocates nothing once the arrays have grown.

#include <cstdint>
#include <span>
#include <vector>

#include "engine/spatial/aabb.hpp"

namespace quadpool::bench {

class UniformGrid {
 public:
  /// `cell` > 0 is the side of a cell; the grid covers `world` and clamps anything outside.
  UniformGrid(const spatial::Aabb& world, float cell);

  void rebuild(std::span<const spatial::Aabb> boxes);

  /// f(a, b), a < b, once for every overlapping pair.
  template <class F>
  void for_each_pair(F&& f) const;

 private:
  template <class F>
  void pairs_between_cells(std::uint32_t a, std::uint32_t b, F& f) const;

  spatial::Aabb world_;
  float inverse_cell_;
  std::uint32_t columns_, rows_;
  std::vector<std::uint32_t> cell_start_;  // cells + 1 entries: the run of each cell
  std::vector<std::uint32_t> cell_of_box_;
  std::vector<spatial::Aabb> sorted_boxes_;
  std::vector<std::uint32_t> sorted_ids_;
};

template <class F>
void UniformGrid::pairs_between_cells(std::uint32_t a, std::uint32_t b, F& f) const {
  const std::uint32_t a_end = cell_start_[a + 1];
  const std::uint32_t b_begin = cell_start_[b], b_end = cell_start_[b + 1];
  if (b_begin == b_end) return;
  for (std::uint32_t i = cell_start_[a]; i < a_end; ++i) {
    const spatial::Aabb box = sorted_boxes_[i];
    for (std::uint32_t j = b_begin; j < b_end; ++j) {
      if (spatial::overlaps(box, sorted_boxes_[j])) {
        const std::uint32_t x = sorted_ids_[i], y = sorted_ids_[j];
        if (x < y) {
          f(x, y);
        } else {
          f(y, x);
        }
      }
    }
  }
}

template <class F>
void UniformGrid::for_each_pair(F&& f) const {
  for (std::uint32_t row = 0; row < rows_; ++row) {
    for (std::uint32_t column = 0; column < columns_; ++column) {
      const std::uint32_t cell = row * columns_ + column;
      const std::uint32_t begin = cell_start_[cell], end = cell_start_[cell + 1];
      if (begin == end) continue;
      for (std::uint32_t i = begin; i < end; ++i) {
        const spatial::Aabb box = sorted_boxes_[i];
        for (std::uint32_t j = i + 1; j < end; ++j) {
          if (spatial::overlaps(box, sorted_boxes_[j])) {
            const std::uint32_t x = sorted_ids_[i], y = sorted_ids_[j];
            if (x < y) {
              f(x, y);
            } else {
              f(y, x);
            }
          }
        }
      }
      if (column + 1 < columns_) pairs_between_cells(cell, cell + 1, f);
      if (row + 1 < rows_) {
        const std::uint32_t above = cell + columns_;
        if (column > 0) pairs_between_cells(cell, above - 1, f);
        pairs_between_cells(cell, above, f);
        if (column + 1 < columns_) pairs_between_cells(cell, above + 1, f);
      }
    }
  }
}

}  // namespace quadpool::bench
