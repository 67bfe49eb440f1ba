// models/psse/system/event_solver.cpp -- see event_solver.h.
#include "psse/system/event_solver.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "gridcore/klu_solver.h"

namespace lsdae::psse {

namespace {

// The algebraic block's entries as the system adds them; compressed by
// compress() into CSC with duplicates summed in the order they came, from
// +0.0 (what accumulating into a std::map<(column, row), double> gives, bit
// for bit, without a tree node per entry). The buffers keep their capacity.
class EventTripletSink final : public kit::PartialSink {
 public:
  EventTripletSink(const std::vector<int>& row_at, const std::vector<int>& col_at) : row_at_(row_at), col_at_(col_at) {}
  void add(ValueRef unknown, ValueRef known, double value) override {
    if (unknown >= row_at_.size() || known >= col_at_.size()) return;
    const int r = row_at_[unknown], c = col_at_[known];
    if (r < 0 || c < 0) return;
    entries_.push_back({c, r, value});
  }
  // CSC of m columns, rows ascending within a column, duplicates summed.
  void compress(int m, std::vector<int>& column_start, std::vector<int>& row, std::vector<double>& value) {
    // A counting sort by column keeps the order of arrival within a column;
    // a stable sort by row within each column keeps it among duplicates.
    const auto columns = static_cast<std::size_t>(m);
    std::vector<int> count(columns + 1, 0);
    for (const Entry& e : entries_) ++count[static_cast<std::size_t>(e.column) + 1];
    for (std::size_t c = 0; c < columns; ++c) count[c + 1] += count[c];
    sorted_.resize(entries_.size());
    std::vector<int> next(count.begin(), count.end() - 1);
    for (const Entry& e : entries_) sorted_[static_cast<std::size_t>(next[static_cast<std::size_t>(e.column)]++)] = e;
    column_start.assign(columns + 1, 0);
    row.clear();
    value.clear();
    for (std::size_t c = 0; c < columns; ++c) {
      const auto begin = sorted_.begin() + count[c], end = sorted_.begin() + count[c + 1];
      std::stable_sort(begin, end, [](const Entry& a, const Entry& b) { return a.row < b.row; });
      for (auto it = begin; it != end;) {
        double sum = 0.0;
        const int r = it->row;
        for (; it != end && it->row == r; ++it) sum += it->value;
        row.push_back(r);
        value.push_back(sum);
      }
      column_start[c + 1] = static_cast<int>(row.size());
    }
  }

 private:
  struct Entry {
    int column, row;
    double value;
  };
  const std::vector<int>& row_at_;
  const std::vector<int>& col_at_;
  std::vector<Entry> entries_, sorted_;
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
  std::vector<double> f(unknown_.size()), before, f_before;
  iterations_ = 0;
  int newton_steps = 0;
  bool chord = false;          // the last step used the factors in hand
  double previous = INFINITY;  // the residual before the last step
  for (int it = 0;; ++it) {
    sys_.compute(work.data(), time, false);
    residual_ = 0;
    for (std::size_t k = 0; k < equation_.size(); ++k) {
      f[k] = work[equation_[k]];
      residual_ = std::max(residual_, std::fabs(f[k]));
      if (!std::isfinite(f[k])) residual_ = INFINITY;
    }
    // Converged at the point just evaluated: the slots hold its records
    // (event_solver.h, contract; nothing evaluates after this).
    if (residual_ <= kTolerance) return true;
    const bool contracted = residual_ <= kChordRate * previous;
    if (chord && !(residual_ <= previous)) {
      // The factors in hand led away: back to the point before, for a
      // Newton step from there (the iterates Newton alone would take).
      for (std::size_t k = 0; k < unknown_.size(); ++k) work[unknown_[k]] = before[k];
      f = f_before;
      residual_ = previous;
    }
    if (newton_steps >= kMaxSteps || it >= 2 * kMaxSteps || !std::isfinite(residual_)) return false;
    // The factors in hand serve at a solve's first step (from the point the
    // importer located, near the solution) and after a step that contracted.
    const bool newton = !factored_ || (it > 0 && !contracted);
    if (!newton) {
      before.resize(unknown_.size());
      for (std::size_t k = 0; k < unknown_.size(); ++k) before[k] = work[unknown_[k]];
      f_before = f;
    }
    try {
      if (newton) factor_at(m, work.data(), time);
      lu_->solve(f);
    } catch (const std::runtime_error&) {
      factored_ = false;
      return false;  // singular: a collapsed or islanded network
    }
    for (std::size_t k = 0; k < unknown_.size(); ++k) work[unknown_[k]] -= f[k];
    chord = !newton;
    newton_steps += newton ? 1 : 0;
    previous = residual_;
    ++iterations_;
  }
}

void EventSolver::factor_at(int m, const double* work, double time) {
  EventTripletSink sink(equation_at_, unknown_at_);
  sys_.partials(work, time, sink);
  std::vector<int> column_start, row;
  std::vector<double> value;
  sink.compress(m, column_start, row, value);
  // The union of the patterns met so far (a mode's absent entries are
  // explicit zeros): analysed again only when it grew, refactored with the
  // last pivots otherwise (klu_solver.h's policy).
  factored_ = false;
  if (widen(m, column_start, row) || !lu_->analyzed_for(m, union_start_, union_row_))
    lu_->analyze(m, union_start_, union_row_);
  scatter(column_start, row, value);
  lu_->factor(union_value_);
  factored_ = true;
}

bool EventSolver::widen(int m, const std::vector<int>& column_start, const std::vector<int>& row) {
  const auto columns = static_cast<std::size_t>(m);
  if (union_start_.size() != columns + 1) {  // none yet
    union_start_.assign(columns + 1, 0);
    union_row_.clear();
  }
  // Merged into buffers kept between calls (they take the old union's
  // storage when the union grows): no allocation at a Newton step.
  std::vector<int>& start = widen_start_;
  std::vector<int>& merged = widen_row_;
  start.assign(columns + 1, 0);
  merged.clear();
  merged.reserve(union_row_.size() + row.size());
  for (std::size_t c = 0; c < columns; ++c) {
    // Both columns' rows ascend: a merge keeps them ascending, each row once.
    auto a = union_row_.begin() + union_start_[c], a_end = union_row_.begin() + union_start_[c + 1];
    auto b = row.begin() + column_start[c], b_end = row.begin() + column_start[c + 1];
    while (a != a_end || b != b_end) {
      if (b == b_end || (a != a_end && *a < *b)) {
        merged.push_back(*a++);
      } else {
        if (a != a_end && *a == *b) ++a;
        merged.push_back(*b++);
      }
    }
    start[c + 1] = static_cast<int>(merged.size());
  }
  if (merged.size() == union_row_.size()) return false;  // every entry was there already
  union_start_.swap(start);
  union_row_.swap(merged);
  return true;
}

void EventSolver::scatter(const std::vector<int>& column_start, const std::vector<int>& row,
                          const std::vector<double>& value) {
  union_value_.assign(union_row_.size(), 0.0);
  for (std::size_t c = 0; c + 1 < union_start_.size(); ++c) {
    auto at = static_cast<std::size_t>(union_start_[c]);
    for (auto k = static_cast<std::size_t>(column_start[c]); k < static_cast<std::size_t>(column_start[c + 1]); ++k) {
      while (union_row_[at] != row[k]) ++at;  // present: widen() merged it
      union_value_[at] = value[k];
    }
  }
}

void EventSolver::forget() {
  factored_ = false;
  union_start_.clear();
  union_row_.clear();
  union_value_.clear();
  widen_start_.clear();
  widen_row_.clear();
  lu_ = std::make_unique<grid::KluSolver>();
}

void EventSolver::publish(const std::vector<double>& work, double* v) const {
  for (ValueRef r : unknown_) v[r] = work[r];
}

}  // namespace lsdae::psse
