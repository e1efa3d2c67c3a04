#pragma once
// OffsetAllocator's size classes (an implementation detail of offset_allocator.hpp): which bin a
// block size falls in, and a three-level bitmap of the bins that hold a free block, so that "the
// first non-empty bin at or after b" and "the last non-empty bin" cost a few bit scans.
//
// Bins are floating-point buckets with kMantissaBits bits of mantissa, as in TLSF: sizes below
// 2^kMantissaBits each have their own bin, and every octave [2^e, 2^(e+1)) above splits into
// 2^kMantissaBits bins of equal width. With 8 bits every size below 512 has its own bin and a
// bin is at most 1/256 of its sizes wide; sizes only grow from one bin to the next.

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>

namespace quadpool::memory::detail {

inline constexpr int kMantissaBits = 8;
inline constexpr std::uint32_t kBinCount = (64 - kMantissaBits + 1) << kMantissaBits;  // 14592

/// The bin of a block of `size` > 0 bytes. Monotonic in size.
constexpr std::uint32_t bin_of(std::uint64_t size) noexcept {
  // Without a branch (sizes on both sides of 2^kMantissaBits are equally common, so a branch
  // would be mispredicted often): with shift = max(exponent - kMantissaBits, 0), the bin is
  // shift * 2^kMantissaBits + (size >> shift), since size >> shift has kMantissaBits + 1 bits
  // with the top one set above the exact range, and is the size itself below it.
  const int exponent = 63 - std::countl_zero(size);
  const int shift = std::max(exponent - kMantissaBits, 0);
  return (static_cast<std::uint32_t>(shift) << kMantissaBits) +
         static_cast<std::uint32_t>(size >> shift);
}

/// One bit per bin, in three levels: a leaf word per 64 bins, a middle word per 64 leaf words,
/// one top word.
class OffsetBinBitmap {
 public:
  static constexpr std::uint32_t kNone = ~std::uint32_t{0};

  void set(std::uint32_t bin) noexcept {
    leaf_[bin >> 6] |= bit(bin);
    middle_[bin >> 12] |= bit(bin >> 6);
    top_ |= bit(bin >> 12);
  }

  void clear(std::uint32_t bin) noexcept {
    if ((leaf_[bin >> 6] &= ~bit(bin)) != 0) return;
    if ((middle_[bin >> 12] &= ~bit(bin >> 6)) != 0) return;
    top_ &= ~bit(bin >> 12);
  }

  bool test(std::uint32_t bin) const noexcept { return (leaf_[bin >> 6] & bit(bin)) != 0; }

  /// The first set bin >= `bin` (any bin < kBinCount + 1), or kNone.
  std::uint32_t first_at_or_after(std::uint32_t bin) const noexcept {
    if (bin >= kBinCount) return kNone;
    std::uint32_t word = bin >> 6;
    if (const std::uint64_t in_word = leaf_[word] & at_or_above(bin); in_word != 0)
      return (word << 6) | ctz(in_word);
    // The next non-empty leaf word, through the middle level, then the top.
    ++word;
    std::uint32_t group = word >> 6;
    std::uint64_t in_group = group < kMiddleWords ? middle_[group] & at_or_above(word) : 0;
    if (in_group == 0) {
      const std::uint64_t groups = group + 1 < 64 ? top_ & at_or_above(group + 1) : 0;
      if (groups == 0) return kNone;
      group = ctz(groups);
      in_group = middle_[group];
    }
    word = (group << 6) | ctz(in_group);
    return (word << 6) | ctz(leaf_[word]);
  }

  /// The last set bin, or kNone.
  std::uint32_t last() const noexcept {
    if (top_ == 0) return kNone;
    const std::uint32_t group = 63 - static_cast<std::uint32_t>(std::countl_zero(top_));
    const std::uint32_t word =
        (group << 6) | (63 - static_cast<std::uint32_t>(std::countl_zero(middle_[group])));
    return (word << 6) | (63 - static_cast<std::uint32_t>(std::countl_zero(leaf_[word])));
  }

  /// Each upper bit is set exactly when a word below it is non-zero.
  bool levels_agree() const noexcept {
    for (std::uint32_t w = 0; w < kLeafWords; ++w) {
      if (((middle_[w >> 6] & bit(w)) != 0) != (leaf_[w] != 0)) return false;
    }
    for (std::uint32_t g = 0; g < kMiddleWords; ++g) {
      if (((top_ & bit(g)) != 0) != (middle_[g] != 0)) return false;
    }
    return (top_ >> kMiddleWords) == 0;
  }

 private:
  static constexpr std::uint32_t kLeafWords = (kBinCount + 63) / 64;
  static constexpr std::uint32_t kMiddleWords = (kLeafWords + 63) / 64;
  static_assert(kMiddleWords <= 64, "one top word must cover every middle word");

  static constexpr std::uint64_t bit(std::uint32_t i) noexcept { return std::uint64_t{1} << (i & 63); }
  static constexpr std::uint64_t at_or_above(std::uint32_t i) noexcept {
    return ~std::uint64_t{0} << (i & 63);
  }
  static std::uint32_t ctz(std::uint64_t x) noexcept {
    return static_cast<std::uint32_t>(std::countr_zero(x));
  }

  std::array<std::uint64_t, kLeafWords> leaf_{};
  std::array<std::uint64_t, kMiddleWords> middle_{};
  std::uint64_t top_ = 0;
};

}  // namespace quadpool::memory::detail
