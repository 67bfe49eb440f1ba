// runtime/system/composite_parallel.cpp -- the components of a system run in
// parallel (composite_instance.h, "Components in parallel" and "When it
// pays"): CompositeInstance::run_components, behind for_components.
//
// One thread (threads_ <= 1, fewer than two components, or inside an active
// OpenMP region): the components one after the other, untimed. Otherwise
// each task is timed; while the least of the call's last four summed times
// (WorkEstimate) stays under parallel_work_, the call stays on the calling
// thread, else an OpenMP loop runs the components, each instance by one
// thread, each writing only its own slots. Exceptions may not leave the
// region: each is kept by component and the first in component order is
// rethrown on the caller's thread. Values are bitwise those of one thread.
#include <algorithm>
#include <chrono>
#include <exception>

#include <omp.h>

#include "system/composite_instance.h"

namespace lsdae::system {

CallStatus CompositeInstance::run_components(std::span<const std::uint32_t> components, WorkEstimate& work,
                                             CallStatus (*call)(void*, std::uint32_t), void* task) {
  using Clock = std::chrono::steady_clock;
  const std::size_t n = components.size();
  // Each task is timed on its own thread; the sum is the call's sequential work.
  auto timed = [&](std::uint32_t c) {
    const auto start = Clock::now();
    const CallStatus s = call(task, c);
    task_seconds_[c] = std::chrono::duration<double>(Clock::now() - start).count();
    return s;
  };
  auto learn = [&] {
    double seconds = 0.0;
    for (std::uint32_t c : components) seconds += task_seconds_[c];
    work.add(seconds);
  };
  if (threads_ <= 1 || n < 2 || omp_in_parallel() != 0) {  // one thread: nothing to learn
    CallStatus status = CallStatus::ok;
    for (std::uint32_t c : components) status = worst_of(status, call(task, c));
    return status;
  }
  if (parallel_work_ > 0.0 && work.least() < parallel_work_) {
    CallStatus status = CallStatus::ok;
    for (std::uint32_t c : components) status = worst_of(status, timed(c));
    learn();
    return status;
  }
  // Exceptions may not leave an OpenMP region: each is kept by component.
  bool discard = false, failed = false;
  const int threads = static_cast<int>(std::min(threads_, n));
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1) reduction(|| : discard, failed)
  for (std::size_t k = 0; k < n; ++k) {
    const std::uint32_t c = components[k];
    try {
      discard = timed(c) == CallStatus::discard || discard;
    } catch (...) {
      errors_[c] = std::current_exception();
      task_seconds_[c] = 0.0;
      failed = true;
    }
  }
  if (failed)
    for (std::uint32_t c : components)
      if (errors_[c]) {
        std::exception_ptr first = errors_[c];
        for (auto& e : errors_) e = nullptr;
        std::rethrow_exception(first);
      }
  learn();
  return discard ? CallStatus::discard : CallStatus::ok;
}

}  // namespace lsdae::system
