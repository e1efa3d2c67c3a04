#pragma once
/// Cosine, sine and natural logarithm whose results are the same bits on every compiler, every
/// set of compiler flags and every C library.
///
/// std::cos, std::sin and std::log promise only "close to the true value": their last bits
/// depend on the C library's version and on the code path it picks for the CPU, and a compiler
/// may evaluate a call on constants itself. Anything that feeds the simulation's state (the
/// scene spawners, spawn_at) uses these instead, so that a seed gives the same sprites
/// everywhere. They use only +, -, *, / and sqrt on doubles, which IEEE 754 defines to the last
/// bit, in an order that the engine's no-contraction flag (-ffp-contract=off, a usage
/// requirement of quadpool::core) keeps fixed. They live in portable_math.cpp, so they are
/// compiled with the engine's own flags whatever the includer's are.
///
/// Accuracy: each result is computed in double to within about 1e-15 of the true value and then
/// rounded once to float, so it is within 0.5 ulp + 1e-7 ulp of the true value: the correctly
/// rounded float, except where the true value lies within 1e-15 of a halfway point.
/// tests/core/portable_math_test.cpp checks it against the C library's double functions on 6
/// million angles (dense sweeps over [-8 pi, 8 pi] and [-pi/4, pi/4], the floats next to
/// multiples of pi/2 up to 2^24, random floats) and 3.6 million logarithms (every 1021st
/// positive float, every 11th in [0.5, 2]): the worst error seen is 0.4999998 ulp, so every
/// result was the correctly rounded float. Not for -ffast-math builds, which allow any
/// reordering.

namespace quadpool {

/// The cosine and the sine of one angle.
struct CosSin {
  float cosine;
  float sine;
};

/// The largest |radians| that portable_cos_sin() reduces exactly: 2^24. At and above it a float's
/// spacing is 2 or more, so such an angle says next to nothing about a direction anyway.
inline constexpr float kPortableTrigMaxRadians = 16777216.0f;

/// cos(radians) and sin(radians), each within 0.5 ulp + 1e-7 ulp of the true value for
/// |radians| <= kPortableTrigMaxRadians. Outside that range, and for NaN or an infinity, both
/// are NaN. O(1): one range reduction and two polynomials.
CosSin portable_cos_sin(float radians) noexcept;

/// The natural logarithm of x, within 0.5 ulp + 1e-7 ulp of the true value for every positive
/// float, subnormals included. log(0) is -infinity, log(+infinity) is +infinity, and a negative
/// x or NaN gives NaN, as std::log does. O(1).
float portable_log(float x) noexcept;

}  // namespace quadpool
