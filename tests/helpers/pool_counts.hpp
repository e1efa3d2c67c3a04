#pragma once
// The four counts of a PoolStats that change with every allocate and deallocate, as one value,
// so a test states what it expects in one line and a failure prints all four.

#include <cstddef>
#include <cstdint>
#include <ostream>

#include "engine/memory/pool_allocator.hpp"

namespace quadpool::test {

struct PoolCounts {
  std::size_t in_use;
  std::uint64_t allocations;
  std::uint64_t deallocations;
  std::size_t high_water;
  friend bool operator==(const PoolCounts&, const PoolCounts&) = default;
  friend void PrintTo(const PoolCounts& c, std::ostream* os) {
    *os << "{in_use " << c.in_use << ", allocations " << c.allocations << ", deallocations "
        << c.deallocations << ", high_water " << c.high_water << "}";
  }
};

inline PoolCounts counts_of(const memory::PoolStats& s) {
  return {s.blocks_in_use, s.total_allocations, s.total_deallocations, s.high_water};
}

}  // namespace quadpool::test
