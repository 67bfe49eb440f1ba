// models/psse/stabilizers/ieeest.cpp -- IEEEST (ieeest.h).
//
// Per unit on MBASE. The input u is chosen by M: 1 the rotor speed deviation
// Δω (signal speed), 3 the electrical power pe, 4 the accelerating power
// pm − pe, 5 the bus voltage magnitude |V|. Then
//     filter   F(s) = (1 + A5 s + A6 s²) / ((1 + A1 s + A2 s²)(1 + A3 s + A4 s²))
//     lead-lag (1 + s T1)/(1 + s T2), lead-lag (1 + s T3)/(1 + s T4)
//     washout  KS s T5/(1 + s T6)
//     VSS = clamp(washout output, LSMIN, LSMAX)                 (windup: on the output)
//     Vs  = VSS while VCL < |V| < VCU, else 0                  (VCU = 0, VCL = 0: that side unchecked)
// PSS/E Model Library "IEEEST" (the block order filter → lead-lags → washout
// → limit → output switch); IEEE Std 421.5-2016 §H (PSS1A) for the filter and
// lead-lag blocks; OpenIPSL's IEEEST for the VCU/VCL convention (each bound
// ignored when 0; PowerSimulationsDynamics.jl bypasses the switch when either
// is 0: the same for the ladder's data, where both are 0).
//
// The filter is realized once for the product of its denominators, in
// controllable canonical form: with D(s) = Σ d_i s^i of order n (the highest
// nonzero coefficient) and N(s) of order m <= n, the states are Z and its
// first n − 1 derivatives, d_n Z^(n) = u − Σ_{i<n} d_i Z^(i), y = Σ_j N_j Z^(j).
// So any of A1..A6 may be 0 (PSS/E's data often leave A3, A4 = 0); a filter
// with m > n (improper) is refused. A lead-lag with T2 = 0 (T4 = 0) passes
// its input (then T1 (T3) must be 0); the washout with T6 = 0 needs T5 = 0
// (the stabilizer is then off).
//
// Interpretations: VCT, the voltage the output switch tests, is the unit's
// bus voltage magnitude (PSS/E: the terminal voltage). The input codes 2 (bus
// frequency) and 6 (derivative of the bus voltage) and a remote bus IB are
// refused with a message (the unit's models see only their own bus).
//
// Initialization: every block at rest at the input's value u0 (z1 = u0, the
// other filter states 0, the lead-lag and washout states u0); Vs = the
// switched clamp of 0 (0 unless LSMIN > 0 or LSMAX < 0), written to vs before
// the exciter initializes (InitStage::stabilizer).
#include "psse/stabilizers/ieeest.h"

#include <cmath>
#include <string>

#include "psse/core/signals.h"

namespace lsdae::psse {

namespace {

constexpr ParameterSpec kParameters[] = {
    {"M", "", "input signal: 1 speed deviation, 2 bus frequency, 3 electrical power, 4 accelerating power, "
              "5 bus voltage, 6 derivative of bus voltage"},
    {"IB", "", "remote bus of the input signal (0: the unit's bus)"},
    {"A1", "s", "filter coefficient"},
    {"A2", "s²", "filter coefficient"},
    {"A3", "s", "filter coefficient"},
    {"A4", "s²", "filter coefficient"},
    {"A5", "s", "filter coefficient"},
    {"A6", "s²", "filter coefficient"},
    {"T1", "s", "first lead time constant"},
    {"T2", "s", "first lag time constant"},
    {"T3", "s", "second lead time constant"},
    {"T4", "s", "second lag time constant"},
    {"T5", "s", "washout numerator time constant"},
    {"T6", "s", "washout denominator time constant"},
    {"KS", "p.u.", "stabilizer gain"},
    {"LSMAX", "p.u.", "maximum stabilizer output"},
    {"LSMIN", "p.u.", "minimum stabilizer output"},
    {"VCU", "p.u.", "output switched off above this voltage (0: not used)"},
    {"VCL", "p.u.", "output switched off below this voltage (0: not used)"},
};

enum P : std::size_t { kM, kIB, kA1, kA2, kA3, kA4, kA5, kA6, kT1, kT2, kT3, kT4, kT5, kT6, kKS, kLsmax, kLsmin, kVcu, kVcl };

class Ieeest final : public Equations<Ieeest> {
 public:
  Ieeest(const DyrRecord& record, const UnitData&)
      : Equations({record.model, Role::stabilizer, InitStage::stabilizer, record.bus, record.id, record.where()}) {
    const Parameters p(record, kParameters);
    const double m = p[kM];
    p.require(m == 1.0 || m == 3.0 || m == 4.0 || m == 5.0, kM,
              "input signals 1 (speed), 3 (electrical power), 4 (accelerating power) and 5 (bus voltage) are "
              "supported; 2 (bus frequency) and 6 (voltage derivative) are not",
              "choose a supported input, or substitute or skip the model");
    p.require(p[kIB] == 0.0 || p[kIB] == record.bus, kIB,
              "a remote input bus is not supported", "set IB to 0, or substitute or skip the model");
    for (std::size_t i : {kT1, kT2, kT3, kT4, kT5, kT6}) p.require_nonnegative(i);
    p.require(p[kT2] > 0.0 || p[kT1] == 0.0, kT1, "must be 0 when T2 is 0 (a lead without a lag)");
    p.require(p[kT4] > 0.0 || p[kT3] == 0.0, kT3, "must be 0 when T4 is 0 (a lead without a lag)");
    p.require(p[kT6] > 0.0 || p[kT5] == 0.0, kT5, "must be 0 when T6 is 0 (a washout without a lag)");
    p.require(p[kLsmax] >= p[kLsmin], kLsmax, "must be at least LSMIN");
    for (std::size_t i : {kA1, kA2, kA3, kA4, kA5, kA6, kKS, kVcu, kVcl}) p.require(true, i, "must be a finite number");
    input_ = static_cast<int>(m);
    const double a1 = p[kA1], a2 = p[kA2], a3 = p[kA3], a4 = p[kA4];
    const double d[5] = {1.0, a1 + a3, a2 + a4 + a1 * a3, a1 * a4 + a2 * a3, a2 * a4};
    for (int i = 0; i < 5; ++i) d_[i] = d[i];
    for (int i = 4; i > 0 && order_ == 0; --i)
      if (d[i] != 0.0) order_ = i;
    num_[0] = 1.0, num_[1] = p[kA5], num_[2] = p[kA6];
    num_order_ = num_[2] != 0.0 ? 2 : (num_[1] != 0.0 ? 1 : 0);
    p.require(num_order_ <= order_, num_[2] != 0.0 ? kA6 : kA5,
              "makes the filter improper (its numerator of higher order than its denominator)");
    t1_ = p[kT1], t2_ = p[kT2], t3_ = p[kT3], t4_ = p[kT4], t5_ = p[kT5], t6_ = p[kT6], ks_ = p[kKS];
    lsmax_ = p[kLsmax], lsmin_ = p[kLsmin], vcu_ = p[kVcu], vcl_ = p[kVcl];
  }

  void declare(Layout& l) override {
    for (int i = 0; i < order_; ++i) z_[i] = l.state("z" + std::to_string(i + 1), "filter state (derivative " +
                                                         std::to_string(i) + " of its denominator's output)", "");
    xt2_ = t2_ > 0.0 ? l.state("xT2", "first lead-lag state", "") : -1;
    xt4_ = t4_ > 0.0 ? l.state("xT4", "second lead-lag state", "") : -1;
    xw_ = t6_ > 0.0 ? l.state("xW", "washout state", "") : -1;
    vs_ = l.algebraic("Vs", "stabilizer output, p.u.");
    if (input_ == 1) speed_ = l.input(signal::speed);
    if (input_ == 3 || input_ == 4) pe_ = l.input(signal::pe);
    if (input_ == 4) pm_ = l.input(signal::pm);
    l.output(signal::vs, Var::z(vs_));
    limit_ = l.limiter("VSS", LimiterKind::windup);
    upper_ = vcu_ != 0.0 ? l.limiter("VCU", LimiterKind::below) : -1;
    lower_ = vcl_ != 0.0 ? l.limiter("VCL", LimiterKind::below) : -1;
  }

  void initialize(InitContext& in) override {
    double u = 0.0;
    if (input_ == 1) u = in.signal(signal::speed);
    if (input_ == 3) u = in.signal(signal::pe);
    if (input_ == 4) u = in.signal(signal::pm) - in.signal(signal::pe);
    if (input_ == 5) u = std::abs(in.voltage());
    for (int i = 0; i < order_; ++i) in.state(z_[i], i == 0 ? u / d_[0] : 0.0);
    for (int x : {xt2_, xt4_, xw_})
      if (x >= 0) in.state(x, u);
    const double vss = std::min(std::max(0.0, lsmin_), lsmax_);
    const double vct = std::abs(in.voltage());
    const bool on = (vcu_ == 0.0 || vct < vcu_) && (vcl_ == 0.0 || !(vct < vcl_));
    in.algebraic(vs_, on ? vss : 0.0);
  }

  template <class T>
  void equations(Frame<T>& f) const {
    T u;
    if (input_ == 1) u = f.u(speed_);
    else if (input_ == 3) u = f.u(pe_);
    else if (input_ == 4) u = f.u(pm_) - f.u(pe_);
    else u = sqrt(f.vr() * f.vr() + f.vi() * f.vi());
    // Filter (controllable canonical form of N/D).
    T y = u;
    if (order_ > 0) {
      T top = u;
      for (int i = 0; i < order_; ++i) top = top - d_[i] * f.x(z_[i]);
      const T highest = top / d_[order_];  // Z^(n)
      for (int i = 0; i + 1 < order_; ++i) f.der(z_[i], f.x(z_[i + 1]));
      f.der(z_[order_ - 1], highest);
      y = T(0.0);
      for (int j = 0; j <= num_order_; ++j) y = y + num_[j] * (j < order_ ? f.x(z_[j]) : highest);
    }
    y = lead_lag(f, xt2_, y, t1_, t2_);
    y = lead_lag(f, xt4_, y, t3_, t4_);
    T wash = T(0.0);
    if (xw_ >= 0) {
      const T& x = f.x(xw_);
      f.der(xw_, (y - x) / t6_);
      wash = ks_ * (t5_ / t6_) * (y - x);
    }
    const T vss = f.clamp(limit_, wash, T(lsmin_), T(lsmax_));
    bool on = true;
    if (upper_ >= 0 || lower_ >= 0) {
      const T vct = sqrt(f.vr() * f.vr() + f.vi() * f.vi());
      if (upper_ >= 0 && !f.below(upper_, vct, T(vcu_))) on = false;
      if (lower_ >= 0 && f.below(lower_, vct, T(vcl_))) on = false;
    }
    f.res(vs_, f.z(vs_) - (on ? vss : T(0.0)));
  }

 private:
  template <class T>
  static T lead_lag(Frame<T>& f, int state, const T& u, double lead, double lag) {
    if (state < 0) return u;
    const T& x = f.x(state);
    f.der(state, (u - x) / lag);
    return x + (lead / lag) * (u - x);
  }

  int input_ = 1, order_ = 0, num_order_ = 0;
  double d_[5] = {}, num_[3] = {};
  double t1_ = 0, t2_ = 0, t3_ = 0, t4_ = 0, t5_ = 0, t6_ = 0, ks_ = 0, lsmax_ = 0, lsmin_ = 0, vcu_ = 0, vcl_ = 0;
  int z_[4] = {-1, -1, -1, -1}, xt2_ = -1, xt4_ = -1, xw_ = -1, vs_ = 0, speed_ = -1, pe_ = -1, pm_ = -1;
  int limit_ = 0, upper_ = -1, lower_ = -1;
};

}  // namespace

std::span<const ParameterSpec> ieeest_parameters() { return kParameters; }

std::unique_ptr<Component> make_ieeest(const DyrRecord& record, const UnitData& unit) {
  return std::make_unique<Ieeest>(record, unit);
}

}  // namespace lsdae::psse
