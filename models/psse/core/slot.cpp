// models/psse/core/slot.cpp -- see slot.h.
#include "psse/core/slot.h"

#include <algorithm>

#include "psse/core/limiter.h"
#include "psse/core/parameters.h"

namespace lsdae::psse {

namespace {

class Recorder final : public Layout {
 public:
  Recorder(const Component& c, const std::vector<std::string>* consumed) : c_(c), consumed_(consumed) {}

  int state(const std::string& name, const std::string& description, const std::string& unit) override {
    states.push_back({name, description, unit});
    return static_cast<int>(states.size()) - 1;
  }
  int algebraic(const std::string& name, const std::string& description, const std::string& unit) override {
    algebraics.push_back({name, description, unit});
    return static_cast<int>(algebraics.size()) - 1;
  }
  int input(const char* signal, double default_value) override {
    for (const auto& in : inputs)
      if (in.signal == signal)
        throw ModelError(c_.describe() + ": reads signal \"" + signal + "\" twice → declare each input once");
    inputs.push_back({signal, default_value});
    return static_cast<int>(inputs.size()) - 1;
  }
  void output(const char* signal, Var v) override {
    for (const auto& out : outputs)
      if (out.signal == signal)
        throw ModelError(c_.describe() + ": writes signal \"" + signal + "\" twice → declare each output once");
    outputs.push_back({signal, v});
  }
  int parameter(const std::string& name, const std::string& description, const std::string& unit) override {
    parameters.push_back({name, description, unit});
    return static_cast<int>(parameters.size()) - 1;
  }
  int limiter(const std::string& name, LimiterKind kind, int state) override {
    limiters.push_back({name, kind, state});
    return static_cast<int>(limiters.size()) - 1;
  }
  bool consumed(const char* signal) const override {
    return consumed_ != nullptr && std::find(consumed_->begin(), consumed_->end(), signal) != consumed_->end();
  }

  std::vector<DeclaredVariable> states, algebraics, parameters;
  std::vector<DeclaredInput> inputs;
  std::vector<DeclaredOutput> outputs;
  std::vector<DeclaredLimiter> limiters;

 private:
  const Component& c_;
  const std::vector<std::string>* consumed_;
};

}  // namespace

std::vector<DeclaredInput> ComponentSlot::inputs_of(Component& component) {
  Recorder first(component, nullptr);
  component.declare(first);
  return first.inputs;
}

ComponentSlot::ComponentSlot(Component& component, const std::vector<std::string>& consumed) : component_(&component) {
  Recorder r(component, &consumed);
  component.declare(r);
  states_ = std::move(r.states);
  algebraics_ = std::move(r.algebraics);
  inputs_ = std::move(r.inputs);
  outputs_ = std::move(r.outputs);
  parameters_ = std::move(r.parameters);
  limiters_ = std::move(r.limiters);
  for (const DeclaredOutput& o : outputs_) {
    const int n = static_cast<int>(o.variable.kind == Var::Kind::state ? states_.size() : algebraics_.size());
    if (o.variable.index < 0 || o.variable.index >= n)
      throw ModelError(component.describe() + ": signal \"" + o.signal + "\" names variable " +
                       std::to_string(o.variable.index) + ", which was not declared → output a declared variable");
  }
  for (const DeclaredLimiter& l : limiters_)
    if (l.kind == LimiterKind::non_windup && (l.state < 0 || l.state >= static_cast<int>(states_.size())))
      throw ModelError(component.describe() + ": non-windup limiter \"" + l.name + "\" holds state " +
                       std::to_string(l.state) + ", which was not declared → pass the index of its state");
  shape_.states = static_cast<int>(states_.size());
  shape_.algebraics = static_cast<int>(algebraics_.size());
  shape_.inputs = static_cast<int>(inputs_.size());
  shape_.parameters = static_cast<int>(parameters_.size());
  shape_.limiters = static_cast<int>(limiters_.size());

}

void ComponentSlot::evaluate(const double* known, double* out, const double* parameter, const int* mode,
                             LimiterRecord* record, double time) const {
  evaluate_component(*component_, shape_, widen_data(), known, out, parameter, mode, record, time);
}

void ComponentSlot::widen(std::size_t l, double lo, double hi) {
  if (widen_.empty()) {  // no widening: the lower limit at most +kUnbounded, the upper at least -kUnbounded
    widen_.resize(2 * limiters_.size());
    for (std::size_t k = 0; k < limiters_.size(); ++k) widen_[2 * k] = kUnbounded, widen_[2 * k + 1] = -kUnbounded;
  }
  widen_.at(2 * l) = std::min(widen_.at(2 * l), lo);
  widen_.at(2 * l + 1) = std::max(widen_.at(2 * l + 1), hi);
}

void ComponentSlot::initial_modes(const double* known, const double* parameter, double tolerance,
                                  std::vector<int>& mode, std::vector<LimiterRecord>& record,
                                  std::vector<char>& outside) const {
  const auto nl = limiters_.size();
  mode.assign(nl, kModeFree);
  record.assign(nl, LimiterRecord{});
  outside.assign(nl, 0);
  std::vector<double> out(static_cast<std::size_t>(shape_.output_count()));
  for (std::size_t pass = 0; pass < nl + 2; ++pass) {
    evaluate(known, out.data(), parameter, mode.data(), record.data(), 0.0);
    bool changed = false;
    for (std::size_t l = 0; l < nl; ++l) {
      bool beyond = false;
      const int m = limiter_initial_mode(limiters_[l].kind, record[l], tolerance, beyond);
      outside[l] = beyond ? 1 : 0;
      if (m != mode[l]) mode[l] = m, changed = true;
    }
    if (!changed) return;
  }
  throw ModelError(component_->describe() + ": the limiter modes do not settle at initialization (each pass " +
                   "changes another) → check the limits against the operating point");
}

void ComponentSlot::jacobian(const double* known, const double* parameter, const int* mode, double time,
                             std::vector<double>& jacobian, std::vector<LimiterRecord>* tangents,
                             bool zero_unreached, DualScratch* scratch) const {
  const auto nk = static_cast<std::size_t>(shape_.known_count());
  const auto no = static_cast<std::size_t>(shape_.output_count());
  const auto nl = static_cast<std::size_t>(shape_.limiters);
  jacobian.resize(nk * no);  // every entry written below
  if (tangents != nullptr) {
    if (zero_unreached) tangents->assign(nk * nl, LimiterRecord{});
    else tangents->resize(nk * nl);
  }
  DualScratch& d = scratch != nullptr ? *scratch : dual_;
  if (d.known.size() < nk) d.known.resize(nk);
  if (d.out.size() < no) d.out.resize(no);
  Dual* dual_known = d.known.data();
  Dual* dual_out = d.out.data();
  for (std::size_t k = 0; k < nk; ++k) dual_known[k] = Dual(known[k]);
  for (std::size_t c = 0; c < nk; ++c) {
    dual_known[c].d = 1.0;
    std::fill(dual_out, dual_out + no, Dual());
    LimiterRecord* t = tangents != nullptr && nl > 0 ? tangents->data() + c * nl : nullptr;
    Frame<Dual> f(shape_, dual_known, dual_out, parameter, mode, t, time);
    if (!widen_.empty()) f.widen_limits(widen_.data());
    component_->evaluate(f);
    for (std::size_t r = 0; r < no; ++r) jacobian[c * no + r] = dual_out[r].d;
    dual_known[c].d = 0.0;
  }
}

}  // namespace lsdae::psse
