// models/psse/core/slot.h -- one component as the framework holds it: what it
// declared (names, inputs, outputs, parameters, limiters), and its
// evaluation on a local vector of knowns, values or exact local Jacobian.
//
// The local vectors (frame.h): knowns = [x | z | u | Vr Vi] (FrameShape::
// known_count()), outputs = [f | g | Ir Ii] (output_count()). The System
// (system.h) gathers the knowns from the FMU's variables and scatters the
// outputs; the model tests (tests/models/psse/component_harness.h) drive a
// slot directly.
//
// Cost: evaluate() is one call of the model's equations; jacobian() is
// known_count() calls with Dual (one column each), into a dense
// output_count() x known_count() block, column major.
#ifndef LSDAE_MODELS_PSSE_CORE_SLOT_H
#define LSDAE_MODELS_PSSE_CORE_SLOT_H

#include <algorithm>
#include <string>
#include <vector>

#include "psse/core/component.h"

namespace lsdae::psse {

struct DeclaredVariable {
  std::string name, description, unit;
};

struct DeclaredInput {
  std::string signal;
  double default_value = kNoDefault;
};

struct DeclaredOutput {
  std::string signal;
  Var variable;
};

struct DeclaredLimiter {
  std::string name;
  LimiterKind kind = LimiterKind::windup;
  int state = -1;  // non_windup: the state it holds
};

// One evaluation of a component's equations in double: what
// ComponentSlot::evaluate() does, as a function of the few values it reads
// (the component, its shape, its widened limits, null for none), so that a
// caller holding copies of them in its own dense array (the System's
// SlotHot, slot_work.h) evaluates without reading the ComponentSlot (a cache
// miss per slot): the same operations, the same bits. With `limiters_only`
// the component's evaluate_limiters() (component.h): the records alone.
inline void evaluate_component(const Component& component, const FrameShape& shape, const double* widen,
                               const double* known, double* out, const double* parameter, const int* mode,
                               LimiterRecord* record, double time, bool limiters_only = false) {
  std::fill(out, out + shape.output_count(), 0.0);
  Frame<double> f(shape, known, out, parameter, mode, record, time);
  if (widen != nullptr) f.widen_limits(widen);
  if (limiters_only)
    component.evaluate_limiters(f);
  else
    component.evaluate(f);
}

// Work space of ComponentSlot::jacobian(): the Dual knowns and outputs of
// one column. Every entry is written before it is read in each call, so one
// scratch can serve every slot in turn (the System's: one block that stays
// in the cache instead of two heap blocks per slot).
struct DualScratch {
  std::vector<Dual> known, out;
};

class ComponentSlot {
 public:
  // Declares the component twice (component.h, Layout::consumed): first
  // with nothing consumed, to learn its inputs; then with `consumed`. The
  // second call is the one kept. Throws ModelError for an inconsistent
  // declaration (an output naming a variable that does not exist, a
  // non_windup limiter without a valid state, a signal written twice).
  ComponentSlot(Component& component, const std::vector<std::string>& consumed);
  // Only the first pass: the inputs the component reads.
  static std::vector<DeclaredInput> inputs_of(Component& component);

  Component& component() const { return *component_; }
  const FrameShape& shape() const { return shape_; }
  const std::vector<DeclaredVariable>& states() const { return states_; }
  const std::vector<DeclaredVariable>& algebraics() const { return algebraics_; }
  const std::vector<DeclaredInput>& inputs() const { return inputs_; }
  const std::vector<DeclaredOutput>& outputs() const { return outputs_; }
  const std::vector<DeclaredVariable>& parameters() const { return parameters_; }
  const std::vector<DeclaredLimiter>& limiters() const { return limiters_; }

  // outputs := the model's [f | g | Ir Ii] at `known`; `record` (limiters()
  // entries, may be null) receives each limiter's tested values.
  void evaluate(const double* known, double* out, const double* parameter, const int* mode, LimiterRecord* record,
                double time) const;
  // The limiters' modes at initialization (limiter_initial_mode, no
  // hysteresis), from the values at `known`: evaluated with the modes found
  // so far and repeated until no mode changes, because one limiter's mode
  // can move another's input (a gate or the rectifier's segment before a
  // clamp; starting from all "free" would test the clamp with the wrong
  // branch). `record` receives the tested values of the last pass and
  // outside[l] whether limiter l lies beyond its limits (by > tolerance).
  // Throws ModelError naming the component when the modes do not settle
  // within limiters() + 2 passes.
  void initial_modes(const double* known, const double* parameter, double tolerance, std::vector<int>& mode,
                     std::vector<LimiterRecord>& record, std::vector<char>& outside) const;
  // Widens limiter l's limits for every later evaluation: the lower limit to
  // at most `lo`, the upper to at least `hi` (±infinity: unchanged).
  // PowerWorld's rule for a value that starts beyond its limit (the System
  // decides, system.h "Limits at initialization"); widened() lists them.
  void widen(std::size_t l, double lo, double hi);
  bool widened() const { return !widen_.empty(); }
  // The widened limits as evaluate_component() takes them (null: none); valid
  // until the next widen().
  const double* widen_data() const { return widen_.empty() ? nullptr : widen_.data(); }

  // jacobian[c * output_count + r] = d out_r / d known_c; when `tangents`
  // is given, (*tangents)[c * limiters + l] = d (limiter l's record) / d known_c
  // (zero for a limiter the equations do not reach at this point; with
  // `zero_unreached` false those entries are left as they were: a caller
  // that reads only the limiters a double evaluation at the same point
  // recorded saves clearing them).
  // `scratch`: the Dual work space to use (null: the slot's own).
  void jacobian(const double* known, const double* parameter, const int* mode, double time,
                std::vector<double>& jacobian, std::vector<LimiterRecord>* tangents = nullptr,
                bool zero_unreached = true, DualScratch* scratch = nullptr) const;

 private:
  // What evaluate() reads, in the object's first cache line: the component,
  // the shape and the widened limits (one miss per slot and evaluation
  // instead of two: widen_ was the last member).
  Component* component_;
  FrameShape shape_;
  std::vector<double> widen_;  // 2 per limiter (frame.h widen_limits); empty: none widened
  std::vector<DeclaredVariable> states_, algebraics_, parameters_;
  std::vector<DeclaredInput> inputs_;
  std::vector<DeclaredOutput> outputs_;
  std::vector<DeclaredLimiter> limiters_;
  mutable DualScratch dual_;
};

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_CORE_SLOT_H
