// models/kit/instance_continuous.cpp -- time, continuous states, derivatives,
// event indicators, fmi3UpdateDiscreteStates and directional derivatives
// (instance.h).
#include "kit/instance.h"

#include <algorithm>
#include <bit>
#include <cstdint>

namespace lsdae::kit {

namespace {

// slot = value; whether the bits changed. Setters mark the instance dirty only
// then: an importer that sets the same point again (one call per Jacobian
// colour, the output after the last residual) keeps compute()'s results and
// the partial-derivative table. Bits, not ==: -0.0 and 0.0 may compute
// differently, and a NaN set again is the same NaN.
bool store(double& slot, double value) {
  const bool changed = std::bit_cast<std::uint64_t>(slot) != std::bit_cast<std::uint64_t>(value);
  slot = value;
  return changed;
}

}  // namespace

fmi3Status Instance::set_time(double time) {
  if (!check_mode("fmi3SetTime", {Mode::continuous_time, Mode::event})) return fmi3Error;
  if (store(time_, time)) touch();
  return desc_.clocks.empty() ? fmi3OK : check_missed_ticks("fmi3SetTime");
}

namespace {
bool check_count(const Instance& inst, const char* function, size_t given, size_t expected) {
  if (given == expected) return true;
  inst.log(fmi3Error, "logStatusError",
           std::string(function) + ": got " + std::to_string(given) + " elements, the FMU has " +
               std::to_string(expected));
  return false;
}
}  // namespace

fmi3Status Instance::set_continuous_states(const double x[], size_t n) {
  if (!check_mode("fmi3SetContinuousStates", {Mode::continuous_time, Mode::event})) return fmi3Error;
  if (!check_count(*this, "fmi3SetContinuousStates", n, desc_.states.size())) return fmi3Error;
  write_float64(desc_.states.data(), x, n);
  return fmi3OK;
}

fmi3Status Instance::get_continuous_states(double x[], size_t n) {
  if (!check_count(*this, "fmi3GetContinuousStates", n, desc_.states.size())) return fmi3Error;
  for (size_t i = 0; i < n; ++i) x[i] = f64_[desc_.states[i]];
  return fmi3OK;
}

fmi3Status Instance::get_derivatives(double dx[], size_t n) {
  if (!check_mode("fmi3GetContinuousStateDerivatives",
                  {Mode::initialization, Mode::event, Mode::continuous_time, Mode::terminated}))
    return fmi3Error;
  if (!check_count(*this, "fmi3GetContinuousStateDerivatives", n, desc_.derivatives.size())) return fmi3Error;
  ensure_computed();
  for (size_t i = 0; i < n; ++i) dx[i] = f64_[desc_.derivatives[i]];
  return fmi3OK;
}

fmi3Status Instance::get_nominals(double nominals[], size_t n) {
  if (!check_count(*this, "fmi3GetNominalsOfContinuousStates", n, desc_.states.size())) return fmi3Error;
  for (size_t i = 0; i < n; ++i) nominals[i] = desc_.variables[desc_.states[i]].nominal.value_or(1.0);
  return fmi3OK;
}

fmi3Status Instance::get_event_indicators(double indicators[], size_t n) {
  if (!check_mode("fmi3GetEventIndicators",
                  {Mode::initialization, Mode::event, Mode::continuous_time, Mode::terminated}))
    return fmi3Error;
  if (!check_count(*this, "fmi3GetEventIndicators", n, desc_.event_indicators.size())) return fmi3Error;
  ensure_indicators();
  for (size_t i = 0; i < n; ++i) indicators[i] = f64_[desc_.event_indicators[i]];
  return fmi3OK;
}

fmi3Status Instance::get_number_of_states(size_t* n) const {
  *n = desc_.states.size();
  return fmi3OK;
}

fmi3Status Instance::get_number_of_event_indicators(size_t* n) const {
  *n = desc_.event_indicators.size();
  return fmi3OK;
}

fmi3Status Instance::update_discrete_states(bool* need_update, bool* terminate, bool* nominals_changed,
                                            bool* values_changed, bool* next_defined, double* next_time) {
  if (!check_mode("fmi3UpdateDiscreteStates", {Mode::event})) return fmi3Error;
  ensure_computed();  // f_event: the partitions of the active clocks
  Context c = context();
  const DiscreteUpdate u = model_->update_discrete(c);
  const fmi3Status clocks = desc_.clocks.empty() ? fmi3OK : clocks_after_update(u);
  touch();
  if (clocks == fmi3Error) return fmi3Error;
  if (need_update) *need_update = false;
  if (terminate) *terminate = u.terminate;
  if (nominals_changed) *nominals_changed = false;
  if (values_changed) *values_changed = u.values_of_states_changed;
  if (next_defined) *next_defined = u.next_event_time.has_value();
  if (next_time) *next_time = u.next_event_time.value_or(0.0);
  if (u.values_of_states_changed || u.next_event_time)
    log(fmi3OK, "logEvents",
        "UpdateDiscreteStates at t = " + std::to_string(time_) +
            (u.values_of_states_changed ? ": states re-initialized" : "") +
            (u.next_event_time ? ", next time event at " + std::to_string(*u.next_event_time) : ""));
  return clocks;
}

fmi3Status Instance::completed_integrator_step(bool* enter_event_mode, bool* terminate) {
  if (!check_mode("fmi3CompletedIntegratorStep", {Mode::continuous_time})) return fmi3Error;
  if (enter_event_mode) *enter_event_mode = false;
  if (terminate) *terminate = false;
  return fmi3OK;
}

fmi3Status Instance::get_directional_derivative(const fmi3ValueReference unknowns[], size_t n_unknowns,
                                                const fmi3ValueReference knowns[], size_t n_knowns,
                                                const double seed[], size_t n_seed, double sensitivity[],
                                                size_t n_sensitivity) {
  if (!desc_.provides_partials) {
    log(fmi3Error, "logStatusError",
        "fmi3GetDirectionalDerivative: this FMU does not provide directional derivatives "
        "(providesDirectionalDerivatives=\"false\")");
    return fmi3Error;
  }
  if (!check_mode("fmi3GetDirectionalDerivative",
                  {Mode::initialization, Mode::event, Mode::continuous_time, Mode::terminated}))
    return fmi3Error;
  if (n_seed != n_knowns || n_sensitivity != n_unknowns) {
    log(fmi3Error, "logStatusError", "fmi3GetDirectionalDerivative: nSeed must equal nKnowns and nSensitivity nUnknowns");
    return fmi3Error;
  }
  // One branch-free pass over the per-variable table decides (an importer
  // passes every unknown in each colour's call); the slow pass, which reads
  // the variables themselves, runs only to report a bad reference or type
  // (or for a clocked Float64 variable, which the table leaves out). The
  // unknowns of the call before, which passed, are not looked up again: an
  // importer asks for the same ones in every colour's call (ACTIVSg10k:
  // 23,874 per call, 12 calls per Jacobian), and comparing them is needed
  // below anyway.
  const bool same_unknowns = asked_unique_ && n_unknowns == asked_.size() &&
                             (n_unknowns == 0 || std::equal(unknowns, unknowns + n_unknowns, asked_.begin()));
  const std::size_t count = desc_.variables.size();
  const std::uint8_t* is_float64 = is_float64_.data();
  unsigned ok = 1;
  if (!same_unknowns)
    for (size_t i = 0; i < n_unknowns; ++i) ok &= is_float64[std::min<std::size_t>(unknowns[i], count)];
  for (size_t j = 0; j < n_knowns; ++j) ok &= is_float64[std::min<std::size_t>(knowns[j], count)];
  if (ok == 0) {
    for (size_t i = 0; i < n_unknowns; ++i)
      if (!check_vr("fmi3GetDirectionalDerivative (unknown)", unknowns[i], VarType::float64)) return fmi3Error;
    for (size_t j = 0; j < n_knowns; ++j)
      if (!check_vr("fmi3GetDirectionalDerivative (known)", knowns[j], VarType::float64)) return fmi3Error;
  }
  try {
    // directional_cost=N: the partials computed anew, N times (description.h).
    if (desc_.directional_cost > 1) {
      for (long k = 0; k < desc_.directional_cost; ++k) {
        partials_ready_ = false;
        ensure_partials();
      }
    } else {
      ensure_partials();
    }
  } catch (const std::exception& e) {
    log(fmi3Error, "logStatusError", std::string("fmi3GetDirectionalDerivative: ") + e.what());
    return fmi3Error;
  }
  // Mark the rows the seeded knowns reach (and the rows that hold a
  // non-finite partial, whose sum is not 0 even with every seed 0). Only
  // those are summed; every other row's sum would be +0.0 exactly (finite
  // partials times seeds of +0.0, added to +0.0), so it is written as 0.0.
  // A marked row is summed over its whole CSR row in the same order as
  // before, so every value is bitwise the one of the full product.
  if (++reach_epoch_ == 0) {  // the epoch wrapped: clear the marks once
    std::fill(reached_.begin(), reached_.end(), 0u);
    reach_epoch_ = 1;
  }
  const std::uint32_t epoch = reach_epoch_;
  const std::size_t* column_start = partials_.column_start().data();
  const ValueRef* column_unknown = partials_.unknown().data();
  std::uint32_t* reached = reached_.data();
  double* seed_by_vr = seed_by_vr_.data();
  reached_rows_.clear();
  auto reach = [&](ValueRef row) {
    if (reached[row] == epoch) return;
    reached[row] = epoch;
    reached_rows_.push_back(row);
  };
  for (size_t j = 0; j < n_knowns; ++j) {
    const ValueRef known = knowns[j];
    seed_by_vr[known] += seed[j];
    for (std::size_t k = column_start[known]; k < column_start[known + 1]; ++k) reach(column_unknown[k]);
  }
  for (ValueRef row : partials_.nonfinite_rows()) reach(row);
  const std::size_t* row_start = partials_.row_start().data();
  const ValueRef* row_known = partials_.known().data();
  const double* value = partials_.value().data();
  auto row_sum = [&](ValueRef row) {
    double sum = 0.0;
    for (std::size_t k = row_start[row]; k < row_start[row + 1]; ++k) sum += value[k] * seed_by_vr[row_known[k]];
    return sum;
  };
  if (same_unknowns) {
    // The same unknowns as before, each once: 0 everywhere, then the sum of
    // each reached row that is asked, at its place.
    std::fill(sensitivity, sensitivity + n_unknowns, 0.0);
    for (ValueRef row : reached_rows_)
      if (const std::uint32_t at = asked_at_[row]; at != 0) sensitivity[at - 1] = row_sum(row);
  } else {
    // Other unknowns: remember them (for the next call), each row as asked.
    for (fmi3ValueReference vr : asked_) asked_at_[vr] = 0;
    asked_.assign(unknowns, unknowns + n_unknowns);
    asked_unique_ = n_unknowns < UINT32_MAX;
    for (size_t i = 0; i < n_unknowns && asked_unique_; ++i) {
      if (asked_at_[unknowns[i]] != 0) asked_unique_ = false;
      asked_at_[unknowns[i]] = static_cast<std::uint32_t>(i + 1);
    }
    for (size_t i = 0; i < n_unknowns; ++i) {
      const ValueRef row = unknowns[i];
      sensitivity[i] = reached[row] == epoch ? row_sum(row) : 0.0;
    }
  }
  for (size_t j = 0; j < n_knowns; ++j) seed_by_vr_[knowns[j]] = 0.0;
  return fmi3OK;
}

}  // namespace lsdae::kit
