// models/psse/exciters/scrx.cpp -- SCRX, the bus-fed or solid-fed static
// exciter (PSS/E Model Library "SCRX"; PowerWorld's SCRX diagram; OpenIPSL's
// PSS/E-validated SCRX and PowerSimulationsDynamics.jl agree on it).
//
// .dyr record (PSS/E order; PowerSystems.jl's parser and OpenIPSL agree):
//     TA/TB  TB  K  TE  EMIN  EMAX  CSWITCH  rc/rfd
//
//     e     = Vref + VS − |VT|
//     VLL   = (1 + sTA)/(1 + sTB) e,   TA = (TA/TB)·TB
//     VR    = K/(1 + sTE) VLL, non-windup limits EMIN <= VR <= EMAX
//             (TE = 0: K·VLL clamped)
//     EX    = |VT|·VR (CSWITCH = 0, bus fed)   or   VR (CSWITCH = 1, solid fed)
//     EFD   = EX, or −(rc/rfd)·IFD while IFD < 0 when rc/rfd > 0 (the crowbar
//             that lets a negative field current flow; a switch on IFD)
//
// rc/rfd = 0: no crowbar logic (EFD = EX), as PowerSimulationsDynamics.jl
// reads it. Limits as SEXS (sexs.cpp). Initialization: VR = Efd0/|VT| (bus
// fed) or Efd0, then as SEXS; a negative initial field current with a
// crowbar is named in the report.
#include "psse/exciters/scrx.h"

#include <cmath>

#include "psse/exciters/exciter_common.h"

namespace lsdae::psse {

namespace {

constexpr ParameterSpec kParameters[] = {
    {"TA/TB", "", "lead-lag numerator over denominator time constant"},
    {"TB", "s", "lead-lag denominator time constant"},
    {"K", "p.u.", "gain"},
    {"TE", "s", "bridge time constant"},
    {"EMIN", "p.u.", "minimum bridge output"},
    {"EMAX", "p.u.", "maximum bridge output"},
    {"CSWITCH", "", "0: bus fed (output times |VT|), 1: solid fed"},
    {"rc/rfd", "", "crowbar over field resistance (0: no crowbar logic)"},
};

class Scrx final : public Equations<Scrx> {
 public:
  Scrx(const DyrRecord& record, const UnitData&) : Equations(exciter_info(record)) {
    const Parameters p(record, kParameters);
    p.require_nonnegative(0);
    p.require_nonnegative(1);
    p.require_positive(2);
    p.require_nonnegative(3);
    p.require(p[5] > p[4], 5, "must exceed EMIN");
    p.require(p[6] == 0.0 || p[6] == 1.0, 6, "must be 0 (bus fed) or 1 (solid fed)");
    p.require_nonnegative(7);
    lead_lag_ = LeadLag(p[0] * p[1], p[1]);
    bridge_ = NonWindupLag(p[2], p[3]);
    emin_ = p[4], emax_ = p[5];
    bus_fed_ = p[6] == 0.0;
    crowbar_ = p[7];
  }

  void declare(Layout& l) override {
    input_.declare(l);
    lead_lag_.declare(l, "VLL", "lead-lag state");
    bridge_.declare(l, "VR", "bridge output before the supply");
    efd_.declare_algebraic(l);
    ifd_ = crowbar_ > 0.0 ? l.input(signal::ifd) : -1;
    negative_ = crowbar_ > 0.0 ? l.limiter("IFD_negative", LimiterKind::below) : -1;
  }

  void initialize(InitContext& in) override {
    const double efd = in.signal(signal::efd);
    efd_.initialize(in, efd);
    if (crowbar_ > 0.0 && in.signal(signal::ifd) < 0.0)
      in.note("the field current starts negative: the crowbar carries it and the bridge output is free");
    const double vr = bus_fed_ ? efd / std::abs(in.voltage()) : efd;
    input_.initialize(in, lead_lag_.initialize(in, bridge_.initialize(in, vr)));
  }

  template <class T>
  void equations(Frame<T>& f) const {
    const T e = input_.reference(f) + input_.vs(f) - input_.sensed(f);
    const T vr = bridge_(f, lead_lag_(f, e), T(emin_), T(emax_));
    const T ex = bus_fed_ ? voltage_magnitude(f) * vr : vr;
    if (crowbar_ > 0.0 && f.below(negative_, f.u(ifd_), T(0.0)))
      efd_.set(f, T(-crowbar_ * f.u(ifd_)));
    else
      efd_.set(f, ex);
  }

 private:
  VoltageInput input_;
  LeadLag lead_lag_;
  NonWindupLag bridge_;
  EfdOutput efd_;
  double emin_ = 0, emax_ = 0, crowbar_ = 0;
  bool bus_fed_ = true;
  int ifd_ = -1, negative_ = -1;
};

}  // namespace

std::span<const ParameterSpec> scrx_parameters() { return kParameters; }

std::unique_ptr<Component> make_scrx(const DyrRecord& record, const UnitData& unit) {
  return std::make_unique<Scrx>(record, unit);
}

}  // namespace lsdae::psse
