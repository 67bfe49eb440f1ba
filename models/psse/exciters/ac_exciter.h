// models/psse/exciters/ac_exciter.h -- the alternator-rectifier exciter that
// ESAC1A, ESAC6A, EXAC1 and EXAC2 share (IEEE Std 421.5-2016 §6 and Annex D;
// the PSS/E Model Library draws it alike in each):
//
//     TE dVE/dt = VR − VFE,   VE >= 0 (a non-windup lower limit)
//     VFE       = KE·VE + VE·SE(VE) + KD·IFD
//     EFD       = VE·FEX(KC·IFD / VE)                  (core/rectifier.h)
//
// SE is PSS/E's quadratic saturation through (E1, SE(E1)), (E2, SE(E2))
// (core/saturation.h). VE >= 0 as OpenIPSL's PSS/E-validated AC models apply
// it (the alternator's output cannot reverse through the diode bridge).
// Initialization from the Efd and IFD the machine needs: VE by inverting the
// rectifier, then VFE, which is VR at rest.
//
// This is the one core of the four AC models: each builds its exciter and
// (ESAC1A, EXAC1, EXAC2) its regulator from the record with from(), which
// checks the fields the core reads (IEEE Std 421.5-2016 Annex H's ranges:
// TE > 0, KC, KD, KF >= 0, KA > 0; a lead without a lag refused), names
// the fields by their place in the model's own record, and owns the Efd
// output. A model adds only its own regulator limits and gates.
#ifndef LSDAE_MODELS_PSSE_EXCITERS_AC_EXCITER_H
#define LSDAE_MODELS_PSSE_EXCITERS_AC_EXCITER_H

#include <string>

#include "psse/core/blocks.h"
#include "psse/core/parameters.h"
#include "psse/core/rectifier.h"
#include "psse/core/saturation.h"
#include "psse/core/signals.h"
#include "psse/exciters/exciter_common.h"

namespace lsdae::psse {

// The fields the AC exciters' records share (IEEE Std 421.5-2016 §6 names),
// one spec each, so that every model's table says the same of them.
namespace ac_field {
inline constexpr ParameterSpec TR{"TR", "s", "voltage transducer time constant"};
inline constexpr ParameterSpec TB{"TB", "s", "lead-lag denominator time constant"};
inline constexpr ParameterSpec TC{"TC", "s", "lead-lag numerator time constant"};
inline constexpr ParameterSpec KA{"KA", "p.u.", "regulator gain"};
inline constexpr ParameterSpec TA{"TA", "s", "regulator time constant"};
inline constexpr ParameterSpec VAMAX{"VAMAX", "p.u.", "maximum regulator output"};
inline constexpr ParameterSpec VAMIN{"VAMIN", "p.u.", "minimum regulator output"};
inline constexpr ParameterSpec VRMAX{"VRMAX", "p.u.", "maximum exciter field voltage"};
inline constexpr ParameterSpec VRMIN{"VRMIN", "p.u.", "minimum exciter field voltage"};
inline constexpr ParameterSpec TE{"TE", "s", "exciter time constant"};
inline constexpr ParameterSpec KF{"KF", "p.u.", "rate feedback gain"};
inline constexpr ParameterSpec TF{"TF", "s", "rate feedback time constant"};
inline constexpr ParameterSpec KC{"KC", "p.u.", "rectifier loading factor"};
inline constexpr ParameterSpec KD{"KD", "p.u.", "demagnetizing factor"};
inline constexpr ParameterSpec KE{"KE", "p.u.", "exciter field constant"};
inline constexpr ParameterSpec E1{"E1", "p.u.", "first saturation point"};
inline constexpr ParameterSpec SE1{"SE(E1)", "", "saturation at E1"};
inline constexpr ParameterSpec E2{"E2", "p.u.", "second saturation point"};
inline constexpr ParameterSpec SE2{"SE(E2)", "", "saturation at E2"};
}  // namespace ac_field

// Where an AC model's record holds the exciter's fields (0-based).
struct AlternatorFields {
  std::size_t te, kc, kd, ke, e1, se1, e2, se2;
};

class AlternatorRectifier {
 public:
  AlternatorRectifier() = default;
  AlternatorRectifier(double te, double ke, double kd, double kc, QuadraticSaturation saturation)
      : integrator_(0.0, 1.0 / te), ke_(ke), kd_(kd), saturation_(saturation), rectifier_(kc) {}
  // From a record: checks TE > 0, KC >= 0, KD >= 0 and the saturation points.
  static AlternatorRectifier from(const Parameters& p, const AlternatorFields& i);

  // State and limiter "VE", the rectifier's switches "FEX.*", the input ifd,
  // and the output: the algebraic "Efd" (EfdOutput).
  void declare(Layout& l) {
    integrator_.declare(l, "VE", "exciter alternator output voltage");
    rectifier_.declare(l, "FEX");
    ifd_ = l.input(signal::ifd);
    efd_.declare_algebraic(l);
  }
  // Sets Efd and VE for the machine's Efd0 and IFD0; returns VFE (= VR at rest).
  double initialize(InitContext& in, const std::string& where) const {
    const double efd = in.signal(signal::efd), ifd = in.signal(signal::ifd);
    efd_.initialize(in, efd);
    if (!saturation_.note().empty()) in.note(saturation_.note());
    const double ve = rectifier_.source_for(efd, ifd, where);
    integrator_.initialize(in, ve);
    return ke_ * ve + saturation_.times(ve) + kd_ * ifd;
  }
  // VFE at the current state (no limiter is recorded).
  template <class T>
  T vfe(const Frame<T>& f) const {
    const T& ve = f.x(integrator_.state());
    return ke_ * ve + saturation_.times(ve) + kd_ * f.u(ifd_);
  }
  // Writes dVE/dt for the regulator output VR and the feedback VFE, and the
  // residual of Efd = VE·FEX(KC·IFD/VE).
  template <class T>
  void operator()(Frame<T>& f, const T& vr, const T& vfe) const {
    const T ve = integrator_(f, vr - vfe, T(0.0), T(kUnbounded));
    efd_.set(f, rectifier_(f, ve, f.u(ifd_)));
  }

 private:
  PiNonWindup integrator_;  // KP = 0, KI = 1/TE: the non-windup integrator
  double ke_ = 0, kd_ = 0;  // KC is the rectifier's
  QuadraticSaturation saturation_;
  RectifierRegulation rectifier_;
  EfdOutput efd_;
  int ifd_ = -1;
};

// Where a record holds the regulator's fields (0-based).
struct AcRegulatorFields {
  std::size_t tr, tb, tc, ka, ta, kf, tf;
};

// The regulator in front of ESAC1A, EXAC1 and EXAC2 (IEEE Std 421.5-2016
// §6.1-6.2; PSS/E's diagrams alike):
//     VC = |VT|/(1 + sTR),   VF = s KF/(1 + sTF) VFE   (rate feedback from VFE)
//     VA = KA/(1 + sTA) (1 + sTC)/(1 + sTB) (Vref + VS − VC − VF),
//          non-windup limits lo..hi (the model says which)
class AcRegulator {
 public:
  AcRegulator() = default;
  AcRegulator(double tr, double tb, double tc, double ka, double ta, double kf, double tf)
      : input_(tr), lead_lag_(tc, tb), regulator_(ka, ta), feedback_(kf, tf) {}
  // From a record: checks TR, TB, TC, TA, TF >= 0, TC = 0 when TB = 0,
  // KA > 0, TF > 0 when KF != 0.
  static AcRegulator from(const Parameters& p, const AcRegulatorFields& i);
  void declare(Layout& l, const std::string& name) {
    input_.declare(l);
    lead_lag_.declare(l, "VLL", "lead-lag state");
    regulator_.declare(l, name, "regulator output");
    feedback_.declare(l, "VF", "rate feedback state");
  }
  // At rest with regulator output va and feedback input vfe: the states and
  // Vref, then forward from the realized error (blocks.h); returns VA as realized.
  double initialize(InitContext& in, double va, double vfe) const {
    feedback_.initialize(in, vfe);
    const double e = input_.initialize(in, lead_lag_.initialize(in, regulator_.initialize(in, va)));
    return regulator_.settle(in, lead_lag_.settle(in, e));
  }
  template <class T>
  T operator()(Frame<T>& f, const T& vfe, const T& lo, const T& hi) const {
    const T e = input_.reference(f) + input_.vs(f) - input_.sensed(f) - feedback_(f, vfe);
    return regulator_(f, lead_lag_(f, e), lo, hi);
  }

 private:
  VoltageInput input_;
  LeadLag lead_lag_;
  NonWindupLag regulator_;
  Washout feedback_;
};

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_EXCITERS_AC_EXCITER_H
