// models/psse/machines/gencls.cpp -- GENCLS (gencls.h).
//
// Per unit on MBASE: the EMF E = E' e^(jδ) behind Z = ZR + jZX (ZSORCE of
// the generator record) injects I = (E − V)/Z (MBASE/SBASE on the system
// base); the air-gap power is Pe = Re(E conj(I)) and
//     2H dΔω/dt = (Pm − D Δω − Pe)/(1 + Δω),   dδ/dt = ω0 Δω,
// torques being powers over the speed (the EMF does not scale with speed).
// Checked against PSS/E's OMIB trajectory (Test01): 1.12e-3 rad, which is
// PSS/E's own integration error there (docs/psse.md); writing the swing as
// (Pm − DΔω)/(1 + Δω) − Pe instead doubles the difference (2.3e-3 rad), and
// Pm − Pe − DΔω gives 1.12e-3 rad as well.
// H = 0: an infinite bus (PSS/E's convention): E and δ stay at their initial
// values; the model then has no state.
// Initialization: I = conj(S/V), E = V + Z I, E' = |E|, δ = arg E, Pm = Pe.
#include "psse/machines/gencls.h"

#include <cmath>
#include <numbers>

#include "psse/core/signals.h"
#include "psse/machines/machine_frame.h"

namespace lsdae::psse {

namespace {

constexpr ParameterSpec kParameters[] = {
    {"H", "s", "inertia constant on MBASE (0: infinite bus)"},
    {"D", "p.u.", "speed damping on MBASE"},
};

class Gencls final : public Equations<Gencls> {
 public:
  Gencls(const DyrRecord& record, const UnitData& unit)
      : Equations({record.model, Role::machine, InitStage::network_device, record.bus, record.id, record.where()}) {
    const Parameters p(record, kParameters);
    p.require_nonnegative(0);
    p.require_nonnegative(1);
    h_ = p[0];
    d_ = p[1];
    if (std::abs(unit.zsource) == 0.0)
      throw ModelError(p.where() + ": the generator's ZSORCE is 0 → GENCLS needs the source impedance ZR + jZX");
    const Complex y = 1.0 / unit.zsource;
    g_ = y.real();
    b_ = y.imag();
    base_ratio_ = unit.mbase / unit.system_base;
    omega0_ = 2.0 * std::numbers::pi * unit.frequency;
  }

  void declare(Layout& l) override {
    if (h_ > 0.0) {
      delta_ = l.state("delta", "rotor angle (angle of the EMF)", "rad");
      dw_ = l.state("dw", "rotor speed deviation", "");
      l.output(signal::speed, Var::x(dw_));
      pm_ = l.input(signal::pm);
    }
  }

  void initialize(InitContext& in) override {
    const Complex v = in.voltage();
    const Complex i = std::conj(in.injection() / base_ratio_ / v);
    const Complex e = v + i / Complex(g_, b_);
    emf_ = std::abs(e);
    delta0_ = std::arg(e);
    if (h_ > 0.0) {
      in.state(delta_, delta0_);
      in.state(dw_, 0.0);
      in.set_signal(signal::pm, (e * std::conj(i)).real());
    }
  }

  template <class T>
  void equations(Frame<T>& f) const {
    const T delta = h_ > 0.0 ? f.x(delta_) : T(delta0_);
    const T er = emf_ * cos(delta), ei = emf_ * sin(delta);
    const T dr = er - f.vr(), di = ei - f.vi();
    const T ir = g_ * dr - b_ * di, ii = b_ * dr + g_ * di;
    f.inject(base_ratio_ * ir, base_ratio_ * ii);
    if (h_ > 0.0) {
      const T& dw = f.x(dw_);
      const T pe = er * ir + ei * ii;
      f.der(dw_, (f.u(pm_) - d_ * dw - pe) / (2.0 * h_ * (1.0 + dw)));
      f.der(delta_, omega0_ * dw);
    }
  }

 private:
  double h_ = 0, d_ = 0, g_ = 0, b_ = 0, base_ratio_ = 1, omega0_ = 0, emf_ = 0, delta0_ = 0;
  int delta_ = 0, dw_ = 0, pm_ = 0;
};

}  // namespace

std::span<const ParameterSpec> gencls_parameters() { return kParameters; }

std::unique_ptr<Component> make_gencls(const DyrRecord& record, const UnitData& unit) {
  return std::make_unique<Gencls>(record, unit);
}

}  // namespace lsdae::psse
