// Tests of engine/core/portable_math.*: the error against the C library's double functions
// (accurate to about 1e-16, far below a float's spacing) over dense and random ranges, the
// special values, and a pinned hash of results that every build must reproduce to the bit.
//
// Sections: helpers, cosine and sine, logarithm, the same bits everywhere.
#include "engine/core/portable_math.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <numbers>
#include <string>
#include <utility>

#include <gtest/gtest.h>

#include "engine/core/random.hpp"
#include "tests/helpers/assert_throws.hpp"

namespace quadpool {
namespace {

// --- helpers ----------------------------------------------------------------------------------

// Half a float's spacing, and a margin for the 1e-15 the double computation may be off before
// its one rounding to float.
constexpr double kMaxUlps = 0.5 + 1e-6;

// How far `got` is from `exact`, in units of the spacing of floats at `exact`.
double ulps_off(float got, double exact) {
  if (exact == 0.0) return got == 0.0f ? 0.0 : std::numeric_limits<double>::infinity();
  const int binade = std::max(std::ilogb(exact), std::numeric_limits<float>::min_exponent - 1);
  const double spacing = std::ldexp(1.0, binade - (std::numeric_limits<float>::digits - 1));
  return std::abs(static_cast<double>(got) - exact) / spacing;
}

// The largest error seen by one function over one range, and where.
class WorstError {
 public:
  explicit WorstError(std::string name) : name_(std::move(name)) {}

  void add(float x, float got, double exact) {
    const double ulps = ulps_off(got, exact);
    // A NaN result is infinitely wrong.
    if (std::isnan(ulps) || ulps > worst_ulps_) {
      worst_ulps_ = std::isnan(ulps) ? std::numeric_limits<double>::infinity() : ulps;
      worst_x_ = x;
    }
    ++samples_;
  }

  // Prints the figure (the header documents it) and checks it.
  void expect_within_half_an_ulp() const {
    std::printf("[ worst    ] %s: %.9f ulp at x = %a (%.9g), %llu samples\n", name_.c_str(),
                worst_ulps_, static_cast<double>(worst_x_), static_cast<double>(worst_x_),
                static_cast<unsigned long long>(samples_));
    EXPECT_LE(worst_ulps_, kMaxUlps) << name_ << " at x = " << worst_x_;
    EXPECT_GT(samples_, 100'000u) << name_ << ": the range was not swept";
  }

 private:
  std::string name_;
  double worst_ulps_ = 0.0;
  float worst_x_ = 0.0f;
  std::uint64_t samples_ = 0;
};

// Checks cos and sin of one angle against the C library's double versions.
void check_cos_sin(float x, WorstError& cosine, WorstError& sine) {
  const CosSin got = portable_cos_sin(x);
  cosine.add(x, got.cosine, std::cos(static_cast<double>(x)));
  sine.add(x, got.sine, std::sin(static_cast<double>(x)));
}

// Checks log of one number against the C library's double version.
void check_log(float x, WorstError& log) {
  log.add(x, portable_log(x), std::log(static_cast<double>(x)));
}

// Every `stride`-th float from `from` up to `to` (both non-negative), by bit pattern.
template <typename Check>
void for_floats_between(float from, float to, std::uint32_t stride, Check check) {
  const auto last = std::bit_cast<std::uint32_t>(to);
  for (auto bits = std::bit_cast<std::uint32_t>(from); bits <= last; bits += stride) {
    check(std::bit_cast<float>(bits));
    if (last - bits < stride) break;
  }
}

// --- cosine and sine --------------------------------------------------------------------------

TEST(PortableCosSin, IsWithinHalfAnUlpOverFourTurnsEachWay) {
  WorstError cosine("cos, [-8 pi, 8 pi]"), sine("sin, [-8 pi, 8 pi]");
  constexpr int kSteps = 1 << 21;
  constexpr double kReach = 8.0 * std::numbers::pi;
  for (int i = 0; i <= kSteps; ++i) {
    const double x = -kReach + 2.0 * kReach * static_cast<double>(i) / kSteps;
    check_cos_sin(static_cast<float>(x), cosine, sine);
  }
  cosine.expect_within_half_an_ulp();
  sine.expect_within_half_an_ulp();
}

TEST(PortableCosSin, IsWithinHalfAnUlpOnSmallAnglesDownToSubnormals) {
  WorstError cosine("cos, [0, pi/4]"), sine("sin, [0, pi/4]");
  const auto check = [&](float x) {
    check_cos_sin(x, cosine, sine);
    check_cos_sin(-x, cosine, sine);
  };
  for_floats_between(0.0f, std::numbers::pi_v<float> / 4.0f, 1013, check);
  cosine.expect_within_half_an_ulp();
  sine.expect_within_half_an_ulp();
}

TEST(PortableCosSin, IsWithinHalfAnUlpNextToMultiplesOfAQuarterTurnUpToTheLimit) {
  // Where the result is nearly zero, every bit of the range reduction shows.
  WorstError cosine("cos, next to k pi/2"), sine("sin, next to k pi/2");
  const auto last = static_cast<std::int64_t>(kPortableTrigMaxRadians / std::numbers::pi * 2.0);
  for (std::int64_t k = 1; k <= last; k += 37) {
    const auto x = static_cast<float>(static_cast<double>(k) * std::numbers::pi / 2.0);
    check_cos_sin(std::nextafter(x, 0.0f), cosine, sine);
    check_cos_sin(x, cosine, sine);
    check_cos_sin(std::nextafter(x, kPortableTrigMaxRadians), cosine, sine);
  }
  cosine.expect_within_half_an_ulp();
  sine.expect_within_half_an_ulp();
}

TEST(PortableCosSin, IsWithinHalfAnUlpOnRandomFloatsUpToTheLimit) {
  const auto seed = test::announce_seed("PortableCosSin.RandomFloats", 20261126);
  Random rng(seed);
  WorstError cosine("cos, random"), sine("sin, random");
  const auto limit_bits = std::bit_cast<std::uint32_t>(kPortableTrigMaxRadians);
  for (int i = 0; i < 1'000'000; ++i) {
    // Uniform over bit patterns: every binade from subnormals to 2^24 gets its share.
    const auto x = std::bit_cast<float>(static_cast<std::uint32_t>(rng.below(limit_bits + 1u)));
    check_cos_sin(rng.chance(0.5) ? x : -x, cosine, sine);
  }
  cosine.expect_within_half_an_ulp();
  sine.expect_within_half_an_ulp();
}

TEST(PortableCosSin, ExactAtZeroAndNaNOutsideTheRange) {
  EXPECT_EQ(portable_cos_sin(0.0f).cosine, 1.0f);
  EXPECT_EQ(portable_cos_sin(0.0f).sine, 0.0f);
  for (const float x : {kPortableTrigMaxRadians, -kPortableTrigMaxRadians}) {
    const CosSin at_limit = portable_cos_sin(x);
    EXPECT_LE(ulps_off(at_limit.cosine, std::cos(static_cast<double>(x))), kMaxUlps) << x;
    EXPECT_LE(ulps_off(at_limit.sine, std::sin(static_cast<double>(x))), kMaxUlps) << x;
  }
  constexpr float kInfinity = std::numeric_limits<float>::infinity();
  for (const float x : {std::nextafter(kPortableTrigMaxRadians, kInfinity),
                        -std::nextafter(kPortableTrigMaxRadians, kInfinity), kInfinity, -kInfinity,
                        std::numeric_limits<float>::max(),
                        std::numeric_limits<float>::quiet_NaN()}) {
    const CosSin outside = portable_cos_sin(x);
    EXPECT_TRUE(std::isnan(outside.cosine)) << x;
    EXPECT_TRUE(std::isnan(outside.sine)) << x;
  }
}

// --- logarithm --------------------------------------------------------------------------------

TEST(PortableLog, IsWithinHalfAnUlpOverEveryPositiveFloat) {
  WorstError log("log, every positive float");
  const auto check = [&log](float x) { check_log(x, log); };
  for_floats_between(std::numeric_limits<float>::denorm_min(), std::numeric_limits<float>::max(),
                     1021, check);
  check(std::numeric_limits<float>::max());
  log.expect_within_half_an_ulp();
}

TEST(PortableLog, IsWithinHalfAnUlpCloseToOne) {
  // Where log is nearly zero, and where the spawners' Box-Muller draws most of its inputs.
  WorstError log("log, [0.5, 2]");
  const auto check = [&log](float x) { check_log(x, log); };
  for_floats_between(0.5f, 2.0f, 11, check);
  log.expect_within_half_an_ulp();
}

TEST(PortableLog, SpecialValuesAreTheCLibrarys) {
  constexpr float kInfinity = std::numeric_limits<float>::infinity();
  EXPECT_EQ(portable_log(1.0f), 0.0f);
  EXPECT_EQ(portable_log(0.0f), -kInfinity);
  EXPECT_EQ(portable_log(-0.0f), -kInfinity);
  EXPECT_EQ(portable_log(kInfinity), kInfinity);
  for (const float x : {-1.0f, -std::numeric_limits<float>::denorm_min(), -kInfinity,
                        std::numeric_limits<float>::quiet_NaN()}) {
    EXPECT_TRUE(std::isnan(portable_log(x))) << x;
  }
}

// --- the same bits everywhere -----------------------------------------------------------------

TEST(PortableMath, GivesThePinnedBitsOnEveryBuild) {
  // FNV-1a over the results for the inputs the spawners use: angles in [0, 2 pi) and Box-Muller's
  // (0, 1]. Every build, whatever its compiler, flags and C library, must print this hash; CI
  // checks it on the x86-64 baseline, with -march=x86-64-v3 (FMA) and with clang.
  std::uint64_t hash = 0xcbf29ce484222325ull;
  const auto mix = [&hash](float f) {
    const auto bits = std::bit_cast<std::uint32_t>(f);
    for (int i = 0; i < 4; ++i) {
      hash ^= (bits >> (8 * i)) & 0xffu;
      hash *= 0x100000001b3ull;
    }
  };
  constexpr int kSamples = 1 << 16;
  constexpr float kTwoPi = 2.0f * std::numbers::pi_v<float>;
  for (int i = 0; i < kSamples; ++i) {
    const CosSin turn = portable_cos_sin(static_cast<float>(i) * kTwoPi / kSamples);
    mix(turn.cosine);
    mix(turn.sine);
    mix(portable_log(static_cast<float>(i + 1) / kSamples));
  }
  EXPECT_EQ(hash, 0x8246c6c4d173e8d6ull) << std::hex << "got 0x" << hash;
}

}  // namespace
}  // namespace quadpool
