// Transmission line of N RLC segments: ScalableTestSuite TransmissionLineModelica_N
// (casella/ScalableTestSuite, Electrical/TransmissionLine.mo), the scaling benchmark.
//
// A unit step u = 1 (t >= 0) passes a critically damped second-order filter whose
// output y drives a ladder of N series R-L segments with shunt capacitors C,
// terminated by the matched load RL = sqrt(l/c). Per segment R = r*length/N,
// L = l*length/N, C = c*length/N. With v_0 = filter.y and i_{N+1} = load.i:
//
//   der(filter.y)  = filter.yd
//   der(filter.yd) = w*(w*(u - filter.y) - 2*filter.yd)
//   L*der(L[k].i)  = v_{k-1} - R*L[k].i - C[k].v            k = 1..N
//   C*der(C[k].v)  = L[k].i - i_{k+1},   load.i = C[N].v/RL
//   all states start at 0.  Output v_load = C[N].v.
//
// Variants (config key `form`, N from config key `N`):
//   ode  (manifest none)   2N+2 states, derivatives from the states.
//   dae  (manifest A or B) fully implicit, equation-based-exporter style: the same
//        states plus algebraic variables R[k].v, L[k].v, C[k].i and load.i, and
//        5N+3 residuals
//          res.filter_y   = der(filter.y) - filter.yd
//          res.filter_yd  = der(filter.yd) - w*(w*(u - filter.y) - 2*filter.yd)
//          res.R[k]   = R[k].v - R*L[k].i
//          res.L[k]   = L*der(L[k].i) - L[k].v
//          res.KVL[k] = v_{k-1} - R[k].v - L[k].v - C[k].v
//          res.C[k]   = C*der(C[k].v) - C[k].i
//          res.KCL[k] = L[k].i - C[k].i - i_{k+1}
//          res.load   = RL*load.i - C[N].v
//        over 2N+2 derivatives and 3N+1 algebraic variables (index 1). In ODE mode
//        (shape B before the switch) compute() solves the algebraic relations
//        explicitly and writes the residuals as exactly 0.
//
// Layout: the variables of one segment are declared together (states, their
// derivatives, algebraic variables, residuals), so that the state vector and the
// DAE Jacobian are banded; compute() walks the segments with a constant stride.
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>

#include "kit/model.h"

namespace {

using namespace lsdae::kit;

class TransmissionLine final : public Model {
 public:
  explicit TransmissionLine(const Config& config)
      : form_(config.get_choice("form", {"ode", "dae"})),
        manifest_(config.get_string("manifest", "none")),
        n_(config.get_int("N", 10)) {
    if (n_ < 1 || n_ > 1000000)
      throw std::invalid_argument("model configuration: key \"N\" is " + std::to_string(n_) +
                                  "; it must be a segment count between 1 and 1000000");
    if (form_ == "ode" && manifest_ != "none")
      throw std::invalid_argument("model configuration: form \"ode\" with manifest \"" + manifest_ +
                                  "\"; the ODE form has no DAE mode, set manifest=none");
    if (form_ == "dae" && manifest_ == "none")
      throw std::invalid_argument(
          "model configuration: form \"dae\" with manifest \"none\"; the DAE form needs manifest=A or B");
    dae_ = form_ == "dae";
    stride_ = dae_ ? kDaeStride : kOdeStride;
  }

  void declare(Builder& b) override {
    std::string description = "ScalableTestSuite TransmissionLineModelica_N with N = ";
    description.append(std::to_string(n_)).append(" segments (").append(dae_ ? "fully implicit DAE" : "ODE");
    b.model_name("TransmissionLine", description.append(" form)"));
    b.default_experiment({0.0, 4e-6, 1e-8, 2e-9});
    b.form(dae_ ? Form::fully_implicit : Form::ode);
    b.provides_partials();

    p_r_ = b.parameter("r", 48e-6, "Ohm/m", "resistance per unit length");
    p_l_ = b.parameter("l", 253e-9, "H/m", "inductance per unit length");
    p_c_ = b.parameter("c", 101e-12, "F/m", "capacitance per unit length");
    p_length_ = b.parameter("length", 100.0, "m", "length of the line");
    p_w_ = b.parameter("w", 1.0 / 2e-7, "rad/s", "angular frequency of the input filter");

    fy_ = b.state("filter.y", 0.0, "V", "filter output, drives the line (v_0)");
    dfy_ = b.derivative(fy_);
    fyd_ = b.state("filter.yd", 0.0, "V/s", "derivative of the filter output");
    dfyd_ = b.derivative(fyd_);
    if (dae_) {
      res_fy_ = b.residual_variable("res.filter_y", "der(filter.y) - filter.yd");
      res_fyd_ = b.residual_variable("res.filter_yd", "der(filter.yd) - w*(w*(u - filter.y) - 2*filter.yd)");
    }

    for (long k = 1; k <= n_; ++k) {
      // Built by appending: GCC 12 warns falsely (-Wrestrict, bug 105329) on "literal" + std::string&&.
      std::string s = "[";
      s.append(std::to_string(k)).append("]");
      const ValueRef i = b.state("L" + s + ".i", 0.0, "A", "inductor current");
      b.derivative(i);
      const ValueRef v = b.state("C" + s + ".v", 0.0, "V", "capacitor voltage");
      b.derivative(v);
      if (dae_) {
        b.algebraic("R" + s + ".v", 0.0, "V", "resistor voltage");
        b.algebraic("L" + s + ".v", 0.0, "V", "inductor voltage");
        b.algebraic("C" + s + ".i", 0.0, "A", "capacitor current");
        b.residual_variable("res.R" + s, "R" + s + ".v - R*L" + s + ".i");
        b.residual_variable("res.L" + s, "L*der(L" + s + ".i) - L" + s + ".v");
        b.residual_variable("res.KVL" + s, "v_{k-1} - R" + s + ".v - L" + s + ".v - C" + s + ".v");
        b.residual_variable("res.C" + s, "C*der(C" + s + ".v) - C" + s + ".i");
        b.residual_variable("res.KCL" + s, "L" + s + ".i - C" + s + ".i - i_{k+1}");
      }
      if (k == 1) seg0_ = i;
      if (i != seg0_ + static_cast<ValueRef>(k - 1) * stride_)
        throw std::logic_error("TransmissionLine: value references of segment " + std::to_string(k) +
                               " are not consecutive (L[k].i has " + std::to_string(i) + ")");
    }
    if (dae_) {
      load_i_ = b.algebraic("load.i", 0.0, "A", "current into the matched load");
      res_load_ = b.residual_variable("res.load", "RL*load.i - C[N].v");
    }
    v_load_ = b.output("v_load", "V", "voltage at the load, C[N].v");

    const ValueRef v_n = vr(n_ - 1, kV);
    b.ode_dependencies(dfy_, {{fyd_, DepKind::constant}});
    b.ode_dependencies(dfyd_, {{fy_, DepKind::fixed}, {fyd_, DepKind::fixed}});
    for (long k = 0; k < n_; ++k) {
      // i_{k+1} is load.i = C[N].v/RL for the last segment.
      const ValueRef prev = k == 0 ? fy_ : vr(k - 1, kV);
      const ValueRef next = k + 1 < n_ ? vr(k + 1, kI) : v_n;
      b.ode_dependencies(vr(k, kDI),
                         {{prev, DepKind::fixed}, {vr(k, kI), DepKind::fixed}, {vr(k, kV), DepKind::fixed}});
      b.ode_dependencies(vr(k, kDV), {{vr(k, kI), DepKind::fixed}, {next, DepKind::fixed}});
    }
    b.ode_dependencies(v_load_, {{v_n, DepKind::constant}});
    if (!dae_) return;

    b.dae_dependencies(v_load_, {{v_n, DepKind::constant}});
    b.residual_group({{{res_fy_, 0, {{dfy_, DepKind::constant}, {fyd_, DepKind::constant}}}}});
    b.residual_group(
        {{{res_fyd_, 0, {{dfyd_, DepKind::constant}, {fy_, DepKind::fixed}, {fyd_, DepKind::fixed}}}}});
    for (long k = 0; k < n_; ++k) {
      const ValueRef prev = k == 0 ? fy_ : vr(k - 1, kV);
      const ValueRef next = k + 1 < n_ ? vr(k + 1, kI) : load_i_;
      b.residual_group({{{vr(k, kResR), 0, {{vr(k, kI), DepKind::fixed}, {vr(k, kRv), DepKind::constant}}}}});
      b.residual_group({{{vr(k, kResL), 0, {{vr(k, kDI), DepKind::fixed}, {vr(k, kLv), DepKind::constant}}}}});
      b.residual_group({{{vr(k, kResKVL), 0,
                          {{prev, DepKind::constant},
                           {vr(k, kV), DepKind::constant},
                           {vr(k, kRv), DepKind::constant},
                           {vr(k, kLv), DepKind::constant}}}}});
      b.residual_group({{{vr(k, kResC), 0, {{vr(k, kDV), DepKind::fixed}, {vr(k, kCi), DepKind::constant}}}}});
      b.residual_group({{{vr(k, kResKCL), 0,
                          {{vr(k, kI), DepKind::constant},
                           {vr(k, kCi), DepKind::constant},
                           {next, DepKind::constant}}}}});
    }
    b.residual_group({{{res_load_, 0, {{v_n, DepKind::constant}, {load_i_, DepKind::fixed}}}}});
  }

  void compute(Context& c) override {
    double* v = c.v;
    update_coefficients(v);
    const double y = v[fy_];
    const double yd = v[fyd_];
    const double dyd = w_ * (w_ * (1.0 - y) - 2.0 * yd);  // u = 1 for t >= 0
    double* const seg = v + seg0_;
    const std::size_t last = static_cast<std::size_t>(n_ - 1) * stride_;
    v[v_load_] = seg[last + kV];

    if (dae_ && c.dae_mode) {
      v[res_fy_] = v[dfy_] - yd;
      v[res_fyd_] = v[dfyd_] - dyd;
      double prev = y;
      for (std::size_t o = 0; o <= last; o += kDaeStride) {
        double* const p = seg + o;
        const double next = o < last ? p[kDaeStride + kI] : v[load_i_];
        p[kResR] = p[kRv] - R_ * p[kI];
        p[kResL] = L_ * p[kDI] - p[kLv];
        p[kResKVL] = prev - p[kRv] - p[kLv] - p[kV];
        p[kResC] = C_ * p[kDV] - p[kCi];
        p[kResKCL] = p[kI] - p[kCi] - next;
        prev = p[kV];
      }
      v[res_load_] = RL_ * v[load_i_] - seg[last + kV];
      return;
    }

    // ODE mode: derivatives (and, in the DAE form, the algebraic variables) from the states.
    v[dfy_] = yd;
    v[dfyd_] = dyd;
    if (dae_) {
      ode_segments<kDaeStride, true>(seg, last, y);
      v[load_i_] = seg[last + kV] * inv_RL_;
      // The residuals hold by construction; exactly 0 keeps them independent of every known.
      v[res_fy_] = 0.0;
      v[res_fyd_] = 0.0;
      v[res_load_] = 0.0;
      for (std::size_t o = 0; o <= last; o += kDaeStride) {
        double* const p = seg + o;
        p[kResR] = p[kResL] = p[kResKVL] = p[kResC] = p[kResKCL] = 0.0;
      }
    } else {
      ode_segments<kOdeStride, false>(seg, last, y);
    }
  }

  void partials(const Context& c, PartialSink& s) override {
    update_coefficients(c.v);
    const ValueRef v_n = vr(n_ - 1, kV);
    s.add(v_load_, v_n, 1.0);
    if (dae_ && c.dae_mode) {
      s.add(res_fy_, dfy_, 1.0);
      s.add(res_fy_, fyd_, -1.0);
      s.add(res_fyd_, dfyd_, 1.0);
      s.add(res_fyd_, fy_, w_ * w_);
      s.add(res_fyd_, fyd_, 2.0 * w_);
      for (long k = 0; k < n_; ++k) {
        const ValueRef prev = k == 0 ? fy_ : vr(k - 1, kV);
        const ValueRef next = k + 1 < n_ ? vr(k + 1, kI) : load_i_;
        s.add(vr(k, kResR), vr(k, kRv), 1.0);
        s.add(vr(k, kResR), vr(k, kI), -R_);
        s.add(vr(k, kResL), vr(k, kDI), L_);
        s.add(vr(k, kResL), vr(k, kLv), -1.0);
        s.add(vr(k, kResKVL), prev, 1.0);
        s.add(vr(k, kResKVL), vr(k, kRv), -1.0);
        s.add(vr(k, kResKVL), vr(k, kLv), -1.0);
        s.add(vr(k, kResKVL), vr(k, kV), -1.0);
        s.add(vr(k, kResC), vr(k, kDV), C_);
        s.add(vr(k, kResC), vr(k, kCi), -1.0);
        s.add(vr(k, kResKCL), vr(k, kI), 1.0);
        s.add(vr(k, kResKCL), vr(k, kCi), -1.0);
        s.add(vr(k, kResKCL), next, -1.0);
      }
      s.add(res_load_, load_i_, RL_);
      s.add(res_load_, v_n, -1.0);
      return;
    }

    // ODE mode. The residuals are identically 0 here and have no partials.
    s.add(dfy_, fyd_, 1.0);
    s.add(dfyd_, fy_, -w_ * w_);
    s.add(dfyd_, fyd_, -2.0 * w_);
    for (long k = 0; k < n_; ++k) {
      const ValueRef prev = k == 0 ? fy_ : vr(k - 1, kV);
      s.add(vr(k, kDI), prev, inv_L_);
      s.add(vr(k, kDI), vr(k, kI), -R_ * inv_L_);
      s.add(vr(k, kDI), vr(k, kV), -inv_L_);
      s.add(vr(k, kDV), vr(k, kI), inv_C_);
      if (k + 1 < n_)
        s.add(vr(k, kDV), vr(k + 1, kI), -inv_C_);
      else
        s.add(vr(k, kDV), v_n, -inv_RL_ * inv_C_);
      if (dae_) {
        s.add(vr(k, kRv), vr(k, kI), R_);
        s.add(vr(k, kLv), prev, 1.0);
        s.add(vr(k, kLv), vr(k, kI), -R_);
        s.add(vr(k, kLv), vr(k, kV), -1.0);
        s.add(vr(k, kCi), vr(k, kI), 1.0);
        if (k + 1 < n_)
          s.add(vr(k, kCi), vr(k + 1, kI), -1.0);
        else
          s.add(vr(k, kCi), v_n, -inv_RL_);
      }
    }
    if (dae_) s.add(load_i_, v_n, inv_RL_);
  }

 private:
  // Offsets of a segment's variables from its L[k].i. The ODE form has the first four.
  static constexpr std::size_t kI = 0, kDI = 1, kV = 2, kDV = 3, kRv = 4, kLv = 5, kCi = 6, kResR = 7,
                               kResL = 8, kResKVL = 9, kResC = 10, kResKCL = 11;
  static constexpr std::size_t kOdeStride = 4, kDaeStride = 12;

  ValueRef vr(long k, std::size_t offset) const {
    return seg0_ + static_cast<ValueRef>(static_cast<std::size_t>(k) * stride_ + offset);
  }

  // Segment equations solved for the derivatives; `seg` points at L[1].i, `last` is
  // the offset of segment N, `y` the line input v_0.
  template <std::size_t kStride, bool kAlgebraic>
  void ode_segments(double* seg, std::size_t last, double y) const {
    double prev = y;
    for (std::size_t o = 0; o <= last; o += kStride) {
      double* const p = seg + o;
      const double i = p[kI];
      const double vc = p[kV];
      const double next = o < last ? p[kStride + kI] : vc * inv_RL_;
      const double rv = R_ * i;
      const double lv = prev - rv - vc;
      const double ci = i - next;
      p[kDI] = lv * inv_L_;
      p[kDV] = ci * inv_C_;
      if constexpr (kAlgebraic) {
        p[kRv] = rv;
        p[kLv] = lv;
        p[kCi] = ci;
      }
      prev = vc;
    }
  }

  // Segment coefficients from the parameters, recomputed only when a parameter changed.
  void update_coefficients(const double* v) {
    const double r = v[p_r_], l = v[p_l_], c = v[p_c_], length = v[p_length_], w = v[p_w_];
    if (r == r_ && l == l_ && c == c_ && length == length_ && w == w_) return;
    r_ = r;
    l_ = l;
    c_ = c;
    length_ = length;
    w_ = w;
    const double n = static_cast<double>(n_);
    R_ = r * length / n;
    L_ = l * length / n;
    C_ = c * length / n;
    RL_ = std::sqrt(l / c);
    inv_L_ = 1.0 / L_;
    inv_C_ = 1.0 / C_;
    inv_RL_ = 1.0 / RL_;
  }

  std::string form_, manifest_;
  long n_ = 0;
  bool dae_ = false;
  std::size_t stride_ = kOdeStride;
  ValueRef p_r_ = 0, p_l_ = 0, p_c_ = 0, p_length_ = 0, p_w_ = 0;
  ValueRef fy_ = 0, dfy_ = 0, fyd_ = 0, dfyd_ = 0, res_fy_ = 0, res_fyd_ = 0;
  ValueRef seg0_ = 0, load_i_ = 0, res_load_ = 0, v_load_ = 0;
  double r_ = std::nan(""), l_ = 0, c_ = 0, length_ = 0, w_ = 0;
  double R_ = 0, L_ = 0, C_ = 0, RL_ = 0, inv_L_ = 0, inv_C_ = 0, inv_RL_ = 0;
};

}  // namespace

LSDAE_KIT_MODEL(TransmissionLine)
