#pragma once
// The pool benchmarks' workloads and peers, shared by memory_bench (every peer) and
// memory_bench_mimalloc (the pool beside mimalloc, in a binary of its own because linking
// Debian's libmimalloc replaces malloc for the whole process).
//
// Workload: a 64-byte node.
// - Frame pattern: create N, write one field of each, destroy all of them; free in LIFO order or
//   in a shuffled order fixed before timing starts.
// - Tight loop: create one, destroy it, repeat.
// Every result is reported as ns per create+destroy pair (the `ns_per_pair` counter).

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <new>
#include <numeric>
#include <vector>

#include "engine/core/random.hpp"
#include "engine/memory/object_pool.hpp"

namespace quadpool::bench {

struct Node {
  // User-provided and empty, so no peer pays for zeroing (value-initialisation would zero an
  // aggregate in ObjectPool::create() but not in `new Node`).
  Node() noexcept {}
  std::uint64_t key;
  std::uint64_t payload[7];
};
static_assert(sizeof(Node) == 64);

// --- peers: each has create(), destroy(Node*) and end_frame() ----------------------------------

/// quadpool's ObjectPool<Node>: intrusive free list, the project's default.
class ObjectPoolPeer {
 public:
  Node* create() { return pool_.create(); }
  void destroy(Node* n) noexcept { pool_.destroy(n); }
  void end_frame() noexcept {}

 private:
  memory::ObjectPool<Node> pool_{4096};
};

/// The second free-list design, measured to pick the default: the same chunks and bump index,
/// but free blocks are tracked in a separate stack of pointers instead of inside themselves, so
/// a pop never loads from the block it is about to hand out.
class PointerStackPoolPeer {
 public:
  PointerStackPoolPeer() { free_.reserve(kChunk); }
  PointerStackPoolPeer(const PointerStackPoolPeer&) = delete;
  PointerStackPoolPeer& operator=(const PointerStackPoolPeer&) = delete;
  ~PointerStackPoolPeer() {
    for (Node* chunk : chunks_) ::operator delete(chunk, std::align_val_t{alignof(Node)});
  }
  Node* create() {
    Node* block;
    if (!free_.empty()) {
      block = free_.back();
      free_.pop_back();
    } else {
      if (bump_ == bump_end_) add_chunk();
      block = bump_++;
    }
    ++total_allocations_;
    return ::new (block) Node;
  }
  void destroy(Node* n) noexcept {
    n->~Node();
    // The same counters as PoolAllocator keeps, so only the free-list design differs.
    free_.push_back(n);  // capacity grows with the chunks, so this never reallocates when warm
    ++total_deallocations_;
  }
  void end_frame() noexcept {}

 private:
  static constexpr std::size_t kChunk = 4096;
  void add_chunk() {
    auto* chunk = static_cast<Node*>(
        ::operator new(kChunk * sizeof(Node), std::align_val_t{alignof(Node)}));
    chunks_.push_back(chunk);
    free_.reserve(chunks_.size() * kChunk);
    bump_ = chunk;
    bump_end_ = chunk + kChunk;
  }
  std::vector<Node*> chunks_;
  std::vector<Node*> free_;
  Node* bump_ = nullptr;
  Node* bump_end_ = nullptr;
  std::uint64_t total_allocations_ = 0;
  std::uint64_t total_deallocations_ = 0;
};

/// glibc through plain new/delete.
class NewDeletePeer {
 public:
  Node* create() { return new Node; }
  void destroy(Node* n) noexcept { delete n; }
  void end_frame() noexcept {}
};

// --- workloads ---------------------------------------------------------------------------------

enum class FreeOrder : std::int64_t { Lifo = 0, Shuffled = 1 };

/// The destruction order for N nodes: reversed creation order, or a fixed random permutation.
inline std::vector<std::uint32_t> destruction_order(std::size_t n, FreeOrder order) {
  std::vector<std::uint32_t> indices(n);
  std::iota(indices.begin(), indices.end(), 0u);
  if (order == FreeOrder::Lifo) {
    std::reverse(indices.begin(), indices.end());
  } else {
    Random rng(0x5EED);
    for (std::size_t i = n; i > 1; --i) std::swap(indices[i - 1], indices[rng.below(i)]);
  }
  return indices;
}

inline void report_per_pair(benchmark::State& state, std::size_t pairs_per_iteration) {
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(pairs_per_iteration));
  // kInvert turns "pairs per second" into "seconds per pair", which prints as ns.
  state.counters["ns_per_pair"] = benchmark::Counter(
      static_cast<double>(pairs_per_iteration),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

/// Frame pattern. range(0) = N, range(1) = FreeOrder.
template <class Peer>
void frame_pattern(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto order = static_cast<FreeOrder>(state.range(1));
  const std::vector<std::uint32_t> destroy_order = destruction_order(n, order);
  std::vector<Node*> nodes(n);
  Peer peer;
  for (auto _ : state) {
    for (std::size_t i = 0; i < n; ++i) {
      Node* node = peer.create();
      node->key = i;
      nodes[i] = node;
    }
    benchmark::ClobberMemory();
    for (std::uint32_t i : destroy_order) peer.destroy(nodes[i]);
    peer.end_frame();
  }
  state.SetLabel(order == FreeOrder::Lifo ? "lifo" : "shuffled");
  report_per_pair(state, n);
}

/// Tight loop: create one node, write it, destroy it.
template <class Peer>
void tight_loop(benchmark::State& state) {
  Peer peer;
  constexpr std::size_t kPairsPerIteration = 1024;
  for (auto _ : state) {
    for (std::size_t i = 0; i < kPairsPerIteration; ++i) {
      Node* node = peer.create();
      node->key = i;
      benchmark::DoNotOptimize(node);
      peer.destroy(node);
    }
    peer.end_frame();
  }
  report_per_pair(state, kPairsPerIteration);
}

/// Registers the frame pattern for N = 1k, 10k, 100k in both orders (or only the orders and
/// sizes a peer can finish in reasonable time).
inline void frame_args(benchmark::internal::Benchmark* b, std::int64_t max_shuffled = 100'000) {
  for (std::int64_t order : {0, 1}) {
    for (std::int64_t n : {1'000, 10'000, 100'000}) {
      if (order == 1 && n > max_shuffled) continue;
      b->Args({n, order});
    }
  }
  b->ArgNames({"n", "shuffled"});
}

}  // namespace quadpool::bench
