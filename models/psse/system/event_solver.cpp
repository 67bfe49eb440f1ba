// models/psse/system/event_solver.cpp -- see event_solver.h.
#include "psse/system/event_solver.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include "gridcore/klu_solver.h"

namespace lsdae::psse {

namespace {

class TripletSink final : public kit::PartialSink {
 public:
  TripletSink(const std::vector<int>& row_at, const std::vector<int>& col_at) : row_at_(row_at), col_at_(col_at) {}
  void add(ValueRef unknown, ValueRef known, double value) override {
    if (unknown >= row_at_.size() || known >= col_at_.size()) return;
    const int r = row_at_[unknown], c = col_at_[known];
    if (r < 0 || c < 0) return;
    entries[{c, r}] += value;
  }
  std::map<std::pair<int, int>, double> entries;  // (column, row) -> value

 private:
  const std::vector<int>& row_at_;
  const std::vector<int>& col_at_;
};

}  // namespace

void EventSolver::index() {
  if (!unknown_.empty()) return;
  for (std::size_t i = 0; i < sys_.vr.size(); ++i) {
    unknown_.push_back(sys_.vr[i]);
    equation_.push_back(sys_.res_re[i]);
    unknown_.push_back(sys_.vi[i]);
    equation_.push_back(sys_.res_im[i]);
  }
  for (const SlotState& s : sys_.slots)
    for (std::size_t j = 0; j < s.z_vr.size(); ++j) {
      unknown_.push_back(s.z_vr[j]);
      equation_.push_back(s.g_vr[j]);
    }
  ValueRef largest = 0;
  for (ValueRef r : unknown_) largest = std::max(largest, r);
  for (ValueRef r : equation_) largest = std::max(largest, r);
  unknown_at_.assign(largest + 1, -1);
  equation_at_.assign(largest + 1, -1);
  for (std::size_t k = 0; k < unknown_.size(); ++k) unknown_at_[unknown_[k]] = static_cast<int>(k);
  for (std::size_t k = 0; k < equation_.size(); ++k) equation_at_[equation_[k]] = static_cast<int>(k);
}

bool EventSolver::solve(const double* v, std::size_t count, double time, std::vector<double>& work) {
  index();
  work.assign(v, v + count);
  const auto m = static_cast<int>(unknown_.size());
  std::vector<double> f(unknown_.size());
  iterations_ = 0;
  for (int it = 0;; ++it) {
    sys_.compute(work.data(), time, false);
    residual_ = 0;
    for (std::size_t k = 0; k < equation_.size(); ++k) {
      f[k] = work[equation_[k]];
      residual_ = std::max(residual_, std::fabs(f[k]));
      if (!std::isfinite(f[k])) residual_ = INFINITY;
    }
    if (residual_ <= 1e-10) return true;
    if (it >= 30 || !std::isfinite(residual_)) return false;
    TripletSink sink(equation_at_, unknown_at_);
    sys_.partials(work.data(), time, sink);
    std::vector<int> column_start(static_cast<std::size_t>(m) + 1, 0), row;
    std::vector<double> value;
    for (const auto& [cr, val] : sink.entries) {
      ++column_start[static_cast<std::size_t>(cr.first) + 1];
      row.push_back(cr.second);
      value.push_back(val);
    }
    for (int c = 0; c < m; ++c) column_start[static_cast<std::size_t>(c) + 1] += column_start[static_cast<std::size_t>(c)];
    try {
      grid::KluSolver lu;
      lu.analyze(m, column_start, row);
      lu.factor(value);
      lu.solve(f);
    } catch (const std::runtime_error&) {
      return false;  // singular: a collapsed or islanded network
    }
    for (std::size_t k = 0; k < unknown_.size(); ++k) work[unknown_[k]] -= f[k];
    ++iterations_;
  }
}

void EventSolver::publish(const std::vector<double>& work, double* v) const {
  for (ValueRef r : unknown_) v[r] = work[r];
}

}  // namespace lsdae::psse
