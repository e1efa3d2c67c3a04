// offset_peers: OffsetAllocator's time per churn step (one free + one allocate) against
// sebbbi/OffsetAllocator and against another checkout of this project, with the runs of every
// allocator alternating in one process (the one that goes first rotates each round), so that the
// machine's slow minutes fall on all of them alike. See offset_peers.hpp for the runners and
// docs/memory.md ("Measured") for how to build it with the peers.
//
//   offset_peers [--live 1000,10000,100000] [--space 1.25,1.10,1.02] [--rounds 10]
//                [--only handle|offset|other-handle|other-offset|sebbbi|sebbbi-wide]
//
// Prints one Markdown row per case: the fastest run's ns per step and, in brackets, the median;
// the ratios of the fastest runs to sebbbi's (with its own 8-byte slots, and with slots as wide as
// an OffsetAllocation); the failed allocations. Exits 1 when the handle path, the offset path and
// the other checkout differ in failures or in the offsets left live (they must all be the same
// exact best fit), 2 on bad arguments.
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <CLI/CLI.hpp>

#include "bench/bench_guard.hpp"
#include "bench/offset_churn_workload.hpp"
#include "bench/offset_peers.hpp"

namespace offset_peers {
namespace {

enum Peer {
  kThisHandle,
  kThisOffset,
  kOtherHandle,
  kOtherOffset,
  kSebbbi,
  kSebbbiWide,
  kPeerCount
};

constexpr std::array<const char*, kPeerCount> kPeerNames = {
    "handle", "offset", "other-handle", "other-offset", "sebbbi", "sebbbi-wide"};

constexpr bool kHaveOther = QUADPOOL_HAVE_OFFSET_OTHER != 0;
constexpr bool kHaveSebbbi = QUADPOOL_HAVE_SEBBBI != 0;

Run run_peer(Peer peer, std::size_t live_ranges, double space_factor) {
  switch (peer) {
    case kThisHandle:
      return run_this(FreeBy::kHandle, live_ranges, space_factor);
    case kThisOffset:
      return run_this(FreeBy::kOffset, live_ranges, space_factor);
#if QUADPOOL_HAVE_OFFSET_OTHER
    case kOtherHandle:
      return run_other(FreeBy::kHandle, live_ranges, space_factor);
    case kOtherOffset:
      return run_other(FreeBy::kOffset, live_ranges, space_factor);
#endif
#if QUADPOOL_HAVE_SEBBBI
    case kSebbbi:
      return run_sebbbi(live_ranges, space_factor, false);
    case kSebbbiWide:
      return run_sebbbi(live_ranges, space_factor, true);
#endif
    default:
      return {};
  }
}

struct Times {
  std::vector<double> ns;
  Run last;

  double fastest() const { return *std::min_element(ns.begin(), ns.end()); }
  double median() const {
    std::vector<double> sorted = ns;
    std::sort(sorted.begin(), sorted.end());
    return sorted[sorted.size() / 2];
  }
};

std::string cell(const Times& t) {
  return fmt::format("{:.1f} ({:.1f})", t.fastest(), t.median());
}

// One case: every peer `rounds` times, alternating. Returns false when the exact peers disagree.
bool run_case(const std::vector<Peer>& peers, std::size_t live, double space, int rounds) {
  // A progress line on a terminal only; a log gets the table alone.
  const bool progress = isatty(STDERR_FILENO) != 0;
  std::array<Times, kPeerCount> times;
  for (int round = 0; round < rounds; ++round) {
    if (progress) {
      std::fprintf(stderr, "\rlive ranges %zu, space %.2fx: round %d of %d", live, space, round + 1,
                   rounds);
    }
    for (std::size_t i = 0; i < peers.size(); ++i) {
      const Peer peer = peers[(i + static_cast<std::size_t>(round)) % peers.size()];
      times[peer].last = run_peer(peer, live, space);
      times[peer].ns.push_back(times[peer].last.ns_per_step);
    }
  }
  if (progress) std::fprintf(stderr, "\r%60s\r", "");
  std::string row = fmt::format("| {} | {:.2f}x |", live, space);
  for (const Peer peer :
       {kThisHandle, kThisOffset, kOtherHandle, kOtherOffset, kSebbbi, kSebbbiWide}) {
    const bool ran = std::find(peers.begin(), peers.end(), peer) != peers.end();
    row += ran ? fmt::format(" {} |", cell(times[peer])) : std::string(" - |");
  }
  const auto ratio = [&times](Peer peer, Peer to) {
    const bool both = !times[peer].ns.empty() && !times[to].ns.empty();
    return both ? fmt::format(" {:.2f} |", times[peer].fastest() / times[to].fastest())
                : std::string(" - |");
  };
  row +=
      ratio(kThisHandle, kSebbbi) + ratio(kThisOffset, kSebbbi) + ratio(kThisHandle, kSebbbiWide);
  const bool have_sebbbi = !times[kSebbbi].ns.empty();
  // The exact peers must agree run for run: the same failures, the same offsets left live.
  bool agree = true;
  const Run* first = nullptr;
  for (const Peer peer : {kThisHandle, kThisOffset, kOtherHandle, kOtherOffset}) {
    if (times[peer].ns.empty()) continue;
    if (first == nullptr) first = &times[peer].last;
    agree =
        agree && times[peer].last.failed == first->failed && times[peer].last.hash == first->hash;
  }
  row += fmt::format(" {} | {} |", first != nullptr ? std::to_string(first->failed) : "-",
                     have_sebbbi ? std::to_string(times[kSebbbi].last.failed) : "-");
  std::printf("%s%s\n", row.c_str(), agree ? "" : " DIFFER");
  std::fflush(stdout);
  return agree;
}

}  // namespace
}  // namespace offset_peers

int main(int argc, char** argv) {
  using namespace offset_peers;
  if (!quadpool::bench::guard_checked_build(argc, argv)) return 2;
  CLI::App app{
      "OffsetAllocator's time per churn step against sebbbi/OffsetAllocator and another "
      "checkout, alternating in one process"};
  std::vector<std::size_t> live = {1000, 10000, 100000};
  std::vector<double> space = {1.25, 1.10, 1.02};
  int rounds = 10;
  std::string only;
  app.add_option("--live", live, "live ranges per case")
      ->delimiter(',')
      ->check(CLI::Range(std::size_t{16}, std::size_t{4'000'000}));
  app.add_option("--space", space, "space as a multiple of the live ranges' expected bytes")
      ->delimiter(',')
      ->check(CLI::Range(1.0, 4.0));
  app.add_option("--rounds", rounds, "runs of each allocator per case; the fastest is compared")
      ->check(CLI::Range(1, 1000));
  app.add_option("--only", only, "run one allocator (to profile it)")
      ->check(CLI::IsMember(std::vector<std::string>(kPeerNames.begin(), kPeerNames.end())));
  CLI11_PARSE(app, argc, argv);

  std::vector<Peer> peers = {kThisHandle, kThisOffset};
#if QUADPOOL_HAVE_OFFSET_OTHER
  if (other_frees_by_handle()) peers.push_back(kOtherHandle);
  peers.push_back(kOtherOffset);
#endif
  if (kHaveSebbbi) peers.insert(peers.end(), {kSebbbi, kSebbbiWide});
  if (!only.empty()) {
    const auto peer = static_cast<Peer>(std::find(kPeerNames.begin(), kPeerNames.end(), only) -
                                        kPeerNames.begin());
    if (std::find(peers.begin(), peers.end(), peer) == peers.end()) {
      const char* why = peer >= kSebbbi ? "not built in (configure with "
                                          "-DQUADPOOL_SEBBBI_DIR=<sebbbi/OffsetAllocator checkout>)"
                        : !kHaveOther   ? "not built in (configure with "
                                          "-DQUADPOOL_OFFSET_OTHER_DIR=<another quadpool checkout>)"
                                        : "the other checkout's allocator predates handles";
      std::fprintf(stderr, "offset_peers: --only %s: %s\n", only.c_str(), why);
      return 2;
    }
    peers = {peer};
  }
  // sebbbi's allocator takes a 32-bit capacity.
  if (std::find(peers.begin(), peers.end(), kSebbbi) != peers.end() ||
      std::find(peers.begin(), peers.end(), kSebbbiWide) != peers.end()) {
    for (const std::size_t n : live) {
      for (const double f : space) {
        if (quadpool::bench::churn_capacity(n, f) > std::numeric_limits<std::uint32_t>::max()) {
          std::fprintf(stderr,
                       "offset_peers: %zu live ranges in %.2fx space need %llu bytes; sebbbi's "
                       "allocator takes at most 2^32 - 1 (lower --live or --space)\n",
                       n, f,
                       static_cast<unsigned long long>(quadpool::bench::churn_capacity(n, f)));
          return 2;
        }
      }
    }
  }

  std::printf(
      "| live ranges | space | by handle, ns/step | by offset | other, by handle | "
      "other, by offset | sebbbi | sebbbi, wide slots | handle / sebbbi | offset / sebbbi | "
      "handle / sebbbi, wide slots | failed | failed, sebbbi |\n");
  std::string rule = "|";
  for (int column = 0; column < 13; ++column) rule += " --- |";
  std::printf("%s\n", rule.c_str());
  bool agree = true;
  for (const std::size_t n : live) {
    for (const double f : space) agree = run_case(peers, n, f, rounds) && agree;
  }
  if (!agree) {
    std::fprintf(stderr,
                 "offset_peers: the exact allocators disagree (rows marked DIFFER): their "
                 "failures or offsets must be the same\n");
    return 1;
  }
  return 0;
}
