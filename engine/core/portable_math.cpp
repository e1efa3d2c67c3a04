#include "engine/core/portable_math.hpp"

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>

namespace quadpool {

namespace {

// 1 / n!: n! is exact in a double up to n = 18, so this is one correctly rounded division.
constexpr double inverse_factorial(int n) noexcept {
  double factorial = 1.0;
  for (int i = 2; i <= n; ++i) factorial *= i;
  return 1.0 / factorial;
}

// The Taylor coefficients (-1)^(i+1) / (2i + first)! for i = 0..N-1.
template <std::size_t N>
constexpr std::array<double, N> alternating_terms(int first) noexcept {
  std::array<double, N> terms{};
  for (std::size_t i = 0; i < N; ++i) {
    const double magnitude = inverse_factorial(first + 2 * static_cast<int>(i));
    terms[i] = i % 2 == 0 ? -magnitude : magnitude;
  }
  return terms;
}

// c[0] + z * (c[1] + z * (c[2] + ...)), highest term first.
template <std::size_t N>
double horner(double z, const std::array<double, N>& c) noexcept {
  double sum = c[N - 1];
  for (std::size_t i = N - 1; i-- > 0;) sum = sum * z + c[i];
  return sum;
}

// sin r = r + r z (-1/3! + z/5! - ...) with z = r^2, to r^15: for |r| <= pi/4 the first term
// left out, r^17/17!, is below 5e-17.
constexpr auto kSinTerms = alternating_terms<7>(3);
// cos r = 1 + z (-1/2! + z/4! - ...), to r^16: the first term left out is below 3e-18.
constexpr auto kCosTerms = alternating_terms<8>(2);

constexpr double kTwoOverPi = 0x1.45f306dc9c883p-1;
// pi/2 = kHalfPi1 + kHalfPi2 + kHalfPi3 to within 5e-35 (Cody and Waite's reduction). The first
// two have at most 28 significant bits, so for every quadrant count k < 2^24 the products
// k * kHalfPi1 and k * kHalfPi2 are exact, and so is x - k * kHalfPi1.
constexpr double kHalfPi1 = 0x1.921fb54p+0;
constexpr double kHalfPi2 = 0x1.10b461p-30;
constexpr double kHalfPi3 = 0x1.a62633145c06ep-58;

// log m = 2 atanh f = 2 (f + f^3/3 + f^5/5 + ...) with f = (m - 1) / (m + 1); the coefficients
// 1/3, 1/5, ..., 1/19. For m in [sqrt(2)/2, sqrt(2)], |f| <= 0.1716 and the first term left
// out, 2 f^21 / 21, is below 1e-17.
constexpr std::array<double, 9> kAtanhTerms = [] {
  std::array<double, 9> terms{};
  for (std::size_t i = 0; i < terms.size(); ++i) terms[i] = 1.0 / static_cast<double>(2 * i + 3);
  return terms;
}();
constexpr double kLn2 = 0x1.62e42fefa39efp-1;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInfinity = std::numeric_limits<float>::infinity();

}  // namespace

CosSin portable_cos_sin(float radians) noexcept {
  const double x = radians;
  // NaN fails both comparisons.
  if (!(x >= -kPortableTrigMaxRadians && x <= kPortableTrigMaxRadians)) return {kNaN, kNaN};
  // The nearest multiple k of pi/2, and r = x - k pi/2 in [-pi/4, pi/4] (a hair beyond is fine).
  const double t = x * kTwoOverPi;
  const auto k = static_cast<std::int64_t>(t < 0.0 ? t - 0.5 : t + 0.5);
  const auto quarter_turns = static_cast<double>(k);
  const double r = ((x - quarter_turns * kHalfPi1) - quarter_turns * kHalfPi2) -
                   quarter_turns * kHalfPi3;
  const double z = r * r;
  const auto c = static_cast<float>(1.0 + z * horner(z, kCosTerms));
  const auto s = static_cast<float>(r + r * z * horner(z, kSinTerms));
  // Two's complement (C++20) makes k & 3 the quadrant for negative k too.
  switch (k & 3) {
    case 0: return {c, s};
    case 1: return {-s, c};
    case 2: return {-c, -s};
    default: return {s, -c};
  }
}

float portable_log(float x) noexcept {
  if (!(x > 0.0f)) return x == 0.0f ? -kInfinity : kNaN;  // zeros, negatives and NaN
  if (x == kInfinity) return kInfinity;
  int exponent = 0;
  if (x < std::numeric_limits<float>::min()) {
    x *= 0x1p24f;  // a subnormal becomes normal, exactly
    exponent = -24;
  }
  // x = m * 2^exponent with m in [sqrt(2)/2, sqrt(2)]: 0x3504f3 is the mantissa of the largest
  // float below sqrt(2).
  const auto bits = std::bit_cast<std::uint32_t>(x);
  const std::uint32_t mantissa = bits & 0x7fffffu;
  exponent += static_cast<int>(bits >> 23) - 127;
  std::uint32_t m_bits = mantissa | 0x3f800000u;  // m in [1, 2)
  if (mantissa > 0x3504f3u) {
    m_bits = mantissa | 0x3f000000u;  // m / 2, in [0.5, 1)
    ++exponent;
  }
  const double m = std::bit_cast<float>(m_bits);
  const double f = (m - 1.0) / (m + 1.0);  // m - 1 and m + 1 are exact
  const double log_m = 2.0 * (f + f * (f * f) * horner(f * f, kAtanhTerms));
  return static_cast<float>(static_cast<double>(exponent) * kLn2 + log_m);
}

}  // namespace quadpool
