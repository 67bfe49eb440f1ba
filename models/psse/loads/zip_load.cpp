// models/psse/loads/zip_load.cpp -- see zip_load.h.
#include "psse/loads/zip_load.h"

#include <cmath>

#include "psse/core/parameters.h"

namespace lsdae::psse {

namespace {

class ZipLoad final : public Equations<ZipLoad> {
 public:
  ZipLoad(const RawLoad& l, double sbase, const LoadConversion& c, const std::string& where)
      : Equations({"LOAD", Role::load, InitStage::network_device, l.bus, l.id, where}), c_(c) {
    sp_ = Complex(l.pl, l.ql) / sbase;
    si_ = Complex(l.ip, l.iq) / sbase;
    y_ = Complex(l.yp, l.yq) / sbase;
    const bool fractions = c.p_to_current >= 0 && c.p_to_admittance >= 0 && c.q_to_current >= 0 &&
                           c.q_to_admittance >= 0 && c.p_to_current + c.p_to_admittance <= 1.0 + 1e-12 &&
                           c.q_to_current + c.q_to_admittance <= 1.0 + 1e-12;
    if (!fractions)
      throw ModelError(describe() + ": the load conversion fractions must be in [0, 1] with current + admittance <= 1 "
                       "for P and for Q → correct the conversion option");
    if (!(c.breakpoint > 0.0))
      throw ModelError(describe() + ": the low-voltage breakpoint is " + std::to_string(c.breakpoint) +
                       " p.u. → give a positive breakpoint (PSS/E's PQBRAK, 0.7)");
  }

  void declare(Layout& l) override {
    has_switch_ = sp_ != Complex() || si_ != Complex();
    if (has_switch_) lv_ = l.limiter("lv", LimiterKind::below);
  }

  void initialize(InitContext& in) override {
    const double u0 = std::abs(in.voltage());
    if (!(u0 > 0.0)) throw ModelError(describe() + ": the bus voltage is 0 at the operating point → check the power flow");
    // CONL: parts of the constant power become current and admittance at u0.
    const double p = sp_.real(), q = sp_.imag();
    si_ += Complex(c_.p_to_current * p, c_.q_to_current * q) / u0;
    const double gp = c_.p_to_admittance * p / (u0 * u0), bq = c_.q_to_admittance * q / (u0 * u0);
    y_ += Complex(gp, -bq);  // consumed Q = −B U²: an inductive (Q > 0) load has B < 0
    sp_ = Complex((1.0 - c_.p_to_current - c_.p_to_admittance) * p, (1.0 - c_.q_to_current - c_.q_to_admittance) * q);
    has_switch_ = sp_ != Complex() || si_ != Complex();
    if (u0 < c_.breakpoint)
      in.note("starts below the low-voltage breakpoint (" + std::to_string(u0) + " < " +
              std::to_string(c_.breakpoint) + " p.u.): its constant power and current parts start as admittance");
  }

  template <class T>
  void equations(Frame<T>& f) const {
    const T vr = f.vr(), vi = f.vi();
    const T u2 = vr * vr + vi * vi;
    // The admittance part: I = Y V.
    T ir = y_.real() * vr - y_.imag() * vi, ii = y_.imag() * vr + y_.real() * vi;
    if (lv_ >= 0 && has_switch_) {
      const T u = sqrt(u2);
      const bool low = f.below(lv_, u, T(c_.breakpoint));
      // S = k(U): the current conj(S)/conj(V) = conj(S) V / U².
      T kr, ki;
      if (low) {
        const double ub = c_.breakpoint;
        const Complex s = (sp_ + si_ * ub) / (ub * ub);  // × U²
        kr = T(s.real()) * u2;
        ki = T(s.imag()) * u2;
      } else {
        kr = sp_.real() + si_.real() * u;
        ki = sp_.imag() + si_.imag() * u;
      }
      // I = conj(k) V / U² = (kr − j ki)(vr + j vi)/U²
      ir += (kr * vr + ki * vi) / u2;
      ii += (kr * vi - ki * vr) / u2;
    }
    f.inject(-ir, -ii);
  }

  // The low-voltage switch alone (Equations::evaluate_limiters): U as
  // equations() computes it, recorded by the same below().
  void limiter_equations(Frame<double>& f) const {
    if (!(lv_ >= 0 && has_switch_)) return;
    const double vr = f.vr(), vi = f.vi();
    const double u2 = vr * vr + vi * vi;
    (void)f.below(lv_, sqrt(u2), c_.breakpoint);
  }

 private:
  LoadConversion c_;
  Complex sp_, si_, y_;
  bool has_switch_ = false;
  int lv_ = -1;
};

}  // namespace

std::unique_ptr<Component> make_zip_load(const RawLoad& load, double system_base, const LoadConversion& conversion,
                                         const std::string& where) {
  return std::make_unique<ZipLoad>(load, system_base, conversion, where);
}

}  // namespace lsdae::psse
