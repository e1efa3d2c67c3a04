#include "engine/spatial/parallel_pairs.hpp"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/core/assert.hpp"
#include "engine/core/task_system.hpp"
#include "engine/spatial/pair.hpp"
#include "engine/spatial/quad_tree.hpp"

namespace quadpool::spatial {

namespace {

// Pieces per worker: enough that a worker that drew cheap pieces takes more while another is
// still on an expensive one, few enough that the split and the join stay a small part.
constexpr std::uint32_t kPiecesPerWorker = 16;
// Below this many items a piece is not worth a task of its own.
constexpr std::uint32_t kMinPieceItems = 2048;
// The smallest arena region a worker takes, and the size of each worker's discard zone.
constexpr std::size_t kRegion = 4096;

}  // namespace

void keep_headroom(std::vector<Pair>& buffer) {
  if (buffer.capacity() < buffer.size() + buffer.size() / 4) {
    buffer.reserve(buffer.size() + buffer.size() / 2 + 64);
  }
}

void ParallelPairs::collect(const QuadTree& tree, const TaskSystem& tasks, std::vector<Pair>& out) {
  pieces_.clear();
  child_runs_ = 0;
  if (tasks.enqueue == nullptr || tasks.worker_count <= 1) {
    out.clear();
    tree.for_each_pair([&out](std::uint32_t a, std::uint32_t b) { out.push_back({a, b}); });
    keep_headroom(out);
    return;
  }
  const auto items = static_cast<std::uint32_t>(tree.stats().items);
  const std::uint32_t max_items =
      std::max(kMinPieceItems, items / (tasks.worker_count * kPiecesPerWorker));
  tree.split_pair_work(max_items, pieces_);
  if (pieces_.capacity() < pieces_.size() + pieces_.size() / 8)
    pieces_.reserve(pieces_.size() * 5 / 4);
  if (runs_.size() < pieces_.size()) runs_.resize(pieces_.capacity());
  if (arena_.empty()) size_arena(tasks.worker_count, 2 * std::size_t{items}, kRegion);

  while (!try_collect(tree, tasks)) {
    ++reruns_;
    size_arena(tasks.worker_count, regions_end_, regions_end_ / 4);
  }

  const auto piece_count = static_cast<std::uint32_t>(pieces_.size());
  std::size_t total = 0;
  std::size_t largest = 0;
  for (std::uint32_t p = 0; p < piece_count; ++p) {
    total += runs_[p].count;
    largest = std::max<std::size_t>(largest, runs_[p].count);
  }
  // Not cleared first: resize() then writes zeros only past last frame's size (at a million
  // sprites, 10 MB of zeros a tick that the copy below would overwrite).
  out.resize(total);
  keep_headroom(out);
  // The pieces' runs to their place in piece order, in parallel: each piece's offset is the
  // sum of the counts before it, summed again per range (pieces are few).
  parallel_for(tasks, piece_count, 4, [&](std::uint32_t begin, std::uint32_t end, std::uint32_t) {
    std::size_t offset = 0;
    for (std::uint32_t p = 0; p < begin; ++p) offset += runs_[p].count;
    for (std::uint32_t p = begin; p < end; ++p) {
      const Pair* from = arena_.data() + runs_[p].first;
      std::copy(from, from + runs_[p].count, out.begin() + static_cast<std::ptrdiff_t>(offset));
      offset += runs_[p].count;
    }
  });
  size_arena(tasks.worker_count, total, largest);
  find_child_runs(tree);
}

void ParallelPairs::find_child_runs(const QuadTree& tree) {
  // The pieces come child by child, then those across children (split_pair_work's order, and
  // every child has at least one piece): a child's run ends after its last piece. A root that
  // is one piece leaves no child run.
  std::size_t offset = 0;
  bool across_seen = false;
  for (std::size_t p = 0; p < pieces_.size(); ++p) {
    offset += runs_[p].count;
    const int child = tree.piece_child(pieces_[p]);
    if (child == QuadTree::kAcrossChildren) {
      across_seen = true;
      continue;
    }
    const auto k = static_cast<std::size_t>(child);
    QUADPOOL_ASSERT(!across_seen && (k + 1 == child_runs_ || k == child_runs_),
                    "ParallelPairs: the pieces are not child by child, then across");
    child_run_ends_[k] = offset;
    child_runs_ = k + 1;
  }
}

// The most a run can take, however the pieces fall: a piece's pairs, its moved-from runs
// (together less than its pairs) and its last region's tail (up to its pairs again, or a
// region), plus a region per piece for the tails that ranges leave, with a quarter more for
// the wobble. Grows only; the workers' discard zones sit after the regions.
void ParallelPairs::size_arena(std::size_t workers, std::size_t pairs, std::size_t largest_piece) {
  const std::size_t regions =
      (3 * pairs + (pieces_.size() + workers) * kRegion + 2 * largest_piece) * 5 / 4;
  if (regions <= regions_end_ && arena_.size() >= regions_end_ + workers * kRegion) return;
  regions_end_ = std::max(regions, regions_end_);
  arena_.resize(regions_end_ + workers * kRegion);
}

// One run of the pieces; false when the arena ran out (its pairs are then incomplete).
bool ParallelPairs::try_collect(const QuadTree& tree, const TaskSystem& tasks) {
  next_free_.store(0, std::memory_order_relaxed);
  overflowed_.store(false, std::memory_order_relaxed);
  const auto piece_count = static_cast<std::uint32_t>(pieces_.size());
  parallel_for(
      tasks, piece_count, 1, [&](std::uint32_t begin, std::uint32_t end, std::uint32_t worker) {
        Pair* arena = arena_.data();
        const std::size_t discard = regions_end_ + std::size_t{worker} * kRegion;
        std::size_t at = 0, region_end = 0;  // this worker's region: empty at first
        for (std::uint32_t p = begin; p < end; ++p) {
          std::size_t first = at;
          const auto grow = [&] {
            const std::size_t so_far = at - first;
            const std::size_t want = std::max(kRegion, 2 * so_far + 64);
            const std::size_t start = next_free_.fetch_add(want, std::memory_order_relaxed);
            if (start + want > regions_end_ || overflowed_.load(std::memory_order_relaxed)) {
              overflowed_.store(true, std::memory_order_relaxed);
              first = discard;  // the rest of this run is thrown away, and redone
              at = discard;
              region_end = discard + kRegion;
              return;
            }
            std::copy(arena + first, arena + at, arena + start);
            first = start;
            at = start + so_far;
            region_end = start + want;
          };
          tree.for_each_pair_in(pieces_[p], [&](std::uint32_t a, std::uint32_t b) {
            if (at == region_end) grow();
            arena[at++] = Pair{a, b};
          });
          runs_[p] =
              PieceRun{static_cast<std::uint32_t>(first), static_cast<std::uint32_t>(at - first)};
        }
      });
  return !overflowed_.load(std::memory_order_relaxed);
}

}  // namespace quadpool::spatial
