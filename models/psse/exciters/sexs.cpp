// models/psse/exciters/sexs.cpp -- SEXS, the simplified excitation system
// (PSS/E Model Library "SEXS"; PowerWorld's "SEXS_PTI" block diagram, which
// GridKit's SEXS-PTI README and ANDES reproduce).
//
// .dyr record (PSS/E order; PowerSystems.jl's parser and ANDES agree):
//     TA/TB  TB  K  TE  EMIN  EMAX
//
//     e     = Vref + VS − |VT|                         (no transducer lag)
//     VLL   = (1 + sTA)/(1 + sTB) e,   TA = (TA/TB)·TB  (TB = 0: VLL = e)
//     EFD   = K/(1 + sTE) VLL, non-windup limits EMIN <= EFD <= EMAX
//             (TE = 0: EFD = K·VLL clamped, a windup limit)
//
// Limits: the EFD limits are drawn on the TE block: non-windup (IEEE Std
// 421.5-2016 Annex E), as PowerSimulationsDynamics.jl and ANDES read them.
// Initialization: EFD = Efd0, VLL = e = Efd0/K, the lead-lag state e,
// Vref = |VT| + Efd0/K − VS.
#include "psse/exciters/sexs.h"

#include "psse/exciters/exciter_common.h"

namespace lsdae::psse {

namespace {

constexpr ParameterSpec kParameters[] = {
    {"TA/TB", "", "lead-lag numerator over denominator time constant"},
    {"TB", "s", "lead-lag denominator time constant"},
    {"K", "p.u.", "gain"},
    {"TE", "s", "exciter time constant"},
    {"EMIN", "p.u.", "minimum field voltage"},
    {"EMAX", "p.u.", "maximum field voltage"},
};

class Sexs final : public Equations<Sexs> {
 public:
  Sexs(const DyrRecord& record, const UnitData&) : Equations(exciter_info(record)) {
    const Parameters p(record, kParameters);
    p.require_nonnegative(0);
    p.require_nonnegative(1);
    p.require_positive(2);
    p.require_nonnegative(3);
    p.require(p[5] > p[4], 5, "must exceed EMIN");
    lead_lag_ = LeadLag(p[0] * p[1], p[1]);
    exciter_ = NonWindupLag(p[2], p[3]);
    emin_ = p[4], emax_ = p[5];
  }

  void declare(Layout& l) override {
    input_.declare(l);
    lead_lag_.declare(l, "VLL", "lead-lag state");
    exciter_.declare(l, "EFD", "field voltage");
    if (exciter_.state() >= 0)
      efd_.declare_state(l, exciter_.state());
    else
      efd_.declare_algebraic(l);
  }

  void initialize(InitContext& in) override {
    const double efd = in.signal(signal::efd);
    efd_.initialize(in, efd);
    const double e = lead_lag_.initialize(in, exciter_.initialize(in, efd));
    input_.initialize(in, e);
  }

  template <class T>
  void equations(Frame<T>& f) const {
    const T e = input_.reference(f) + input_.vs(f) - input_.sensed(f);
    const T efd = exciter_(f, lead_lag_(f, e), T(emin_), T(emax_));
    efd_.set(f, efd);
  }

 private:
  VoltageInput input_;
  LeadLag lead_lag_;
  NonWindupLag exciter_;
  EfdOutput efd_;
  double emin_ = 0, emax_ = 0;
};

}  // namespace

std::span<const ParameterSpec> sexs_parameters() { return kParameters; }

std::unique_ptr<Component> make_sexs(const DyrRecord& record, const UnitData& unit) {
  return std::make_unique<Sexs>(record, unit);
}

}  // namespace lsdae::psse
