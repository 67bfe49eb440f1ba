// bench/thread_cpu.h -- CPU seconds of the calling thread
// (CLOCK_THREAD_CPUTIME_ID): the work a benchmark does, whatever else the
// machine runs. For the plain benchmark programs (not Google Benchmark).
#ifndef LSDAE_BENCH_THREAD_CPU_H
#define LSDAE_BENCH_THREAD_CPU_H

#include <time.h>

namespace lsdae::bench {

inline double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

}  // namespace lsdae::bench

#endif  // LSDAE_BENCH_THREAD_CPU_H
