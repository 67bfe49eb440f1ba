// tests/models/psse/component_harness.cpp -- see component_harness.h.
#include "component_harness.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "psse/core/limiter.h"

namespace lsdae::psse::test {

DyrRecord record(int bus, const std::string& model, const std::string& id, std::vector<double> values) {
  DyrRecord r;
  r.file = "test.dyr";
  r.line = 1;
  r.bus = bus;
  r.model = model;
  r.id = id;
  r.values = std::move(values);
  r.value_lines.assign(r.values.size(), 1);
  for (double v : r.values) r.tokens.push_back(std::to_string(v));
  return r;
}

namespace {

class Init final : public InitContext {
 public:
  Init(ComponentHarness& h, Complex v, Complex s, double sbase, double f, std::map<std::string, double>& signals,
       std::vector<std::string>& notes)
      : h_(h), v_(v), s_(s), sbase_(sbase), f_(f), signals_(signals), notes_(notes) {}
  Complex voltage() const override { return v_; }
  Complex injection() const override { return s_; }
  double system_base() const override { return sbase_; }
  double frequency() const override { return f_; }
  void state(int i, double value) override { h_.known()[static_cast<std::size_t>(i)] = value; }
  void algebraic(int j, double value) override {
    h_.known()[static_cast<std::size_t>(h_.slot().shape().states + j)] = value;
  }
  void parameter(int k, double value) override { h_.parameters()[static_cast<std::size_t>(k)] = value; }
  double signal(const char* name) const override {
    auto it = signals_.find(name);
    if (it == signals_.end()) throw ModelError(std::string("harness: signal \"") + name + "\" was not set");
    return it->second;
  }
  bool has_signal(const char* name) const override { return signals_.count(name) != 0; }
  void set_signal(const char* name, double value) override { signals_[name] = value; }
  void note(const std::string& message) override { notes_.push_back(message); }

 private:
  ComponentHarness& h_;
  Complex v_, s_;
  double sbase_, f_;
  std::map<std::string, double>& signals_;
  std::vector<std::string>& notes_;
};

}  // namespace

ComponentHarness::ComponentHarness(std::unique_ptr<Component> component, std::vector<std::string> consumed,
                                   double system_base, double frequency)
    : component_(std::move(component)), system_base_(system_base), frequency_(frequency) {
  slot_ = std::make_unique<ComponentSlot>(*component_, consumed);
  known_.assign(static_cast<std::size_t>(slot_->shape().known_count()), 0.0);
  parameters_.assign(static_cast<std::size_t>(slot_->shape().parameters), 0.0);
  modes_.assign(static_cast<std::size_t>(slot_->shape().limiters), kModeFree);
}

void ComponentHarness::initialize(Complex voltage, Complex injection, const std::map<std::string, double>& signals) {
  signals_ = signals;
  const FrameShape& s = slot_->shape();
  known_[static_cast<std::size_t>(s.vr_index())] = voltage.real();
  known_[static_cast<std::size_t>(s.vr_index() + 1)] = voltage.imag();
  Init init(*this, voltage, injection, system_base_, frequency_, signals_, notes_);
  component_->initialize(init);
  // Inputs: the value set for the signal (by this model or the test), else the default.
  for (std::size_t k = 0; k < slot_->inputs().size(); ++k) {
    const DeclaredInput& in = slot_->inputs()[k];
    auto it = signals_.find(in.signal);
    const double value = it != signals_.end() ? it->second : in.default_value;
    if (std::isnan(value))
      throw ModelError(component_->describe() + ": input \"" + in.signal + "\" was set by nobody → give it to initialize()");
    known_[static_cast<std::size_t>(s.states + s.algebraics) + k] = value;
  }
  // Outputs publish their variable's initial value.
  for (const DeclaredOutput& o : slot_->outputs())
    signals_[o.signal] = known_[static_cast<std::size_t>(o.variable.index + (o.variable.kind == Var::Kind::state ? 0 : s.states))];
  // Limiter modes from the initial values (repeated until they settle, slot.h).
  std::vector<LimiterRecord> records;
  std::vector<char> outside;
  slot_->initial_modes(known_.data(), parameters_.data(), 1e-9, modes_, records, outside);
  outside_.clear();
  for (std::size_t k = 0; k < outside.size(); ++k)
    if (outside[k]) outside_.push_back(slot_->limiters()[k].name);
}

double ComponentHarness::signal(const std::string& name) const { return signals_.at(name); }

std::vector<double> ComponentHarness::outputs(double time) const {
  std::vector<double> out(static_cast<std::size_t>(slot_->shape().output_count()));
  slot_->evaluate(known_.data(), out.data(), parameters_.data(), modes_.data(), nullptr, time);
  return out;
}

std::vector<LimiterRecord> ComponentHarness::limiter_records(double time) const {
  std::vector<LimiterRecord> records(slot_->limiters().size());
  std::vector<double> out(static_cast<std::size_t>(slot_->shape().output_count()));
  slot_->evaluate(known_.data(), out.data(), parameters_.data(), modes_.data(), records.data(), time);
  return records;
}

double ComponentHarness::largest_derivative(double time) const {
  const std::vector<double> out = outputs(time);
  double largest = 0;
  for (int r = 0; r < slot_->shape().states + slot_->shape().algebraics; ++r)
    largest = std::max(largest, std::fabs(out[static_cast<std::size_t>(r)]));
  return largest;
}

double ComponentHarness::jacobian_mismatch(double step) const {
  std::vector<double> exact;
  slot_->jacobian(known_.data(), parameters_.data(), modes_.data(), 0.0, exact);
  const auto nk = known_.size(), no = static_cast<std::size_t>(slot_->shape().output_count());
  std::vector<double> k = known_, out_plus(no), out_minus(no);
  double worst = 0;
  for (std::size_t c = 0; c < nk; ++c) {
    const double h = step * std::max(1.0, std::fabs(known_[c]));
    k[c] = known_[c] + h;
    slot_->evaluate(k.data(), out_plus.data(), parameters_.data(), modes_.data(), nullptr, 0.0);
    k[c] = known_[c] - h;
    slot_->evaluate(k.data(), out_minus.data(), parameters_.data(), modes_.data(), nullptr, 0.0);
    k[c] = known_[c];
    for (std::size_t r = 0; r < no; ++r) {
      const double fd = (out_plus[r] - out_minus[r]) / (2 * h), e = exact[c * no + r];
      worst = std::max(worst, std::fabs(fd - e) / std::max(1.0, std::fabs(e)));
    }
  }
  return worst;
}

namespace {

// Solves a x = b in place (dense, partial pivoting); false if singular.
bool solve_dense(std::vector<double>& a, std::vector<double>& b, std::size_t n) {
  for (std::size_t c = 0; c < n; ++c) {
    std::size_t p = c;
    for (std::size_t r = c + 1; r < n; ++r)
      if (std::fabs(a[r * n + c]) > std::fabs(a[p * n + c])) p = r;
    if (a[p * n + c] == 0.0) return false;
    if (p != c) {
      for (std::size_t k = 0; k < n; ++k) std::swap(a[c * n + k], a[p * n + k]);
      std::swap(b[c], b[p]);
    }
    for (std::size_t r = c + 1; r < n; ++r) {
      const double m = a[r * n + c] / a[c * n + c];
      if (m == 0.0) continue;
      for (std::size_t k = c; k < n; ++k) a[r * n + k] -= m * a[c * n + k];
      b[r] -= m * b[c];
    }
  }
  for (std::size_t c = n; c-- > 0;) {
    double s = b[c];
    for (std::size_t k = c + 1; k < n; ++k) s -= a[c * n + k] * b[k];
    b[c] = s / a[c * n + c];
  }
  return true;
}

}  // namespace

int ComponentHarness::advance(double dt, int steps) {
  const FrameShape& sh = slot_->shape();
  const auto ns = static_cast<std::size_t>(sh.states), n = ns + static_cast<std::size_t>(sh.algebraics);
  const auto no = static_cast<std::size_t>(sh.output_count());
  std::vector<double> jac, out(no);
  // Newton on [x z] for one backward Euler step from `previous` (dt > 0), or
  // on z alone with the states fixed (dt = 0: the solve at an event).
  auto solve = [&](const std::vector<double>& previous, double h) {
    const std::size_t first = h > 0.0 ? 0 : ns, m = n - first;
    std::vector<double> a(m * m), b(m);
    for (int it = 0; it < 50; ++it) {
      slot_->evaluate(known_.data(), out.data(), parameters_.data(), modes_.data(), nullptr, 0.0);
      double norm = 0;
      for (std::size_t r = first; r < n; ++r) {
        b[r - first] = r < ns ? -(known_[r] - previous[r] - h * out[r]) : -out[r];
        norm = std::max(norm, std::fabs(b[r - first]));
      }
      if (norm < 1e-13) return;
      slot_->jacobian(known_.data(), parameters_.data(), modes_.data(), 0.0, jac);
      for (std::size_t r = first; r < n; ++r)
        for (std::size_t c = first; c < n; ++c)
          a[(r - first) * m + c - first] = r < ns ? (r == c ? 1.0 : 0.0) - h * jac[c * no + r] : jac[c * no + r];
      if (!solve_dense(a, b, m)) throw std::runtime_error("advance: singular Newton matrix");
      for (std::size_t r = first; r < n; ++r) known_[r] += b[r - first];
    }
    throw std::runtime_error("advance: Newton did not converge");
  };
  // As the framework at an event: modes from the values, algebraic variables
  // re-solved, until no mode changes.
  int changes = 0;
  auto event = [&]() {
    for (int round = 0; round < 20; ++round) {
      if (sh.algebraics > 0) solve({}, 0.0);
      const std::vector<LimiterRecord> records = limiter_records();
      bool changed = false;
      for (std::size_t k = 0; k < records.size(); ++k) {
        if (!records[k].written) continue;
        const DeclaredLimiter& lim = slot_->limiters()[k];
        const int m = limiter_mode_by_value(lim.kind, modes_[k], records[k], 1e-9);
        if (m == modes_[k]) continue;
        modes_[k] = m;
        ++changes;
        changed = true;
        if (lim.kind == LimiterKind::non_windup && m != kModeFree)
          known_[static_cast<std::size_t>(lim.state)] = limiter_held_value(m, records[k]);
      }
      if (!changed) return;
    }
  };
  event();  // the test may have changed inputs or the voltage: a jump
  for (int step = 0; step < steps; ++step) {
    const std::vector<double> previous(known_.begin(), known_.begin() + static_cast<std::ptrdiff_t>(ns));
    solve(previous, dt);
    event();
  }
  return changes;
}

std::size_t ComponentHarness::input(const std::string& signal) const {
  const FrameShape& s = slot_->shape();
  for (std::size_t k = 0; k < slot_->inputs().size(); ++k)
    if (slot_->inputs()[k].signal == signal) return static_cast<std::size_t>(s.states + s.algebraics) + k;
  throw std::out_of_range("no input \"" + signal + "\"");
}

int ComponentHarness::limiter(const std::string& name) const {
  for (std::size_t k = 0; k < slot_->limiters().size(); ++k)
    if (slot_->limiters()[k].name == name) return static_cast<int>(k);
  throw std::out_of_range("no limiter \"" + name + "\"");
}

int ComponentHarness::state(const std::string& name) const {
  for (std::size_t i = 0; i < slot_->states().size(); ++i)
    if (slot_->states()[i].name == name) return static_cast<int>(i);
  throw std::out_of_range("no state \"" + name + "\"");
}

int ComponentHarness::algebraic(const std::string& name) const {
  for (std::size_t i = 0; i < slot_->algebraics().size(); ++i)
    if (slot_->algebraics()[i].name == name) return static_cast<int>(i);
  throw std::out_of_range("no algebraic variable \"" + name + "\"");
}

}  // namespace lsdae::psse::test
