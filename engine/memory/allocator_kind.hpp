#pragma once
/// AllocatorKind: which of the two node sources a structure built every frame draws from, and
/// the one spelling of each name that the command line, the JSON reports and the overlay use.
/// The quad-tree takes one (spatial::QuadTree::set_allocator); the game switches between them
/// to compare the pool with the general-purpose heap on the same workload.

#include <array>

namespace quadpool::memory {

/// Where a structure's nodes come from.
enum class AllocatorKind {
  Pool,       ///< an ObjectPool: placement new, explicit destructor, no heap once warm
  NewDelete,  ///< plain new and delete for every node, every frame
};

/// Every kind, in declaration order (the order --help and the READMEs list them).
inline constexpr std::array kAllocatorKinds{AllocatorKind::Pool, AllocatorKind::NewDelete};

/// "pool" or "new-delete".
constexpr const char* allocator_name(AllocatorKind kind) noexcept {
  return kind == AllocatorKind::Pool ? "pool" : "new-delete";
}

}  // namespace quadpool::memory
