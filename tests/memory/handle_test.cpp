// Tests of engine/memory/handle.hpp: a null default, value semantics, equality and hashing.
#include "engine/memory/handle.hpp"

#include <cstdint>
#include <functional>
#include <set>
#include <type_traits>
#include <unordered_set>

#include <gtest/gtest.h>

namespace quadpool::memory {
namespace {

struct Thing {};

TEST(Handle, ADefaultConstructedHandleIsNull) {
  constexpr Handle<Thing> h;
  static_assert(h.is_null());
  EXPECT_EQ(h.index(), 0u);
  EXPECT_EQ(h.generation(), 0u);
  EXPECT_EQ(h, Handle<Thing>(0, 0));
  EXPECT_FALSE(Handle<Thing>(0, 1).is_null());
}

TEST(Handle, IsATriviallyCopyableValueOfEightBytes) {
  static_assert(std::is_trivially_copyable_v<Handle<Thing>>);
  static_assert(std::is_standard_layout_v<Handle<Thing>>);
  EXPECT_EQ(sizeof(Handle<Thing>), 8u);
  Handle<Thing> a(7, 3);
  Handle<Thing> b = a;
  EXPECT_EQ(b.index(), 7u);
  EXPECT_EQ(b.generation(), 3u);
}

TEST(Handle, EqualityComparesBothIndexAndGeneration) {
  EXPECT_EQ(Handle<Thing>(4, 9), Handle<Thing>(4, 9));
  EXPECT_NE(Handle<Thing>(4, 9), Handle<Thing>(4, 11)) << "same slot, another lifetime";
  EXPECT_NE(Handle<Thing>(4, 9), Handle<Thing>(5, 9));
}

TEST(Handle, EqualHandlesHashEquallyAndDistinctOnesSpreadOverBuckets) {
  const std::hash<Handle<Thing>> hash;
  EXPECT_EQ(hash(Handle<Thing>(12, 5)), hash(Handle<Thing>(12, 5)));
  // One slot's lifetimes differ only in the generation, the high word of the hashed value: they
  // must still land in different buckets of a small table.
  std::set<std::size_t> low_bits;
  for (std::uint32_t g = 1; g < 2 * 256; g += 2) low_bits.insert(hash(Handle<Thing>(0, g)) & 255);
  EXPECT_GT(low_bits.size(), 128u);
  std::unordered_set<Handle<Thing>> set;
  for (std::uint32_t i = 0; i < 1000; ++i) set.insert(Handle<Thing>(i, 2 * i + 1));
  set.insert(Handle<Thing>(3, 7));  // already there
  EXPECT_EQ(set.size(), 1000u);
  EXPECT_TRUE(set.contains(Handle<Thing>(999, 1999)));
  EXPECT_FALSE(set.contains(Handle<Thing>(999, 2001)));
}

}  // namespace
}  // namespace quadpool::memory
