// bench/klu_index_width.cpp -- KLU's 32-bit interface against its 64-bit one on
// a model's own iteration matrix, side by side in one process (issue 30:
// runtime/simulation/ida/klu32_solver.h against SUNLinSol_KLU's klu_l_*).
//
// The matrix: lsdae::Simulation::jacobian(cj) of the FMU at time --at (its
// default experiment, --set name=value applied), the run's Jacobian method.
// Both interfaces analyse it (AMD, lsdae's default) and factor it; the factor
// sizes and one solve must be bitwise the same (else exit 1). Then --rounds
// rounds, alternating which goes first, each timing --reps refactorizations
// and --reps solves of each interface in this thread's CPU seconds
// (CLOCK_THREAD_CPUTIME_ID, bench/thread_cpu.h). Prints per round and the
// median ratio 32-bit / 64-bit for refactor and solve. Not a test: it measures
// (docs/performance/sweeps.md).
//
//   klu_index_width FMU [--set NAME=VALUE]... [--at T] [--cj C] [--rounds R] [--reps K]
#include <klu.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "lsdae/fmu.h"
#include "lsdae/simulation.h"
#include "median.h"
#include "thread_cpu.h"

namespace {

using lsdae::bench::median;

// One interface (Int: int or SuiteSparse_long) with its analysis and factors.
template <typename Int>
struct Klu;

template <>
struct Klu<int> {
  klu_common common{};
  klu_symbolic* symbolic = nullptr;
  klu_numeric* numeric = nullptr;
  std::vector<int> ap, ai;
  bool make(int n, const double* ax) {
    klu_defaults(&common);
    common.ordering = 0;
    symbolic = klu_analyze(n, ap.data(), ai.data(), &common);
    numeric = symbolic ? klu_factor(ap.data(), ai.data(), const_cast<double*>(ax), symbolic, &common) : nullptr;
    return numeric != nullptr;
  }
  void refactor(const double* ax) {
    klu_refactor(ap.data(), ai.data(), const_cast<double*>(ax), symbolic, numeric, &common);
  }
  void solve(int n, double* b) { klu_solve(symbolic, numeric, n, 1, b, &common); }
  long lu() const { return static_cast<long>(numeric->lnz + numeric->unz); }
};

template <>
struct Klu<SuiteSparse_long> {
  klu_l_common common{};
  klu_l_symbolic* symbolic = nullptr;
  klu_l_numeric* numeric = nullptr;
  std::vector<SuiteSparse_long> ap, ai;
  bool make(SuiteSparse_long n, const double* ax) {
    klu_l_defaults(&common);
    common.ordering = 0;
    symbolic = klu_l_analyze(n, ap.data(), ai.data(), &common);
    numeric = symbolic ? klu_l_factor(ap.data(), ai.data(), const_cast<double*>(ax), symbolic, &common) : nullptr;
    return numeric != nullptr;
  }
  void refactor(const double* ax) {
    klu_l_refactor(ap.data(), ai.data(), const_cast<double*>(ax), symbolic, numeric, &common);
  }
  void solve(SuiteSparse_long n, double* b) { klu_l_solve(symbolic, numeric, n, 1, b, &common); }
  long lu() const { return static_cast<long>(numeric->lnz + numeric->unz); }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: klu_index_width FMU [--set NAME=VALUE]... [--at T] [--cj C] [--rounds R] [--reps K]\n");
    return 2;
  }
  double at = 1.05, cj = 100.0;
  int rounds = 10, reps = 50;
  std::vector<std::pair<std::string, std::string>> sets;
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string key = argv[i], value = argv[i + 1];
    if (key == "--at") at = std::atof(value.c_str());
    else if (key == "--cj") cj = std::atof(value.c_str());
    else if (key == "--rounds") rounds = std::atoi(value.c_str());
    else if (key == "--reps") reps = std::atoi(value.c_str());
    else if (key == "--set" && value.find('=') != std::string::npos)
      sets.emplace_back(value.substr(0, value.find('=')), value.substr(value.find('=') + 1));
    else {
      std::fprintf(stderr, "klu_index_width: unknown argument %s\n", key.c_str());
      return 2;
    }
  }
  auto sim = lsdae::Simulation::create(lsdae::Fmu::open(argv[1]));
  for (const auto& [name, value] : sets) sim->set(name, std::atof(value.c_str()));
  sim->initialize();
  sim->advance_to(at);
  const lsdae::IterationMatrix m = sim->jacobian(cj);
  const auto n = m.cols;
  Klu<int> k32;
  Klu<SuiteSparse_long> k64;
  k32.ap.assign(m.col_ptr.begin(), m.col_ptr.end());
  k32.ai.assign(m.row_idx.begin(), m.row_idx.end());
  k64.ap.assign(m.col_ptr.begin(), m.col_ptr.end());
  k64.ai.assign(m.row_idx.begin(), m.row_idx.end());
  if (!k32.make(static_cast<int>(n), m.values.data()) || !k64.make(static_cast<SuiteSparse_long>(n), m.values.data())) {
    std::fprintf(stderr, "klu_index_width: KLU could not factor the matrix\n");
    return 1;
  }
  std::vector<double> b32(n, 1.0), b64(n, 1.0);
  k32.solve(static_cast<int>(n), b32.data());
  k64.solve(static_cast<SuiteSparse_long>(n), b64.data());
  const bool same = k32.lu() == k64.lu() && std::memcmp(b32.data(), b64.data(), n * sizeof(double)) == 0;
  std::printf("n %zu, nnz %zu, L+U %ld; the same factors and solution bits: %s\n", n, m.values.size(), k32.lu(),
              same ? "yes" : "NO");
  std::vector<double> refactor_ratio, solve_ratio;
  for (int r = 0; r < rounds; ++r) {
    double t[2][2] = {};  // [32/64][refactor/solve]
    for (int turn = 0; turn < 2; ++turn) {
      const bool first32 = (r % 2 == 0) == (turn == 0);
      double t0 = lsdae::bench::thread_cpu_seconds();
      for (int k = 0; k < reps; ++k) first32 ? k32.refactor(m.values.data()) : k64.refactor(m.values.data());
      double t1 = lsdae::bench::thread_cpu_seconds();
      for (int k = 0; k < reps; ++k) {
        std::vector<double>& x = first32 ? b32 : b64;
        std::fill(x.begin(), x.end(), 1.0);
        first32 ? k32.solve(static_cast<int>(n), x.data()) : k64.solve(static_cast<SuiteSparse_long>(n), x.data());
      }
      double t2 = lsdae::bench::thread_cpu_seconds();
      t[first32 ? 0 : 1][0] = (t1 - t0) / reps;
      t[first32 ? 0 : 1][1] = (t2 - t1) / reps;
    }
    refactor_ratio.push_back(t[0][0] / t[1][0]);
    solve_ratio.push_back(t[0][1] / t[1][1]);
    std::printf("round %d: refactor %.3f / %.3f ms (32 / 64), solve %.3f / %.3f ms\n", r + 1, 1e3 * t[0][0],
                1e3 * t[1][0], 1e3 * t[0][1], 1e3 * t[1][1]);
  }
  std::printf("median 32-bit / 64-bit: refactor %.3f, solve %.3f\n", median(refactor_ratio), median(solve_ratio));
  return same ? 0 : 1;
}
