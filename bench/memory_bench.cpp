// memory_bench: the pool against its peers, side by side in one run. The offset allocator's
// benchmarks live in offset_allocator_bench.cpp, linked into the same binary; mimalloc has a
// binary of its own (memory_bench_mimalloc.cpp) because linking it replaces malloc.
//
//   build/bench/bench/memory_bench --benchmark_filter='Pool|NewDelete|Pmr|Boost'
#include <memory>
#include <memory_resource>
#include <new>

#include <boost/pool/object_pool.hpp>
#include <boost/pool/pool.hpp>

#include "bench/bench_guard.hpp"
#include "bench/pool_bench_cases.hpp"

namespace quadpool::bench {
namespace {

/// std::pmr::unsynchronized_pool_resource, the standard library's pool.
class PmrPoolPeer {
 public:
  Node* create() { return ::new (resource_.allocate(sizeof(Node), alignof(Node))) Node; }
  void destroy(Node* n) noexcept {
    n->~Node();
    resource_.deallocate(n, sizeof(Node), alignof(Node));
  }
  void end_frame() noexcept {}

 private:
  std::pmr::unsynchronized_pool_resource resource_;
};

/// std::pmr::monotonic_buffer_resource released every frame: a frame arena. It is given a
/// buffer big enough for the largest frame (its best case), so release() rewinds to that buffer
/// instead of going back to the heap. Destroy runs the destructor; the memory comes back only
/// with release().
class PmrMonotonicPeer {
 public:
  PmrMonotonicPeer() : buffer_(kBufferBytes), resource_(buffer_.data(), buffer_.size()) {}
  Node* create() { return ::new (resource_.allocate(sizeof(Node), alignof(Node))) Node; }
  void destroy(Node* n) noexcept { n->~Node(); }
  void end_frame() noexcept { resource_.release(); }

 private:
  static constexpr std::size_t kBufferBytes = 100'000 * sizeof(Node) + 4096;
  std::vector<std::byte> buffer_;
  std::pmr::monotonic_buffer_resource resource_;
};

/// The floor: a pointer bumped through one buffer that holds the largest frame, reset at the end
/// of each frame; destroy only runs the destructor. No allocator does less per pair, so the
/// pool's distance to this is its whole overhead.
class BumpFloorPeer {
 public:
  Node* create() {
    if (next_ == end_) throw std::bad_alloc();  // more than the largest frame: a bench bug
    return ::new (next_++) Node;
  }
  void destroy(Node* n) noexcept { n->~Node(); }
  void end_frame() noexcept { next_ = buffer_.get(); }

 private:
  static constexpr std::size_t kNodes = 100'000;
  std::unique_ptr<Node[]> buffer_ = std::make_unique<Node[]>(kNodes);
  Node* next_ = buffer_.get();
  Node* end_ = buffer_.get() + kNodes;
};

/// The floor for a pool, as opposed to an arena: the least an allocator can do that takes each
/// block back on destroy. The floor's buffer and bump pointer, plus an intrusive free list: a
/// destroy moves the pointer back when the block is the newest one and pushes the block on the
/// list otherwise; a create pops the list first. Like the floor it cannot grow (running out
/// throws), so no call in the loops returns and the compiler keeps its three pointers in
/// registers, which a pool that grows cannot have: the call that grows it returns.
class FreeListFloorPeer {
 public:
  Node* create() {
    void* block;
    if (free_ != nullptr) [[unlikely]] {
      block = free_;
      free_ = free_->next;
    } else {
      if (next_ == end_) throw std::bad_alloc();  // more than the largest frame: a bench bug
      block = next_++;
    }
    return ::new (block) Node;
  }
  void destroy(Node* n) noexcept {
    n->~Node();
    if (n + 1 == next_) [[likely]] {
      next_ = n;
      return;
    }
    free_ = ::new (static_cast<void*>(n)) Link{free_};
  }
  void end_frame() noexcept {}

 private:
  struct Link {
    Link* next;
  };
  static constexpr std::size_t kNodes = 100'000;
  std::unique_ptr<Node[]> buffer_ = std::make_unique<Node[]>(kNodes);
  Node* next_ = buffer_.get();
  Node* end_ = buffer_.get() + kNodes;
  Link* free_ = nullptr;
};

/// boost::pool<>: an untyped fixed-size pool with O(1) unordered free.
class BoostPoolPeer {
 public:
  Node* create() { return ::new (pool_.malloc()) Node; }
  void destroy(Node* n) noexcept {
    n->~Node();
    pool_.free(n);
  }
  void end_frame() noexcept {}

 private:
  boost::pool<> pool_{sizeof(Node)};
};

/// boost::object_pool<Node>: destroy() keeps the free list ordered, which is O(n) per destroy
/// when frees come in random order.
class BoostObjectPoolPeer {
 public:
  Node* create() { return pool_.construct(); }
  void destroy(Node* n) noexcept { pool_.destroy(n); }
  void end_frame() noexcept {}

 private:
  boost::object_pool<Node> pool_;
};

void frame_args_all(benchmark::internal::Benchmark* b) {
  frame_args(b);
}
// The free-list floor is a floor for LIFO frames only: it has no rewind, so a shuffled frame
// leaves it a free list scattered over the buffer that the next frame walks, block by block.
void frame_args_lifo(benchmark::internal::Benchmark* b) {
  frame_args(b, 0);
}
// 100k shuffled frees take seconds per frame in boost::object_pool (quadratic); 10k shows it.
void frame_args_boost_object(benchmark::internal::Benchmark* b) {
  frame_args(b, 10'000);
}

BENCHMARK(frame_pattern<ObjectPoolPeer>)->Name("Frame/ObjectPool")->Apply(frame_args_all);
BENCHMARK(frame_pattern<PointerStackPoolPeer>)
    ->Name("Frame/PointerStackPool")
    ->Apply(frame_args_all);
BENCHMARK(frame_pattern<NewDeletePeer>)->Name("Frame/NewDelete")->Apply(frame_args_all);
BENCHMARK(frame_pattern<PmrPoolPeer>)->Name("Frame/PmrUnsyncPool")->Apply(frame_args_all);
BENCHMARK(frame_pattern<PmrMonotonicPeer>)->Name("Frame/PmrMonotonic")->Apply(frame_args_all);
BENCHMARK(frame_pattern<BoostPoolPeer>)->Name("Frame/BoostPool")->Apply(frame_args_all);
BENCHMARK(frame_pattern<BumpFloorPeer>)->Name("Frame/BumpFloor")->Apply(frame_args_all);
BENCHMARK(frame_pattern<FreeListFloorPeer>)->Name("Frame/FreeListFloor")->Apply(frame_args_lifo);
BENCHMARK(frame_pattern<BoostObjectPoolPeer>)
    ->Name("Frame/BoostObjectPool")
    ->Apply(frame_args_boost_object);

BENCHMARK(tight_loop<ObjectPoolPeer>)->Name("Tight/ObjectPool");
BENCHMARK(tight_loop<PointerStackPoolPeer>)->Name("Tight/PointerStackPool");
BENCHMARK(tight_loop<NewDeletePeer>)->Name("Tight/NewDelete");
BENCHMARK(tight_loop<PmrPoolPeer>)->Name("Tight/PmrUnsyncPool");
BENCHMARK(tight_loop<BoostPoolPeer>)->Name("Tight/BoostPool");
BENCHMARK(tight_loop<BoostObjectPoolPeer>)->Name("Tight/BoostObjectPool");

}  // namespace
}  // namespace quadpool::bench

QUADPOOL_BENCHMARK_MAIN();
