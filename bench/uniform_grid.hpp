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
  // Every box of run a against every box of run b; with same_run (a == b), each pair once.
  template <class F>
  void pairs_between_runs(std::uint32_t a_begin, std::uint32_t a_end, std::uint32_t b_begin,
                          std::uint32_t b_end, bool same_run, F& f) const;

  spatial::Aabb world_;
  float inverse_cell_;
  std::uint32_t columns_, rows_;
  std::vector<std::uint32_t> cell_start_;  // cells + 1 entries: the run of each cell
  std::vector<std::uint32_t> cell_of_box_;
  std::vector<spatial::Aabb> sorted_boxes_;
  std::vector<std::uint32_t> sorted_ids_;
};

template <class F>
void UniformGrid::pairs_between_runs(std::uint32_t a_begin, std::uint32_t a_end,
                                     std::uint32_t b_begin, std::uint32_t b_end, bool same_run,
                                     F& f) const {
  for (std::uint32_t i = a_begin; i < a_end; ++i) {
    const spatial::Aabb box = sorted_boxes_[i];
    for (std::uint32_t j = same_run ? i + 1 : b_begin; j < b_end; ++j) {
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
      pairs_between_runs(begin, end, begin, end, true, f);
      auto with_cell = [&](std::uint32_t other) {
        pairs_between_runs(begin, end, cell_start_[other], cell_start_[other + 1], false, f);
      };
      if (column + 1 < columns_) with_cell(cell + 1);
      if (row + 1 < rows_) {
        const std::uint32_t above = cell + columns_;
        if (column > 0) with_cell(above - 1);
        with_cell(above);
        if (column + 1 < columns_) with_cell(above + 1);
      }
    }
  }
}

}  // namespace quadpool::bench
