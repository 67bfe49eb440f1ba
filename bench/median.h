// bench/median.h -- the median of a benchmark's rounds (the plain benchmark
// programs: psse_eval_benchmark.cpp, klu_index_width.cpp). The mean of the two
// middle values for an even count; 0 for none. Cost: one sort of a copy.
#ifndef LSDAE_BENCH_MEDIAN_H
#define LSDAE_BENCH_MEDIAN_H

#include <algorithm>
#include <vector>

namespace lsdae::bench {

inline double median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 == 1 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

}  // namespace lsdae::bench

#endif  // LSDAE_BENCH_MEDIAN_H
