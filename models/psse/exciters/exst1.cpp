// models/psse/exciters/exst1.cpp -- EXST1, the IEEE Type ST1 static
// excitation system of 1981 (PSS/E Model Library "EXST1"; PowerWorld's
// "EXST1_PTI" diagram; PowerSimulationsDynamics.jl, whose EXST1 test matches
// PSS/E's trajectories, and OpenIPSL agree on the limits).
//
// .dyr record (PSS/E order; PowerSystems.jl's parser and ANDES agree):
//     TR  VIMAX  VIMIN  TC  TB  KA  TA  VRMAX  VRMIN  KC  KF  TF
//
//     VC    = |VT| / (1 + sTR)
//     VI    = Vref + VS − VC − VF, clamped to VIMIN..VIMAX (windup)
//     VR    = KA/(1 + sTA) (1 + sTC)/(1 + sTB) VI          (no limit on the state)
//     EFD   = VR clamped to VT·VRMIN − KC·IFD .. VT·VRMAX − KC·IFD (windup)
//     VF    = s KF/(1 + sTF) EFD
//
// Interpretations: the output limits carry VT (PowerWorld's EXST1_PTI and
// PowerSimulationsDynamics.jl; ANDES drops VT) and KC·IFD on both (PSD,
// OpenIPSL); they act on the output, so the TA state runs on (windup), as
// PSD, OpenIPSL and ANDES read them; the rate feedback is taken from EFD, as
// the 1981 ST1 figure and OpenIPSL draw it (PSD takes it from VR before the
// limit: the same while no limit acts). Initialization: VR = EFD = Efd0,
// VI = Efd0/KA, Vref = VC + Efd0/KA − VS.
#include "psse/exciters/exst1.h"

#include "psse/exciters/exciter_common.h"

namespace lsdae::psse {

namespace {

constexpr ParameterSpec kParameters[] = {
    {"TR", "s", "voltage transducer time constant"},
    {"VIMAX", "p.u.", "maximum regulator input"},
    {"VIMIN", "p.u.", "minimum regulator input"},
    {"TC", "s", "lead-lag numerator time constant"},
    {"TB", "s", "lead-lag denominator time constant"},
    {"KA", "p.u.", "regulator gain"},
    {"TA", "s", "regulator time constant"},
    {"VRMAX", "p.u.", "maximum output, times VT"},
    {"VRMIN", "p.u.", "minimum output, times VT"},
    {"KC", "p.u.", "rectifier loading factor"},
    {"KF", "p.u.", "rate feedback gain"},
    {"TF", "s", "rate feedback time constant"},
};

class Exst1 final : public Equations<Exst1> {
 public:
  Exst1(const DyrRecord& record, const UnitData&) : Equations(exciter_info(record)) {
    const Parameters p(record, kParameters);
    p.require_nonnegative(0);
    p.require(p[1] > p[2], 1, "must exceed VIMIN");
    p.require_nonnegative(3);
    p.require_nonnegative(4);
    p.require(p[4] > 0.0 || p[3] == 0.0, 3, "must be 0 when TB is 0 (a lead without a lag)");
    p.require_positive(5);
    p.require_nonnegative(6);
    p.require(p[7] > p[8], 7, "must exceed VRMIN");
    p.require_nonnegative(9);
    p.require_nonnegative(11);
    p.require(p[10] == 0.0 || p[11] > 0.0, 11, "must be > 0 when KF is not 0");
    input_ = VoltageInput(p[0]);
    vimax_ = p[1], vimin_ = p[2];
    lead_lag_ = LeadLag(p[3], p[4]);
    regulator_ = Lag(p[5], p[6]);
    vrmax_ = p[7], vrmin_ = p[8], kc_ = p[9];
    feedback_ = Washout(p[10], p[11]);
  }

  void declare(Layout& l) override {
    input_.declare(l);
    vi_ = l.limiter("VI", LimiterKind::windup);
    lead_lag_.declare(l, "VLL", "lead-lag state");
    regulator_.declare(l, "VR", "regulator output");
    efd_limit_ = l.limiter("EFD", LimiterKind::windup);
    feedback_.declare(l, "VF", "rate feedback state");
    efd_.declare_algebraic(l);
    ifd_ = kc_ != 0.0 ? l.input(signal::ifd) : -1;
  }

  void initialize(InitContext& in) override {
    const double efd = in.signal(signal::efd);
    efd_.initialize(in, efd);
    feedback_.initialize(in, efd);
    const double vi = lead_lag_.initialize(in, regulator_.initialize(in, efd));
    regulator_.settle(in, lead_lag_.settle(in, input_.initialize(in, vi)));  // forward (blocks.h)
  }

  template <class T>
  void equations(Frame<T>& f) const {
    const T& efd = efd_.value(f);
    const T vf = feedback_(f, efd);
    const T vi = f.clamp(vi_, input_.reference(f) + input_.vs(f) - input_.sensed(f) - vf, T(vimin_), T(vimax_));
    const T vr = regulator_(f, lead_lag_(f, vi));
    const T vt = voltage_magnitude(f);
    const T loading = ifd_ >= 0 ? kc_ * f.u(ifd_) : T(0.0);
    efd_.set(f, f.clamp(efd_limit_, vr, vt * vrmin_ - loading, vt * vrmax_ - loading));
  }

 private:
  VoltageInput input_;
  LeadLag lead_lag_;
  Lag regulator_;
  Washout feedback_;
  EfdOutput efd_;
  double vimax_ = 0, vimin_ = 0, vrmax_ = 0, vrmin_ = 0, kc_ = 0;
  int vi_ = -1, efd_limit_ = -1, ifd_ = -1;
};

}  // namespace

std::span<const ParameterSpec> exst1_parameters() { return kParameters; }

std::unique_ptr<Component> make_exst1(const DyrRecord& record, const UnitData& unit) {
  return std::make_unique<Exst1>(record, unit);
}

}  // namespace lsdae::psse
