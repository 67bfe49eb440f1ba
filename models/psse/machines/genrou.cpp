// models/psse/machines/genrou.cpp -- GENROU (genrou.h).
//
// Per unit on MBASE. With kd4 = (X'd − X''d)/(X'd − Xl), kd5 = (X''d − Xl)/(X'd − Xl)
// and kq4, kq5 alike on the q axis:
//     ψ''d = kd5 E'q + kd4 ψkd,      ψ''q = −kq5 E'd − kq4 ψkq,      ψ'' = |ψ''d + jψ''q|
//     T'do  dE'q/dt  = Efd − LadIfd,
//           LadIfd   = E'q + (Xd − X'd)(id + (X'd − X''d)/(X'd − Xl)² (E'q − ψkd − (X'd − Xl) id)) + ψ''d Se(ψ'')
//     T''do dψkd/dt  = E'q − ψkd − (X'd − Xl) id
//     T'qo  dE'd/dt  = −E'd + (Xq − X'q)(iq − (X'q − X''q)/(X'q − Xl)² (E'd − ψkq + (X'q − Xl) iq))
//                      + (Xq − Xl)/(Xd − Xl) ψ''q Se(ψ'')
//     T''qo dψkq/dt  = E'd − ψkq + (X'q − Xl) iq
//     2H dΔω/dt = (Pm − D Δω)/(1 + Δω) − (ψ''d iq − ψ''q id),   dδ/dt = ω0 Δω
// Stator: the machine is the voltage E'' = (−ψ''q + jψ''d) e^(j(δ − π/2))
// behind Ra + jX''d, injecting I = (E'' − V)/(Ra + jX''d) (MBASE/SBASE on the
// system base). PSS/E Model Library "GENROU"; the same block diagram as
// PowerWorld's GENROU and GridKit's README (which we read for the signs).
//
// Initialization at the power-flow point (V, S): I = conj(S/V),
// E'' = V + (Ra + jX''d) I, ψ'' = |E''| (independent of δ), then δ from the
// q-axis steady state with saturation (kp = 1 + (Xq − Xl)/(Xd − Xl) Se(ψ''),
// Xs = kp X''d + Xq − X''d):
//     δ = atan2((Vi + Ra Ii) kp + Xs Ir, (Vr + Ra Ir) kp − Xs Ii),
// then E'd = (Xq − X'q) iq + (Xq − Xl)/(Xd − Xl) ψ''q Se, ψkq = E'd + (X'q − Xl) iq,
// E'q = ψ''d + kd4 (X'd − Xl) id, ψkd = E'q − (X'd − Xl) id, Efd = LadIfd,
// Pm = Te: every derivative is zero (tests/models/psse/machine_test.cpp).
#include "psse/machines/genrou.h"

#include <cmath>
#include <numbers>

#include "psse/core/signals.h"
#include "psse/machines/machine_frame.h"

namespace lsdae::psse {

namespace {

constexpr ParameterSpec kParameters[] = {
    {"T'do", "s", "d-axis transient open-circuit time constant"},
    {"T''do", "s", "d-axis subtransient open-circuit time constant"},
    {"T'qo", "s", "q-axis transient open-circuit time constant"},
    {"T''qo", "s", "q-axis subtransient open-circuit time constant"},
    {"H", "s", "inertia constant on MBASE"},
    {"D", "p.u.", "speed damping on MBASE"},
    {"Xd", "p.u.", "d-axis synchronous reactance"},
    {"Xq", "p.u.", "q-axis synchronous reactance"},
    {"X'd", "p.u.", "d-axis transient reactance"},
    {"X'q", "p.u.", "q-axis transient reactance"},
    {"X''d", "p.u.", "subtransient reactance (= X''q)"},
    {"Xl", "p.u.", "stator leakage reactance"},
    {"S(1.0)", "", "saturation at 1.0 p.u. air-gap flux"},
    {"S(1.2)", "", "saturation at 1.2 p.u. air-gap flux"},
};

class Genrou final : public Equations<Genrou> {
 public:
  Genrou(const DyrRecord& record, const UnitData& unit)
      : Equations({record.model, Role::machine, InitStage::network_device, record.bus, record.id, record.where()}) {
    const Parameters p(record, kParameters);
    for (std::size_t i : {0u, 1u, 2u, 3u, 4u}) p.require_positive(i);
    p.require_nonnegative(5);
    for (std::size_t i : {6u, 7u, 8u, 9u, 10u}) p.require_positive(i);
    p.require_nonnegative(11);
    p.require(p[8] > p[11], 8, "must exceed Xl");
    p.require(p[9] > p[11], 9, "must exceed Xl");
    p.require(p[10] <= p[8] && p[10] <= p[9], 10, "must not exceed X'd nor X'q");
    p.require(p[6] > p[11] && p[6] >= p[8], 6, "must exceed Xl and be at least X'd");
    p.require(p[7] >= p[9], 7, "must be at least X'q");
    tdo_ = p[0], tdoo_ = p[1], tqo_ = p[2], tqoo_ = p[3], h_ = p[4], d_ = p[5];
    xd_ = p[6], xq_ = p[7], xdp_ = p[8], xqp_ = p[9], xpp_ = p[10], xl_ = p[11];
    sat_ = QuadraticSaturation(p, 12, 13);
    ra_ = unit.zsource.real();
    if (!(unit.mbase > 0.0))
      throw ModelError(p.where() + ": the generator's MBASE is " + std::to_string(unit.mbase) +
                       " MVA → give the generator record a positive MBASE");
    base_ratio_ = unit.mbase / unit.system_base;
    omega0_ = 2.0 * std::numbers::pi * unit.frequency;
    kd4_ = (xdp_ - xpp_) / (xdp_ - xl_);
    kd5_ = (xpp_ - xl_) / (xdp_ - xl_);
    kq4_ = (xqp_ - xpp_) / (xqp_ - xl_);
    kq5_ = (xpp_ - xl_) / (xqp_ - xl_);
    kd3_ = (xdp_ - xpp_) / ((xdp_ - xl_) * (xdp_ - xl_));
    kq3_ = (xqp_ - xpp_) / ((xqp_ - xl_) * (xqp_ - xl_));
    xqd_ = (xq_ - xl_) / (xd_ - xl_);
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
    edp_ = l.state("Edp", "E'd, d-axis transient voltage", "");
    psikq_ = l.state("psikq", "psi_kq, q-axis damper flux", "");
    efd_ = l.input(signal::efd);
    pm_ = l.input(signal::pm);
    l.output(signal::speed, Var::x(dw_));
    outputs_.declare(l);
  }

  void initialize(InitContext& in) override {
    if (!zsource_note_.empty()) in.note(zsource_note_);
    const Complex v = in.voltage();
    const Complex s = in.injection() / base_ratio_;  // MBASE
    const Complex i = std::conj(s / v);
    const Complex e = v + Complex(ra_, xpp_) * i;
    const double se = sat_(std::abs(e));
    const double kp = 1.0 + xqd_ * se, xs = kp * xpp_ + xq_ - xpp_;
    const double delta = std::atan2((v.imag() + ra_ * i.imag()) * kp + xs * i.real(),
                                    (v.real() + ra_ * i.real()) * kp - xs * i.imag());
    const double sn = std::sin(delta), cs = std::cos(delta);
    double id = 0, iq = 0, ed = 0, eq = 0;
    to_rotor(i.real(), i.imag(), sn, cs, id, iq);
    to_rotor(e.real(), e.imag(), sn, cs, ed, eq);
    const double psd = eq, psq = -ed;
    const double edp = (xq_ - xqp_) * iq + xqd_ * psq * se;
    const double psikq = edp + (xqp_ - xl_) * iq;
    const double eqp = psd + kd4_ * (xdp_ - xl_) * id;
    const double psikd = eqp - (xdp_ - xl_) * id;
    const double efd = eqp + (xd_ - xdp_) * (id + kd3_ * (eqp - psikd - (xdp_ - xl_) * id)) + psd * se;
    in.state(delta_, delta);
    in.state(dw_, 0.0);
    in.state(eqp_, eqp);
    in.state(psikd_, psikd);
    in.state(edp_, edp);
    in.state(psikq_, psikq);
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
    const T& edp = f.x(edp_);
    const T& psikq = f.x(psikq_);
    const T psd = kd5_ * eqp + kd4_ * psikd;
    const T psq = -kq5_ * edp - kq4_ * psikq;
    const T se = sat_(sqrt(psd * psd + psq * psq));
    const T sn = sin(delta), cs = cos(delta);
    T ir, ii, id, iq;  // machine base
    subtransient_stator(psd, psq, sn, cs, f.vr(), f.vi(), g_, b_, ir, ii, id, iq);
    const T ladifd = eqp + (xd_ - xdp_) * (id + kd3_ * (eqp - psikd - (xdp_ - xl_) * id)) + psd * se;
    f.der(eqp_, (f.u(efd_) - ladifd) / tdo_);
    f.der(psikd_, (eqp - psikd - (xdp_ - xl_) * id) / tdoo_);
    f.der(edp_, (-edp + (xq_ - xqp_) * (iq - kq3_ * (edp - psikq + (xqp_ - xl_) * iq)) + xqd_ * psq * se) / tqo_);
    f.der(psikq_, (edp - psikq + (xqp_ - xl_) * iq) / tqoo_);
    f.der(dw_, swing(f.u(pm_), T(psd * iq - psq * id), dw, h_, d_));
    f.der(delta_, omega0_ * dw);
    f.inject(base_ratio_ * ir, base_ratio_ * ii);
    outputs_.residuals(f, T(f.vr() * ir + f.vi() * ii), ladifd, ir, ii);
  }

 private:
  double tdo_ = 0, tdoo_ = 0, tqo_ = 0, tqoo_ = 0, h_ = 0, d_ = 0;
  double xd_ = 0, xq_ = 0, xdp_ = 0, xqp_ = 0, xpp_ = 0, xl_ = 0, ra_ = 0;
  double kd3_ = 0, kd4_ = 0, kd5_ = 0, kq3_ = 0, kq4_ = 0, kq5_ = 0, xqd_ = 0, g_ = 0, b_ = 0;
  double base_ratio_ = 1, omega0_ = 0;
  QuadraticSaturation sat_;
  std::string zsource_note_;
  int delta_ = 0, dw_ = 0, eqp_ = 0, psikd_ = 0, edp_ = 0, psikq_ = 0, efd_ = 0, pm_ = 0;
  MachineOutputs outputs_;
};

}  // namespace

std::span<const ParameterSpec> genrou_parameters() { return kParameters; }

std::unique_ptr<Component> make_genrou(const DyrRecord& record, const UnitData& unit) {
  return std::make_unique<Genrou>(record, unit);
}

}  // namespace lsdae::psse
