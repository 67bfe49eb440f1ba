// models/psse/exciters/exciter_common.h -- what the exciter models share:
// the voltage input (transducer, reference, stabilizer signal), the DC
// exciters' PSS/E rule for KE = 0 and VRMAX = 0, and the Efd output.
//
// Voltage input (IEEE Std 421.5-2016 §4, the PSS/E Model Library's ECOMP):
// VC = |VT| / (1 + sTR), |VT| the bus voltage magnitude (no load
// compensation: PSS/E models it with separate models, IEEEVC / COMP, which
// lsdae does not implement); the reference Vref is an FMU parameter
// "exc[<bus>_<id>].Vref" back-computed at initialization; VS is the unit's
// stabilizer signal (0 when the unit has none). The under- and over-
// excitation limiter inputs VUEL and VOEL are not modeled (no UEL/OEL model
// exists in lsdae): a summed VUEL/VOEL is 0, a gate with one is inactive.
//
// DC exciters (IEEET1, ESDC1A, ESDC2A), PSS/E Program Application Guide
// vol. 2 §15.2.4 (as OpenIPSL's PSS/E-validated models apply it):
//   VRMAX = 0 in the record: VRMAX = SE(E2)·E2 when KE <= 0, else
//           (SE(E2) + KE)·E2, and VRMIN = −VRMAX;
//   KE = 0 in the record:    KE = VRMAX / (10 Efd0) − SE(Efd0), so that the
//           regulator starts at VR = VRMAX / 10 (a self-excited exciter).
// Both are computed at initialization and named in the report.
#ifndef LSDAE_MODELS_PSSE_EXCITERS_EXCITER_COMMON_H
#define LSDAE_MODELS_PSSE_EXCITERS_EXCITER_COMMON_H

#include <string>

#include "psse/core/blocks.h"
#include "psse/core/component.h"
#include "psse/core/saturation.h"
#include "psse/core/signals.h"

namespace lsdae::psse {

// The info of an exciter made from `record`.
ComponentInfo exciter_info(const DyrRecord& record);

class VoltageInput {
 public:
  VoltageInput() = default;
  explicit VoltageInput(double tr) : transducer_(1.0, tr) {}
  // State "VC" (when TR > 0), parameter "Vref", input vs.
  void declare(Layout& l) {
    transducer_.declare(l, "VC", "sensed terminal voltage");
    vref_ = l.parameter("Vref", "voltage reference, set at initialization");
    vs_ = l.input(signal::vs, 0.0);
  }
  // Sets the transducer at |V| and Vref so that Vref + VS − VC = error;
  // returns the error as the equations will compute it from these values
  // (it differs from `error` by the rounding of Vref), for a forward settle.
  double initialize(InitContext& in, double error) const {
    const double vc = std::abs(in.voltage());
    transducer_.initialize(in, vc);
    const double vs = stabilizer(in), vref = vc + error - vs;
    in.parameter(vref_, vref);
    return vref + vs - vc;
  }
  // VS at initialization (0 without a stabilizer).
  static double stabilizer(const InitContext& in) { return in.has_signal(signal::vs) ? in.signal(signal::vs) : 0.0; }
  template <class T>
  T sensed(Frame<T>& f) const {
    return transducer_(f, voltage_magnitude(f));
  }
  template <class T>
  T reference(const Frame<T>& f) const {
    return T(f.p(vref_));
  }
  template <class T>
  const T& vs(const Frame<T>& f) const {
    return f.u(vs_);
  }

 private:
  Lag transducer_;
  int vref_ = -1, vs_ = -1;
};

// The PSS/E rule for a DC exciter's VRMAX = 0 and KE = 0 (header comment).
struct DcExciterConstants {
  double vrmax = 0, vrmin = 0, ke = 0;
};
// `note` receives a line for the initialization report when a value was computed.
DcExciterConstants dc_exciter_constants(double vrmax, double vrmin, double ke, double e2, double se2, double efd0,
                                        const QuadraticSaturation& sat, std::string& note);

// The exciter's field voltage as the unit's efd signal: one of its states,
// or an algebraic variable "Efd" with the residual Efd − value.
class EfdOutput {
 public:
  void declare_state(Layout& l, int state) {
    algebraic_ = -1;
    l.output(signal::efd, Var::x(state));
  }
  void declare_algebraic(Layout& l) {
    algebraic_ = l.algebraic("Efd", "field voltage");
    l.output(signal::efd, Var::z(algebraic_));
  }
  void initialize(InitContext& in, double efd) const {
    if (algebraic_ >= 0) in.algebraic(algebraic_, efd);
  }
  // The algebraic Efd (declare_algebraic only), for a feedback from EFD.
  template <class T>
  const T& value(const Frame<T>& f) const {
    return f.z(algebraic_);
  }
  template <class T>
  void set(Frame<T>& f, const T& efd) const {
    if (algebraic_ >= 0) f.res(algebraic_, f.z(algebraic_) - efd);
  }

 private:
  int algebraic_ = -1;
};

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_EXCITERS_EXCITER_COMMON_H
