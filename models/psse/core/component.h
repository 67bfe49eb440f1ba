// models/psse/core/component.h -- the contract of a dynamic model (a
// "component"): one .dyr record (a machine, an exciter, a governor, ...) or
// one load, as one C++ class.
//
// A component
//   1. parses its parameters in its constructor (parameters.h: PSS/E order,
//      messages naming file, line and field);
//   2. declares, in declare(Layout&), its states x, algebraic variables z
//      (each with one residual), the signals of its unit it reads (inputs u)
//      and writes (outputs), the parameters it exposes (references such as
//      Vref, back-computed at initialization) and its limiters;
//   3. initializes, in initialize(InitContext&), every declared variable from
//      the power-flow operating point and from the signals of its unit, so
//      that all derivatives and residuals vanish at t = 0 (a machine writes
//      the Efd and Pm it needs; its exciter reads that Efd and back-computes
//      its states and its Vref; signals.h);
//   4. writes its equations ONCE, as a template on the scalar:
//          template <class T> void equations(Frame<T>& f) const;
//      reading f.x(i), f.z(j), f.u(k), f.vr(), f.vi(), f.p(k), writing
//      f.der(i, ...), f.res(j, ...), f.inject(ir, ii), and using
//      f.clamp / f.hold / f.below for limits (frame.h, limiter.h).
//      Derive from Equations<YourClass>: it instantiates the template for
//      double (values) and Dual (exact partial derivatives, dual.h).
//
// The framework (system.h) owns everything else: FMU variables and their
// names (<prefix>[<bus>_<id>].<name>, e.g. gen[102_1].delta), the semi-
// explicit and fully implicit forms, the Jacobian, binding the signals,
// limiter modes, event indicators, state events, counting limit events,
// the disturbances and the network.
//
// Errors: throw ModelError (parameters.h) with the record's location.
#ifndef LSDAE_MODELS_PSSE_CORE_COMPONENT_H
#define LSDAE_MODELS_PSSE_CORE_COMPONENT_H

#include <complex>
#include <limits>
#include <string>
#include <utility>

#include "psse/core/dual.h"
#include "psse/core/frame.h"

namespace lsdae::psse {

using Complex = std::complex<double>;

// What the component is; fixes the prefix of its variable names. A unit has
// at most one component of each role. A converter that is a unit's generator
// model (PSS/E's REGCA1) has the role `machine`; the WECC renewable modules
// around it are `electrical_control` (REEC_*: current commands from P and Q
// references) and `plant_control` (REPC_*: the plant's P and Q/V loops).
enum class Role { machine, load, exciter, stabilizer, governor, renewable, electrical_control, plant_control, other };
const char* role_prefix(Role role);  // gen, load, exc, pss, gov, ren, reec, repc, dev

// Initialization order: components of a lower stage are initialized first.
// Stage 0 devices sit at the network and are initialized from the power flow;
// a controller reads what its device needs and back-computes its own states.
enum class InitStage : int {
  network_device = 0,  // machines, loads, converters
  stabilizer = 1,      // reads the machine's speed, power; writes vs (usually 0)
  inner_control = 2,   // exciters, a converter's electrical control
  outer_control = 3,   // governors, a plant controller
};

struct ComponentInfo {
  std::string model;   // PSS/E model name, e.g. "GENROU"
  Role role = Role::other;
  InitStage stage = InitStage::network_device;
  int bus = 0;         // PSS/E bus number
  std::string id;      // machine or load id, trimmed (may be empty)
  std::string origin;  // "file:line" of the record, for messages
};

// A state or an algebraic variable of the component (for Layout::output).
struct Var {
  enum class Kind { state, algebraic } kind = Kind::state;
  int index = 0;
  static Var x(int i) { return {Kind::state, i}; }
  static Var z(int j) { return {Kind::algebraic, j}; }
};

inline constexpr double kNoDefault = std::numeric_limits<double>::quiet_NaN();

// The declarations (component.h, step 2). Indices are handed out from 0 in
// call order, separately for states, algebraics, inputs, parameters, limiters.
class Layout {
 public:
  virtual ~Layout() = default;
  virtual int state(const std::string& name, const std::string& description, const std::string& unit = "") = 0;
  virtual int algebraic(const std::string& name, const std::string& description, const std::string& unit = "") = 0;
  // A signal of the unit read by the equations as f.u(k). When no component
  // writes it, it is held at the value set at initialization (by this
  // component or another), or at `default_value` when nobody sets it.
  virtual int input(const char* signal, double default_value = kNoDefault) = 0;
  // Publishes one of the component's own variables as a signal of its unit.
  virtual void output(const char* signal, Var variable) = 0;
  // An FMU parameter (name "<prefix>[..].<name>"), read as f.p(k); its
  // value is set by initialize() (a reference: Vref, Pref, ...).
  virtual int parameter(const std::string& name, const std::string& description, const std::string& unit = "") = 0;
  // A limiter (frame.h, limiter.h); for LimiterKind::non_windup, the index
  // of the state it holds (set to the limit when it engages).
  virtual int limiter(const std::string& name, LimiterKind kind, int state = -1) = 0;
  // Whether another component of the unit reads `signal` (a producer may
  // then declare an algebraic variable for a signal it otherwise computes
  // inline). Valid in declare(): the framework calls declare() twice, first
  // to learn every component's inputs, then for good.
  virtual bool consumed(const char* signal) const = 0;
};

// The operating point and the unit's signals at initialization.
class InitContext {
 public:
  virtual ~InitContext() = default;
  virtual Complex voltage() const = 0;    // bus voltage from the power flow, p.u.
  virtual Complex injection() const = 0;  // power the unit injects (generators: its share), p.u. on the system base
  virtual double system_base() const = 0; // MVA
  virtual double frequency() const = 0;   // Hz
  virtual void state(int i, double value) = 0;
  virtual void algebraic(int j, double value) = 0;
  virtual void parameter(int k, double value) = 0;
  // The value of a signal of the unit, set earlier (signals.h: who sets it);
  // throws ModelError naming the signal when nobody has.
  virtual double signal(const char* name) const = 0;
  virtual bool has_signal(const char* name) const = 0;
  virtual void set_signal(const char* name, double value) = 0;
  // A note for the initialization report (e.g. "ZSORCE differs from X''d").
  virtual void note(const std::string& message) = 0;
};

class Component {
 public:
  explicit Component(ComponentInfo info) : info_(std::move(info)) {}
  virtual ~Component() = default;
  Component(const Component&) = delete;
  Component& operator=(const Component&) = delete;

  const ComponentInfo& info() const { return info_; }
  // "GENROU at bus 102 id '1' (case.dyr:7)", for messages.
  std::string describe() const;

  virtual void declare(Layout& layout) = 0;
  virtual void initialize(InitContext& init) = 0;
  virtual void evaluate(Frame<double>& f) const = 0;
  virtual void evaluate(Frame<Dual>& f) const = 0;
  // Only what the limiters record (the event indicators' inputs), for an
  // evaluation of the indicators alone (System::compute_event_indicators):
  // every limiter is recorded with the bits evaluate() gives it, the outputs
  // need not be written. The default is evaluate().
  virtual void evaluate_limiters(Frame<double>& f) const { evaluate(f); }

 private:
  ComponentInfo info_;
};

// Derive a model from Equations<Model> and write equations() once. A model
// whose limited quantities take much less than its equations may add a
// public limiter_equations(Frame<double>&) that records its limiters alone
// (the same operations on them as equations(), so the same bits); the
// indicator-only evaluation then takes it.
template <class Derived>
class Equations : public Component {
 public:
  using Component::Component;
  void evaluate(Frame<double>& f) const final { static_cast<const Derived*>(this)->equations(f); }
  void evaluate(Frame<Dual>& f) const final { static_cast<const Derived*>(this)->equations(f); }
  void evaluate_limiters(Frame<double>& f) const final {
    if constexpr (requires(const Derived& d, Frame<double>& g) { d.limiter_equations(g); })
      static_cast<const Derived*>(this)->limiter_equations(f);
    else
      static_cast<const Derived*>(this)->equations(f);
  }
};

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_CORE_COMPONENT_H
