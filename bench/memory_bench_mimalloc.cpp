// memory_bench_mimalloc: ObjectPool beside mimalloc in one run. A binary of its own, because
// linking Debian's libmimalloc replaces malloc (and so new/delete) for the whole process.
//
//   build/bench/bench/memory_bench_mimalloc
#include <mimalloc.h>

#include "bench/bench_guard.hpp"
#include "bench/pool_bench_cases.hpp"

namespace quadpool::bench {
namespace {

/// mimalloc through mi_malloc/mi_free.
class MimallocPeer {
 public:
  Node* create() { return ::new (mi_malloc(sizeof(Node))) Node; }
  void destroy(Node* n) noexcept {
    n->~Node();
    mi_free(n);
  }
  void end_frame() noexcept {}
};

void frame_args_all(benchmark::internal::Benchmark* b) { frame_args(b); }

BENCHMARK(frame_pattern<ObjectPoolPeer>)->Name("Frame/ObjectPool")->Apply(frame_args_all);
BENCHMARK(frame_pattern<MimallocPeer>)->Name("Frame/Mimalloc")->Apply(frame_args_all);
BENCHMARK(tight_loop<ObjectPoolPeer>)->Name("Tight/ObjectPool");
BENCHMARK(tight_loop<MimallocPeer>)->Name("Tight/Mimalloc");

}  // namespace
}  // namespace quadpool::bench

QUADPOOL_BENCHMARK_MAIN();
