#pragma once
/// Median, p99 and maximum of timing samples: one definition for the headless runner's report
/// and the demo's frame statistics, so both mean the same thing by "p99".

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <span>
#include <vector>

namespace quadpool::game::sim {

/// Median, 99th percentile (nearest rank) and maximum of a set of samples.
struct Percentiles {
  double median = 0, p99 = 0, max = 0;
};

/// The percentiles of `samples`, which it sorts in place; all zero when there are none. The
/// median of an even count is the mean of the middle two; p99 is the nearest-rank value.
template <class T>
Percentiles sorted_percentiles(std::vector<T>& samples) {
  Percentiles p;
  if (samples.empty()) return p;
  std::sort(samples.begin(), samples.end());
  const std::size_t n = samples.size();
  p.median =
      n % 2 == 1
          ? static_cast<double>(samples[n / 2])
          : 0.5 * (static_cast<double>(samples[n / 2 - 1]) + static_cast<double>(samples[n / 2]));
  // Nearest rank: the smallest sample that at least 99% of the samples do not exceed.
  const auto rank = static_cast<std::size_t>(std::ceil(0.99 * static_cast<double>(n)));
  p.p99 = static_cast<double>(samples[std::max<std::size_t>(rank, 1) - 1]);
  p.max = static_cast<double>(samples.back());
  return p;
}

/// The percentiles of `samples` (any order), leaving them untouched.
inline Percentiles percentiles(std::span<const double> samples) {
  std::vector<double> copy(samples.begin(), samples.end());
  return sorted_percentiles(copy);
}

}  // namespace quadpool::game::sim
