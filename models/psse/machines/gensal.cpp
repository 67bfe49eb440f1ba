// models/psse/machines/gensal.cpp -- GENSAL (gensal.h).
//
// Per unit on MBASE, kd3, kd4, kd5 as in GENROU (genrou.cpp):
//     ψ''d = kd5 E'q + kd4 ψkd
//     T'do  dE'q/dt  = Efd − LadIfd,
//           LadIfd   = E'q + (Xd − X'd)(id + kd3 (E'q − ψkd − (X'd − Xl) id)) + E'q Se(E'q)
//     T''do dψkd/dt  = E'q − ψkd − (X'd − Xl) id
//     T''qo dψ''q/dt = −ψ''q − (Xq − X''q) iq
//     2H dΔω/dt = (Pm − D Δω)/(1 + Δω) − (ψ''d iq − ψ''q id),   dδ/dt = ω0 Δω
// with the stator of GENROU (E'' = −ψ''q + jψ''d behind Ra + jX''d, no speed
// factor). The saturation acts on the d axis only, as a function of E'q
// (machine_frame.h's Se): checked against PSS/E's GENSAL trajectory, this
// gives 2.7e-5 rad where Se(ψ''d) gives 4.3e-3 rad and Se(|ψ''|) 9.0e-3 rad.
// Initialization: δ = arg(V + (Ra + jXq) I) (no q-axis saturation), then the
// rotor-frame values as GENROU's; every derivative zero.
#include "psse/machines/gensal.h"

#include <cmath>
#include <numbers>

#include "psse/core/signals.h"
#include "psse/machines/machine_frame.h"

namespace lsdae::psse {

namespace {

constexpr ParameterSpec kParameters[] = {
    {"T'do", "s", "d-axis transient open-circuit time constant"},
    {"T''do", "s", "d-axis subtransient open-circuit time constant"},
    {"T''qo", "s", "q-axis subtransient open-circuit time constant"},
    {"H", "s", "inertia constant on MBASE"},
    {"D", "p.u.", "speed damping on MBASE"},
    {"Xd", "p.u.", "d-axis synchronous reactance"},
    {"Xq", "p.u.", "q-axis synchronous reactance"},
    {"X'd", "p.u.", "d-axis transient reactance"},
    {"X''d", "p.u.", "subtransient reactance (= X''q)"},
    {"Xl", "p.u.", "stator leakage reactance"},
    {"S(1.0)", "", "saturation at 1.0 p.u. E'q"},
    {"S(1.2)", "", "saturation at 1.2 p.u. E'q"},
};

class Gensal final : public Equations<Gensal> {
 public:
  Gensal(const DyrRecord& record, const UnitData& unit)
      : Equations({record.model, Role::machine, InitStage::network_device, record.bus, record.id, record.where()}) {
    const Parameters p(record, kParameters);
    for (std::size_t i : {0u, 1u, 2u, 3u}) p.require_positive(i);
    p.require_nonnegative(4);
    for (std::size_t i : {5u, 6u, 7u, 8u}) p.require_positive(i);
    p.require_nonnegative(9);
    p.require(p[7] > p[9], 7, "must exceed Xl");
    p.require(p[8] <= p[7] && p[8] <= p[6], 8, "must not exceed X'd nor Xq");
    p.require(p[5] >= p[7], 5, "must be at least X'd");
    tdo_ = p[0], tdoo_ = p[1], tqoo_ = p[2], h_ = p[3], d_ = p[4];
    xd_ = p[5], xq_ = p[6], xdp_ = p[7], xpp_ = p[8], xl_ = p[9];
    sat_ = QuadraticSaturation(p, 10, 11);
    ra_ = unit.zsource.real();
    if (!(unit.mbase > 0.0))
      throw ModelError(p.where() + ": the generator's MBASE is " + std::to_string(unit.mbase) +
                       " MVA → give the generator record a positive MBASE");
    base_ratio_ = unit.mbase / unit.system_base;
    omega0_ = 2.0 * std::numbers::pi * unit.frequency;
    kd4_ = (xdp_ - xpp_) / (xdp_ - xl_);
    kd5_ = (xpp_ - xl_) / (xdp_ - xl_);
    kd3_ = (xdp_ - xpp_) / ((xdp_ - xl_) * (xdp_ - xl_));
    const double den = ra_ * ra_ + xpp_ * xpp_;
    g_ = ra_ / den;
    b_ = -xpp_ / den;
    zsource_note_ = zsource_note(unit.zsource, xpp_);
  }

  void declare(Layout& l) override {
    delta_ = l.state("delta", "rotor angle (q axis in the network frame)", "rad");
    dw_ = l.state("dw", "rotor speed deviation", "");
    eqp_ = l.state("Eqp", "E'q, q-axis transient voltage", "");
    psikd_ = l.state("psikd", "psi_kd, d-axis damper flux", "");
    psiqpp_ = l.state("psiqpp", "psi''q, q-axis subtransient flux", "");
    efd_ = l.input(signal::efd);
    pm_ = l.input(signal::pm);
    l.output(signal::speed, Var::x(dw_));
    outputs_.declare(l);
  }

  void initialize(InitContext& in) override {
    if (!zsource_note_.empty()) in.note(zsource_note_);
    const Complex v = in.voltage();
    const Complex i = std::conj(in.injection() / base_ratio_ / v);
    const Complex e = v + Complex(ra_, xpp_) * i;
    const double delta = std::arg(v + Complex(ra_, xq_) * i);
    const double sn = std::sin(delta), cs = std::cos(delta);
    double id = 0, iq = 0, ed = 0, eq = 0;
    to_rotor(i.real(), i.imag(), sn, cs, id, iq);
    to_rotor(e.real(), e.imag(), sn, cs, ed, eq);
    const double psd = eq, psq = -ed;
    const double eqp = psd + kd4_ * (xdp_ - xl_) * id;
    const double psikd = eqp - (xdp_ - xl_) * id;
    const double efd = eqp + (xd_ - xdp_) * (id + kd3_ * (eqp - psikd - (xdp_ - xl_) * id)) + eqp * sat_(eqp);
    in.state(delta_, delta);
    in.state(dw_, 0.0);
    in.state(eqp_, eqp);
    in.state(psikd_, psikd);
    in.state(psiqpp_, psq);
    in.set_signal(signal::efd, efd);
    in.set_signal(signal::pm, psd * iq - psq * id);
    outputs_.initialize(in, (v * std::conj(i)).real(), efd, i);
  }

  template <class T>
  void equations(Frame<T>& f) const {
    const T& delta = f.x(delta_);
    const T& dw = f.x(dw_);
    const T& eqp = f.x(eqp_);
    const T& psikd = f.x(psikd_);
    const T& psq = f.x(psiqpp_);
    const T psd = kd5_ * eqp + kd4_ * psikd;
    const T sn = sin(delta), cs = cos(delta);
    T ir, ii, id, iq;  // machine base
    subtransient_stator(psd, psq, sn, cs, f.vr(), f.vi(), g_, b_, ir, ii, id, iq);
    const T ladifd = eqp + (xd_ - xdp_) * (id + kd3_ * (eqp - psikd - (xdp_ - xl_) * id)) + eqp * sat_(eqp);
    f.der(eqp_, (f.u(efd_) - ladifd) / tdo_);
    f.der(psikd_, (eqp - psikd - (xdp_ - xl_) * id) / tdoo_);
    f.der(psiqpp_, (-psq - (xq_ - xpp_) * iq) / tqoo_);
    f.der(dw_, swing(f.u(pm_), T(psd * iq - psq * id), dw, h_, d_));
    f.der(delta_, omega0_ * dw);
    f.inject(base_ratio_ * ir, base_ratio_ * ii);
    outputs_.residuals(f, T(f.vr() * ir + f.vi() * ii), ladifd, ir, ii);
  }

 private:
  double tdo_ = 0, tdoo_ = 0, tqoo_ = 0, h_ = 0, d_ = 0, xd_ = 0, xq_ = 0, xdp_ = 0, xpp_ = 0, xl_ = 0, ra_ = 0;
  double kd3_ = 0, kd4_ = 0, kd5_ = 0, g_ = 0, b_ = 0, base_ratio_ = 1, omega0_ = 0;
  QuadraticSaturation sat_;
  std::string zsource_note_;
  int delta_ = 0, dw_ = 0, eqp_ = 0, psikd_ = 0, psiqpp_ = 0, efd_ = 0, pm_ = 0;
  MachineOutputs outputs_;
};

}  // namespace

std::span<const ParameterSpec> gensal_parameters() { return kParameters; }

std::unique_ptr<Component> make_gensal(const DyrRecord& record, const UnitData& unit) {
  return std::make_unique<Gensal>(record, unit);
}

}  // namespace lsdae::psse
