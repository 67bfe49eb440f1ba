// models/gridcore/klu_solver.cpp -- see klu_solver.h.
#include "gridcore/klu_solver.h"

#include <klu.h>

#include <stdexcept>
#include <string>

namespace lsdae::grid {

namespace {
const char* status_name(int status) {
  switch (status) {
    case KLU_OK: return "KLU_OK";
    case KLU_SINGULAR: return "KLU_SINGULAR";
    case KLU_OUT_OF_MEMORY: return "KLU_OUT_OF_MEMORY";
    case KLU_INVALID: return "KLU_INVALID";
    case KLU_TOO_LARGE: return "KLU_TOO_LARGE";
    default: return "unknown KLU status";
  }
}
constexpr double kRefactorRcond = 1e-12;
}  // namespace

struct KluSolver::Impl {
  klu_common common{};
  klu_symbolic* symbolic = nullptr;
  klu_numeric* numeric = nullptr;
  int n = 0;
  std::vector<int> column_start, row;

  void free_numeric() {
    if (numeric != nullptr) klu_free_numeric(&numeric, &common);
  }
  [[noreturn]] void fail(const char* what) const {
    throw std::runtime_error(std::string("klu: ") + what + " failed with " + status_name(common.status) +
                             " (n = " + std::to_string(n) + ")");
  }
};

KluSolver::KluSolver() : impl_(new Impl) { klu_defaults(&impl_->common); }

KluSolver::~KluSolver() {
  impl_->free_numeric();
  if (impl_->symbolic != nullptr) klu_free_symbolic(&impl_->symbolic, &impl_->common);
  delete impl_;
}

void KluSolver::analyze(int n, std::vector<int> column_start, std::vector<int> row) {
  impl_->free_numeric();
  if (impl_->symbolic != nullptr) klu_free_symbolic(&impl_->symbolic, &impl_->common);
  impl_->n = n;
  impl_->column_start = std::move(column_start);
  impl_->row = std::move(row);
  impl_->symbolic = klu_analyze(n, impl_->column_start.data(), impl_->row.data(), &impl_->common);
  if (impl_->symbolic == nullptr) impl_->fail("klu_analyze");
  ++analyses_;
}

void KluSolver::factor(const std::vector<double>& values) {
  Impl& m = *impl_;
  if (m.symbolic == nullptr) throw std::logic_error("klu: factor() before analyze()");
  auto* x = const_cast<double*>(values.data());  // KLU takes non-const pointers but does not write them
  if (m.numeric != nullptr) {
    // Same pattern: reuse the pivot order, unless the estimate says it no longer fits.
    if (klu_refactor(m.column_start.data(), m.row.data(), x, m.symbolic, m.numeric, &m.common) &&
        klu_rcond(m.symbolic, m.numeric, &m.common) && m.common.rcond >= kRefactorRcond) {
      ++refactorizations_;
      return;
    }
    m.free_numeric();
  }
  m.numeric = klu_factor(m.column_start.data(), m.row.data(), x, m.symbolic, &m.common);
  if (m.numeric == nullptr || m.common.status != KLU_OK) {
    m.free_numeric();
    m.fail("klu_factor");
  }
  ++factorizations_;
}

bool KluSolver::analyzed_for(int n, const std::vector<int>& column_start, const std::vector<int>& row) const {
  return impl_->symbolic != nullptr && impl_->n == n && impl_->column_start == column_start && impl_->row == row;
}

void KluSolver::solve(std::vector<double>& rhs) const {
  Impl& m = *impl_;
  if (m.numeric == nullptr) throw std::logic_error("klu: solve() before factor()");
  if (!klu_solve(m.symbolic, m.numeric, m.n, 1, rhs.data(), &m.common)) m.fail("klu_solve");
}

}  // namespace lsdae::grid
