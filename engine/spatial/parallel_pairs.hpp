#pragma once
/// ParallelPairs: QuadTree::for_each_pair() run on a TaskSystem's workers, with the pairs in
/// exactly the order one thread finds them. The tree's work is cut into pieces
/// (QuadTree::split_pair_work); each piece writes its pairs contiguously into a shared arena,
/// and the pieces are joined in piece order: the result is the same for any worker count and
/// any way the pieces fall on the workers.
///
/// The arena (picture): each worker takes a region of it with one atomic add and fills it
/// piece after piece; a piece that outgrows the region moves to a region twice its size, so
/// that it stays one run.
///
///   arena: [w0: p0 p3 p4 ....][w1: p1 p2 ....][w0: p5 ....][w1: (p6 moved) p6 p7 ..]...
///   out:   p0 p1 p2 p3 p4 p5 p6 p7 ...   (copied by piece, in parallel)
///
/// Memory: the arena is sized after every call to hold twice the pairs plus each worker's
/// worst waste, so that however the work falls on the workers the next call fits unless a
/// pair count reaches a new high: a warm steady scene allocates nothing. When it does not fit,
/// the call grows the arena and runs again (allocating, and taking about twice as long).
/// Not thread-safe itself: one collect() at a time.

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "engine/core/task_system.hpp"
#include "engine/spatial/pair.hpp"
#include "engine/spatial/quad_tree.hpp"

namespace quadpool::spatial {

class ParallelPairs {
 public:
  /// Replaces `out` with every pair of tree.for_each_pair(), in its order. With one worker
  /// (tasks.worker_count <= 1 or no enqueue callback) it is for_each_pair() into `out`.
  void collect(const QuadTree& tree, const TaskSystem& tasks, std::vector<Pair>& out);

  /// After a parallel collect(), how `out` splits into runs that share no box: run k holds the
  /// pairs under the root's child k and ends at child_run_ends()[k] (it starts where run k - 1
  /// ends, run 0 at 0); the pairs across children follow, up to out.size(). The children's runs
  /// can be processed at once, on any workers, with the effect of processing them in turn; the
  /// pairs across children come after them. Empty after a one-worker collect() and when the
  /// root was one piece (then all of `out` is one run).
  std::span<const std::size_t> child_run_ends() const noexcept {
    return {child_run_ends_.data(), child_runs_};
  }

  /// The pieces of the last parallel collect() (0 after a one-worker one).
  std::size_t pieces() const noexcept { return pieces_.size(); }
  /// How often a collect() so far had to grow the arena and run again.
  std::uint64_t reruns() const noexcept { return reruns_; }

 private:
  struct PieceRun {
    std::uint32_t first = 0;  // in the arena
    std::uint32_t count = 0;
  };

  bool try_collect(const QuadTree& tree, const TaskSystem& tasks);
  void size_arena(std::size_t workers, std::size_t pairs, std::size_t largest_piece);

  void find_child_runs(const QuadTree& tree);

  std::vector<QuadTree::PairPiece> pieces_;
  std::vector<PieceRun> runs_;   // one per piece
  // Regions, then one discard zone per worker. Not on huge pages: with it on them, the
  // two-thread tick at 100k sprites ran at the one-thread speed in most runs (1.5 against
  // 2.7-3.1 ms, alternating runs), for no reason found; the other arrays gain from them.
  std::vector<Pair> arena_;
  std::size_t regions_end_ = 0;  // the discard zones start here
  std::atomic<std::size_t> next_free_{0};
  std::atomic<bool> overflowed_{false};
  std::uint64_t reruns_ = 0;
  std::array<std::size_t, 4> child_run_ends_{};
  std::size_t child_runs_ = 0;
};

/// Appends room for a quarter more than `buffer` holds when it is nearly full, so that the
/// next frames' wobble in the count does not reallocate. The pair buffers' one growth policy.
void keep_headroom(std::vector<Pair>& buffer);

}  // namespace quadpool::spatial
