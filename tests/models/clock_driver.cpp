// tests/models/clock_driver.cpp -- see clock_driver.h.
#include "clock_driver.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>

namespace lsdae::test {

namespace {

std::string joined(const LogSink& log) {
  std::string all;
  for (const auto& m : log.messages) all += m + "\n";
  return all;
}

bool close_in_time(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max(1.0, std::fabs(b)); }

}  // namespace

ClockDriver::ClockDriver(const Fmi3Functions& f, fmi3Instance instance, const ParsedFmu& fmu, const LogSink& log)
    : f_(f), instance_(instance), fmu_(fmu), log_(log) {
  for (fmi3ValueReference c : fmu.clocks) {
    const XmlVariable& v = fmu.var(c);
    if (v.causality != "input" || v.interval_variability == "triggered") continue;
    Entry e;
    e.vr = c;
    e.kind = v.interval_variability;
    time_based_.push_back(e);
  }
}

void ClockDriver::check(fmi3Status s, const std::string& what) const {
  if (s != fmi3OK) throw std::runtime_error(what + " returned " + std::to_string(s) + ": " + joined(log_));
}

void ClockDriver::read_initial_timing(double t_start) {
  for (Entry& e : time_based_) {
    e.start = t_start;
    fmi3IntervalQualifier q = fmi3IntervalNotYetKnown;
    check(f_.get_interval_decimal(instance_, &e.vr, 1, &e.interval, &q), "fmi3GetIntervalDecimal (initialization)");
    const bool periodic = e.kind == "constant" || e.kind == "fixed" || e.kind == "tunable";
    if (periodic) {
      check(f_.get_shift_decimal(instance_, &e.vr, 1, &e.shift), "fmi3GetShiftDecimal");
      e.due = t_start + e.shift;
    } else if (q != fmi3IntervalNotYetKnown) {
      e.due = t_start + e.interval;
    }
  }
}

std::optional<double> ClockDriver::next_tick() const {
  std::optional<double> next;
  for (const Entry& e : time_based_)
    if (e.due && (!next || *e.due < *next)) next = e.due;
  return next;
}

std::vector<fmi3ValueReference> ClockDriver::activate_due(double t) {
  std::vector<fmi3ValueReference> out;
  for (const Entry& e : time_based_)
    if (e.due && close_in_time(t, *e.due)) out.push_back(e.vr);
  for (fmi3ValueReference c : out) activate(c);
  return out;
}

void ClockDriver::activate(fmi3ValueReference clock) {
  const bool active = true;
  check(f_.set_clock(instance_, &clock, 1, &active), "fmi3SetClock(" + fmu_.var(clock).name + ")");
}

std::vector<fmi3ValueReference> ClockDriver::active_output_clocks() {
  std::vector<fmi3ValueReference> out;
  for (fmi3ValueReference c : fmu_.clocks) {
    if (fmu_.var(c).causality != "output") continue;
    bool active = false;
    check(f_.get_clock(instance_, &c, 1, &active), "fmi3GetClock(" + fmu_.var(c).name + ")");
    if (active) out.push_back(c);
  }
  return out;
}

void ClockDriver::after_update(double t, const std::vector<fmi3ValueReference>& ticked) {
  for (Entry& e : time_based_) {
    const bool did_tick = std::find(ticked.begin(), ticked.end(), e.vr) != ticked.end();
    if (e.kind == "constant" || e.kind == "fixed" || e.kind == "tunable") {
      if (!did_tick) continue;
      ++e.ticks;
      if (e.kind == "tunable") {  // the interval may have changed: t_i = t_(i-1) + interval
        fmi3IntervalQualifier q;
        check(f_.get_interval_decimal(instance_, &e.vr, 1, &e.interval, &q), "fmi3GetIntervalDecimal (tunable)");
        e.due = *e.due + e.interval;
      } else {
        e.due = e.start + e.shift + static_cast<double>(e.ticks) * e.interval;
      }
      continue;
    }
    // changing (after its ticks) and countdown (every Event Mode): ask.
    if (e.kind == "changing" && !did_tick) continue;
    double interval = 0.0;
    fmi3IntervalQualifier q = fmi3IntervalNotYetKnown;
    check(f_.get_interval_decimal(instance_, &e.vr, 1, &interval, &q), "fmi3GetIntervalDecimal (" + e.kind + ")");
    if (q == fmi3IntervalChanged) e.due = t + interval;
    else if (q == fmi3IntervalNotYetKnown) e.due.reset();
    else if (did_tick) e.due.reset();  // Unchanged after its own tick: nothing scheduled
  }
}

ClockedRun::ClockedRun(std::vector<const CatalogEntry*> entries, std::vector<std::vector<std::string>> recorded,
                       std::optional<std::pair<std::string, std::string>> coupling) {
  for (std::size_t i = 0; i < entries.size(); ++i) {
    auto p = std::make_unique<Part>();
    p->entry = entries[i];
    p->fmu = parse_fmu(entries[i]->stage_dir);
    p->fns = load_binary(entries[i]->stage_dir, p->fmu.model_identifier);
    const std::string resources = entries[i]->stage_dir + "/resources/";
    p->instance = p->fns.instantiate(entries[i]->name.c_str(), p->fmu.token.c_str(), resources.c_str(), false, false,
                                     &p->log, &LogSink::callback);
    if (p->instance == nullptr) throw std::runtime_error("instantiate " + entries[i]->name + ": " + joined(p->log));
    p->states = p->fmu.states();
    for (const std::string& name : recorded[i]) {
      p->recorded.push_back(p->fmu.by_name.at(name));
      p->recorded_int.push_back(p->fmu.var(p->recorded.back()).type == "Int32");
    }
    parts_.push_back(std::move(p));
  }
  if (coupling)
    coupling_ = {{parts_.at(0)->fmu.by_name.at(coupling->first), parts_.at(1)->fmu.by_name.at(coupling->second)}};
  samples_.resize(parts_.size());
  tick_times_.resize(parts_.size());
  next_time_event_.resize(parts_.size());
}

ClockedRun::~ClockedRun() {
  for (auto& p : parts_) {
    if (p->instance != nullptr) p->fns.free_instance(p->instance);
    unload_binary(p->fns);
  }
}

void ClockedRun::ok(Part& p, fmi3Status s, const std::string& what) {
  if (s != fmi3OK)
    throw std::runtime_error(p.entry->name + ": " + what + " returned " + std::to_string(s) + ": " + joined(p.log));
}

// Values of the recorded variables now. A clocked variable can be read only
// while one of its clocks is active: the run reads it then and keeps it (held_).
void ClockedRun::record(std::size_t which, double t, bool at_event) {
  Part& p = *parts_[which];
  std::vector<double> row(p.recorded.size());
  for (std::size_t k = 0; k < p.recorded.size(); ++k) {
    const fmi3ValueReference vr = p.recorded[k];
    if (!p.fmu.var(vr).clocks.empty()) {
      row[k] = held_[which][k];
    } else if (p.recorded_int[k]) {
      fmi3Int32 v = 0;
      ok(p, p.fns.get_int32(p.instance, &vr, 1, &v, 1), "fmi3GetInt32");
      row[k] = v;
    } else {
      ok(p, p.fns.get_float64(p.instance, &vr, 1, &row[k], 1), "fmi3GetFloat64");
    }
  }
  samples_[which].push_back({t, at_event, std::move(row)});
}

std::vector<double> ClockedRun::indicators(Part& p) {
  std::vector<double> z(p.fmu.core_event_indicators.size());
  if (!z.empty()) ok(p, p.fns.get_event_indicators(p.instance, z.data(), z.size()), "fmi3GetEventIndicators");
  return z;
}

void ClockedRun::event(double t, bool initial) {
  ++events_;
  const std::size_t n = parts_.size();
  std::vector<std::vector<Sample>> before(n);
  std::vector<std::vector<fmi3ValueReference>> ticked(n), active(n);
  for (std::size_t i = 0; i < n; ++i) {
    Part& p = *parts_[i];
    if (!initial) {
      ok(p, p.fns.set_time(p.instance, t), "fmi3SetTime");
      ok(p, p.fns.enter_event(p.instance), "fmi3EnterEventMode");
    }
    const std::size_t mark = samples_[i].size();
    record(i, t, true);
    before[i].push_back(samples_[i].back());
    samples_[i].resize(mark);
    ticked[i] = p.clocks->activate_due(t);
  }
  if (coupling_) {
    const auto out = parts_[0]->clocks->active_output_clocks();
    if (std::find(out.begin(), out.end(), coupling_->first) != out.end()) {
      parts_[1]->clocks->activate(coupling_->second);
      ticked[1].push_back(coupling_->second);
    }
  }
  bool any_tick = false;
  for (std::size_t i = 0; i < n; ++i) {
    Part& p = *parts_[i];
    active[i] = ticked[i];
    for (fmi3ValueReference c : p.clocks->active_output_clocks()) active[i].push_back(c);
    any_tick = any_tick || !active[i].empty();
    // Read the clocked variables of the active clocks.
    for (std::size_t k = 0; k < p.recorded.size(); ++k) {
      const auto& clocks = p.fmu.var(p.recorded[k]).clocks;
      if (std::none_of(clocks.begin(), clocks.end(), [&](fmi3ValueReference c) {
            return std::find(active[i].begin(), active[i].end(), c) != active[i].end();
          }))
        continue;
      const fmi3ValueReference vr = p.recorded[k];
      if (p.recorded_int[k]) {
        fmi3Int32 v = 0;
        ok(p, p.fns.get_int32(p.instance, &vr, 1, &v, 1), "fmi3GetInt32 (clocked)");
        held_[i][k] = v;
      } else {
        ok(p, p.fns.get_float64(p.instance, &vr, 1, &held_[i][k], 1), "fmi3GetFloat64 (clocked)");
      }
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    Part& p = *parts_[i];
    bool need = false, term = false, nominals = false, values = false, next_defined = false;
    double next = 0.0;
    ok(p, p.fns.update_discrete_states(p.instance, &need, &term, &nominals, &values, &next_defined, &next),
       "fmi3UpdateDiscreteStates");
    next_time_event_[i] = next_defined ? std::optional<double>(next) : std::nullopt;
    p.clocks->after_update(t, ticked[i]);
    ok(p, p.fns.enter_continuous_time(p.instance), "fmi3EnterContinuousTimeMode");
  }
  if (!any_tick) return;
  for (std::size_t i = 0; i < n; ++i) {
    samples_[i].push_back(before[i][0]);
    record(i, t, true);
    if (!active[i].empty()) tick_times_[i].push_back(t);
  }
}

void ClockedRun::run(double stop, double h, const std::vector<double>& grid) {
  const std::size_t n = parts_.size();
  held_.assign(n, {});
  for (std::size_t i = 0; i < n; ++i) {
    Part& p = *parts_[i];
    p.clocks = std::make_unique<ClockDriver>(p.fns, p.instance, p.fmu, p.log);
    ok(p, p.fns.enter_initialization(p.instance, false, 0.0, 0.0, false, 0.0), "fmi3EnterInitializationMode");
    p.clocks->read_initial_timing(0.0);
    held_[i].assign(p.recorded.size(), 0.0);
    for (std::size_t k = 0; k < p.recorded.size(); ++k) {  // start values (allowed in Initialization Mode)
      const fmi3ValueReference vr = p.recorded[k];
      if (p.recorded_int[k]) {
        fmi3Int32 v = 0;
        ok(p, p.fns.get_int32(p.instance, &vr, 1, &v, 1), "fmi3GetInt32 (initialization)");
        held_[i][k] = v;
      } else {
        ok(p, p.fns.get_float64(p.instance, &vr, 1, &held_[i][k], 1), "fmi3GetFloat64 (initialization)");
      }
    }
    ok(p, p.fns.exit_initialization(p.instance), "fmi3ExitInitializationMode");
  }
  double t = 0.0;
  event(t, true);
  if (!grid.empty() && grid[0] == t && samples_[0].empty())
    for (std::size_t i = 0; i < n; ++i) record(i, t, false);  // no tick at the start: a plain first row
  std::vector<std::vector<double>> x(n), z(n);
  auto load = [&]() {
    for (std::size_t i = 0; i < n; ++i) {
      x[i].assign(parts_[i]->states.size(), 0.0);
      if (!x[i].empty()) ok(*parts_[i], parts_[i]->fns.get_states(parts_[i]->instance, x[i].data(), x[i].size()), "get");
      z[i] = indicators(*parts_[i]);
    }
  };
  load();
  auto derivatives = [&](double tt, const std::vector<std::vector<double>>& xx) {
    std::vector<std::vector<double>> d(n);
    for (std::size_t i = 0; i < n; ++i) {
      Part& p = *parts_[i];
      ok(p, p.fns.set_time(p.instance, tt), "fmi3SetTime");
      d[i].assign(xx[i].size(), 0.0);
      if (xx[i].empty()) continue;
      ok(p, p.fns.set_states(p.instance, xx[i].data(), xx[i].size()), "fmi3SetContinuousStates");
      ok(p, p.fns.get_derivatives(p.instance, d[i].data(), d[i].size()), "fmi3GetContinuousStateDerivatives");
    }
    return d;
  };
  // One RK4 step of size dt from (t0, x0); leaves every instance at the result.
  auto rk4 = [&](double t0, const std::vector<std::vector<double>>& x0, double dt) {
    auto axpy = [&](const std::vector<std::vector<double>>& a, const std::vector<std::vector<double>>& k, double c) {
      auto r = a;
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < r[i].size(); ++j) r[i][j] += c * k[i][j];
      return r;
    };
    const auto k1 = derivatives(t0, x0);
    const auto k2 = derivatives(t0 + dt / 2, axpy(x0, k1, dt / 2));
    const auto k3 = derivatives(t0 + dt / 2, axpy(x0, k2, dt / 2));
    const auto k4 = derivatives(t0 + dt, axpy(x0, k3, dt));
    auto x1 = x0;
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < x1[i].size(); ++j)
        x1[i][j] += dt / 6 * (k1[i][j] + 2 * k2[i][j] + 2 * k3[i][j] + k4[i][j]);
    derivatives(t0 + dt, x1);  // the instances at the new point
    return x1;
  };
  auto domain_changed = [&](const std::vector<std::vector<double>>& before, std::vector<std::vector<double>>& after) {
    bool changed = false;
    for (std::size_t i = 0; i < n; ++i) {
      after[i] = indicators(*parts_[i]);
      for (std::size_t j = 0; j < after[i].size(); ++j) changed = changed || ((before[i][j] > 0) != (after[i][j] > 0));
    }
    return changed;
  };
  std::size_t next_grid = 0;
  while (next_grid < grid.size() && grid[next_grid] <= t + 1e-12) ++next_grid;
  while (t < stop - 1e-12) {
    double target = stop;
    if (next_grid < grid.size()) target = std::min(target, grid[next_grid]);
    for (std::size_t i = 0; i < n; ++i) {
      if (auto tick = parts_[i]->clocks->next_tick()) target = std::min(target, *tick);
      if (next_time_event_[i]) target = std::min(target, *next_time_event_[i]);
    }
    // Integrate to the target, stopping at a state event.
    bool state_event = false;
    while (t < target - 1e-13 && !state_event) {
      const double dt = std::min(h, target - t);
      std::vector<std::vector<double>> z1(n);
      auto x1 = rk4(t, x, dt);
      if (!domain_changed(z, z1)) {
        t = (dt == target - t) ? target : t + dt;
        x = std::move(x1);
        z = std::move(z1);
        continue;
      }
      // Bisection on the step size: the first point in the new domain.
      double lo = 0.0, hi = dt;
      while (hi - lo > 1e-13) {
        const double mid = 0.5 * (lo + hi);
        rk4(t, x, mid);
        std::vector<std::vector<double>> zm(n);
        (domain_changed(z, zm) ? hi : lo) = mid;
      }
      x = rk4(t, x, hi);
      t += hi;
      state_event = true;
    }
    if (!state_event) derivatives(t, x);  // every instance at (t, x)
    bool is_event = state_event;
    for (std::size_t i = 0; i < n; ++i) {
      if (auto tick = parts_[i]->clocks->next_tick(); tick && close_in_time(t, *tick)) is_event = true;
      if (next_time_event_[i] && close_in_time(t, *next_time_event_[i])) is_event = true;
    }
    const bool on_grid = next_grid < grid.size() && close_in_time(t, grid[next_grid]);
    if (is_event) {
      const std::size_t before_counts = samples_[0].size();
      event(t, false);
      load();
      if (on_grid && samples_[0].size() == before_counts)
        for (std::size_t i = 0; i < n; ++i) record(i, t, false);  // an event without a tick: a plain row
    } else if (on_grid) {
      for (std::size_t i = 0; i < n; ++i) record(i, t, false);
    }
    if (on_grid) ++next_grid;
  }
}

}  // namespace lsdae::test
