// TransmissionLineSection: M consecutive segments of the ScalableTestSuite
// transmission line (models/transmission_line), with ports at its cut ends,
// the component of system case 2 (README.md "transmission_line_*").
//
// The monolithic line (N segments, v_0 = filter.y, i_{N+1} = C[N].v/RL):
//   L der(L[k].i) = v_{k-1} - R L[k].i - C[k].v       k = 1..N
//   C der(C[k].v) = L[k].i - i_{k+1}
// with R, L, C = r, l, c times length/N. A section holds segments
// (j-1)M+1 .. jM of it as its local segments 1..M; R, L, C are computed from
// the parameter `N_line` (the segment count of the whole line, config key
// line_segments), not from M, so that every section has the monolithic
// line's segments.
//
// Who owns a cut node. The node between section j and section j+1 is
// node jM of the line: its capacitor C[jM] and the voltage state C[jM].v
// belong to section j (its last segment, C[M]). Section j+1 has no state
// for it: it reads the voltage through an algebraic variable v_left whose
// value the coupling's potential row fixes. The coupling's ports are
//   section j    port b (right end): potential b.v = C[M].v (a state),
//                                     flow b.i (current INTO section j there)
//   section j+1  port a (left end):  potential a.v = v_left (algebraic),
//                                     flow a.i (current INTO section j+1 there)
// and the section equations at the ports are
//   right port:  C der(C[M].v) = L[M].i + b.i            (i_{M+1} = -b.i)
//   left port:   L der(L[1].i) = v_left - R L[1].i - C[1].v
//                0 = L[1].i - a.i                          (residual res.a)
// With the coupling's rows C[M].v_j = v_left_{j+1} and a.i + b.i = 0 this is
// exactly the monolithic line: i_{jM+1} = L[1].i_{j+1} = a.i = -b.i, and
// v_{jM} = C[M].v_j drives the first inductor of section j+1. The split
// adds three algebraic unknowns per cut (v_left, a.i, b.i) and three rows
// (res.a and the coupling's two), all of index 1: res.a gives a.i, the flow
// sum b.i, the potential row v_left. (Splitting the node's capacitor into
// two halves, one per section, would be exact too, but couples two states:
// an index-2 constraint at every cut.)
//
// Ends (config keys left=source|port, right=load|port):
//   left=source   the input filter (states filter.y, filter.yd; v_0 = filter.y)
//   right=load    the matched load: C der(C[M].v) = L[M].i - C[M].v/RL, output v_load
//
// Form (config key form): semi_explicit, an LS-DAE (manifest shape A, DAE
// mode from the start): der(...) from fmi3GetContinuousStateDerivatives over
// states, v_left and the input b.i; one residual res.a for a left port. ode
// (left=source only, manifest none): a plain FMI 3.0 ME FMU, the same
// equations with the same dependencies in its ModelStructure; the systems
// use it for the first section, so a plain ME FMU and LS-DAE FMUs meet at a
// coupling. (The monolithic FMUs are ODE or fully implicit: the sections'
// DAE form is neither.) Exact directional derivatives.
// Layout: per segment L[k].i, der(L[k].i), C[k].v, der(C[k].v) (stride 4),
// the ports' variables declared first, the parameters after the segments.
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "kit/model.h"

namespace {

using namespace lsdae::kit;

class TransmissionLineSection final : public Model {
 public:
  explicit TransmissionLineSection(const Config& config)
      : m_(config.get_int("segments", 20)),
        n_line_(config.get_int("line_segments", 80)),
        source_(config.get_choice("left", {"source", "port"}) == "source"),
        load_(config.get_choice("right", {"load", "port"}) == "load"),
        ode_(config.get_choice("form", {"ode", "semi_explicit"}) == "ode") {
    if (ode_ && !source_)
      throw std::invalid_argument("model configuration: form \"ode\" with left=port; a port a needs the "
                                  "algebraic v_left, set form=semi_explicit");
    if (m_ < 1 || m_ > 1000000)
      throw std::invalid_argument("model configuration: key \"segments\" is " + std::to_string(m_) +
                                  "; it must be a segment count between 1 and 1000000");
    if (n_line_ < m_)
      throw std::invalid_argument("model configuration: key \"line_segments\" is " + std::to_string(n_line_) +
                                  ", fewer than the section's " + std::to_string(m_) +
                                  " segments; give the segment count of the whole line");
  }

  void declare(Builder& b) override {
    std::string description = "A section of ";
    description.append(std::to_string(m_)).append(" segments of the ScalableTestSuite transmission line (");
    description.append(source_ ? "input filter" : "port a").append(" to ").append(load_ ? "load" : "port b");
    b.model_name("TransmissionLineSection", description.append(")"));
    b.default_experiment({0.0, 4e-6, 1e-8, 2e-9});
    b.form(ode_ ? Form::ode : Form::semi_explicit);
    b.provides_partials();
    // The same dependencies in either form: the ODE form's ModelStructure or the manifest's.
    auto deps = [&](ValueRef unknown, std::vector<Dependency> list) {
      if (ode_) b.ode_dependencies(unknown, std::move(list));
      else b.dae_dependencies(unknown, std::move(list));
    };
    constexpr DepKind kC = DepKind::constant;
    constexpr DepKind kF = DepKind::fixed;

    // Ports first.
    if (!source_) {
      a_i_ = input(b, "a.i", "A", "current into the section at its left end (port a's flow)");
      a_v_ = b.output("a.v", "V", "voltage at the left end (port a's potential), v_left");
    }
    if (!load_) {
      b_i_ = input(b, "b.i", "A", "current into the section at its right end (port b's flow)");
      b_v_ = b.output("b.v", "V", "voltage at the right end (port b's potential), C[M].v");
    } else {
      v_load_ = b.output("v_load", "V", "voltage at the load, C[M].v");
    }
    if (source_) {
      fy_ = b.state("filter.y", 0.0, "V", "filter output, drives the line (v_0)");
      dfy_ = b.derivative(fy_);
      fyd_ = b.state("filter.yd", 0.0, "V/s", "derivative of the filter output");
      dfyd_ = b.derivative(fyd_);
    } else {
      v_left_ = b.algebraic("v_left", 0.0, "V", "voltage at the left end (the cut node, owned by the previous section)");
      res_a_ = b.residual_variable("res.a", "L[1].i - a.i (the left port's current is the first inductor's)");
    }
    for (long k = 1; k <= m_; ++k) {
      std::string s = "[";
      s.append(std::to_string(k)).append("]");
      const ValueRef i = b.state("L" + s + ".i", 0.0, "A", "inductor current");
      b.derivative(i);
      const ValueRef v = b.state("C" + s + ".v", 0.0, "V", "capacitor voltage");
      b.derivative(v);
      if (k == 1) seg0_ = i;
      if (i != seg0_ + static_cast<ValueRef>(k - 1) * kStride)
        throw std::logic_error("TransmissionLineSection: value references of segment " + std::to_string(k) +
                               " are not consecutive");
    }
    p_r_ = b.parameter("r", 48e-6, "Ohm/m", "resistance per unit length");
    p_l_ = b.parameter("l", 253e-9, "H/m", "inductance per unit length");
    p_c_ = b.parameter("c", 101e-12, "F/m", "capacitance per unit length");
    p_length_ = b.parameter("length", 100.0, "m", "length of the whole line");
    p_n_ = b.parameter("N_line", static_cast<double>(n_line_), "",
                       "segments of the whole line (R, L, C are its per-segment values)");
    if (source_) p_w_ = b.parameter("w", 1.0 / 2e-7, "rad/s", "angular frequency of the input filter");

    const ValueRef v_m = vr(m_ - 1, kV);
    if (source_) {
      deps(dfy_, {{fyd_, kC}});
      deps(dfyd_, {{fy_, kF}, {fyd_, kF}});
    } else {
      deps(a_v_, {{v_left_, kC}});
      b.residual_group({{{res_a_, 0, {{seg0_, kC}, {a_i_, kC}}}}});
    }
    if (load_) deps(v_load_, {{v_m, kC}});
    else deps(b_v_, {{v_m, kC}});
    for (long k = 0; k < m_; ++k) {
      const ValueRef prev = k > 0 ? vr(k - 1, kV) : source_ ? fy_ : v_left_;
      deps(vr(k, kDI), {{prev, kF}, {vr(k, kI), kF}, {vr(k, kV), kF}});
      if (k + 1 < m_) deps(vr(k, kDV), {{vr(k, kI), kF}, {vr(k + 1, kI), kF}});
      else if (load_) deps(vr(k, kDV), {{vr(k, kI), kF}, {v_m, kF}});
      else deps(vr(k, kDV), {{vr(k, kI), kF}, {b_i_, kF}});
    }
  }

  void compute(Context& c) override {
    double* v = c.v;
    update_coefficients(v);
    double* const seg = v + seg0_;
    const std::size_t last = static_cast<std::size_t>(m_ - 1) * kStride;
    double prev;
    if (source_) {
      const double y = v[fy_], yd = v[fyd_];
      v[dfy_] = yd;
      v[dfyd_] = w_ * (w_ * (1.0 - y) - 2.0 * yd);  // u = 1 for t >= 0
      prev = y;
    } else {
      prev = v[v_left_];
      v[a_v_] = prev;
      v[res_a_] = seg[kI] - v[a_i_];
    }
    for (std::size_t o = 0; o <= last; o += kStride) {
      double* const p = seg + o;
      const double vc = p[kV];
      // Current leaving node k to the right: the next inductor's, the load's, or -b.i.
      const double next = o < last ? p[kStride + kI] : load_ ? vc * inv_RL_ : -v[b_i_];
      p[kDI] = (prev - R_ * p[kI] - vc) * inv_L_;
      p[kDV] = (p[kI] - next) * inv_C_;
      prev = vc;
    }
    v[load_ ? v_load_ : b_v_] = seg[last + kV];
  }

  void partials(const Context& c, PartialSink& s) override {
    update_coefficients(c.v);
    const ValueRef v_m = vr(m_ - 1, kV);
    if (source_) {
      s.add(dfy_, fyd_, 1.0);
      s.add(dfyd_, fy_, -w_ * w_);
      s.add(dfyd_, fyd_, -2.0 * w_);
    } else {
      s.add(a_v_, v_left_, 1.0);
      s.add(res_a_, seg0_, 1.0);
      s.add(res_a_, a_i_, -1.0);
    }
    s.add(load_ ? v_load_ : b_v_, v_m, 1.0);
    for (long k = 0; k < m_; ++k) {
      const ValueRef prev = k > 0 ? vr(k - 1, kV) : source_ ? fy_ : v_left_;
      s.add(vr(k, kDI), prev, inv_L_);
      s.add(vr(k, kDI), vr(k, kI), -R_ * inv_L_);
      s.add(vr(k, kDI), vr(k, kV), -inv_L_);
      s.add(vr(k, kDV), vr(k, kI), inv_C_);
      if (k + 1 < m_) s.add(vr(k, kDV), vr(k + 1, kI), -inv_C_);
      else if (load_) s.add(vr(k, kDV), v_m, -inv_RL_ * inv_C_);
      else s.add(vr(k, kDV), b_i_, inv_C_);
    }
  }

 private:
  static constexpr std::size_t kI = 0, kDI = 1, kV = 2, kDV = 3, kStride = 4;

  ValueRef vr(long k, std::size_t offset) const {
    return seg0_ + static_cast<ValueRef>(static_cast<std::size_t>(k) * kStride + offset);
  }

  // A continuous Float64 input, start 0 (a port's flow).
  static ValueRef input(Builder& b, const std::string& name, const std::string& unit, const std::string& text) {
    Variable u;
    u.name = name;
    u.description = text;
    u.causality = Causality::input;
    u.variability = Variability::continuous;
    u.start = 0.0;
    u.unit = unit;
    return b.add(std::move(u));
  }

  // R, L, C of one segment of the whole line, recomputed only when a parameter changed.
  void update_coefficients(const double* v) {
    const double r = v[p_r_], l = v[p_l_], c = v[p_c_], length = v[p_length_], n = v[p_n_];
    const double w = source_ ? v[p_w_] : 0.0;
    if (r == r_ && l == l_ && c == c_ && length == length_ && n == n_ && w == w_) return;
    r_ = r;
    l_ = l;
    c_ = c;
    length_ = length;
    n_ = n;
    w_ = w;
    R_ = r * length / n;
    const double L = l * length / n, C = c * length / n;
    inv_L_ = 1.0 / L;
    inv_C_ = 1.0 / C;
    inv_RL_ = 1.0 / std::sqrt(l / c);
  }

  long m_, n_line_;
  bool source_, load_, ode_;
  ValueRef a_i_ = 0, a_v_ = 0, b_i_ = 0, b_v_ = 0, v_load_ = 0, v_left_ = 0, res_a_ = 0;
  ValueRef fy_ = 0, dfy_ = 0, fyd_ = 0, dfyd_ = 0, seg0_ = 0;
  ValueRef p_r_ = 0, p_l_ = 0, p_c_ = 0, p_length_ = 0, p_n_ = 0, p_w_ = 0;
  double r_ = std::nan(""), l_ = 0, c_ = 0, length_ = 0, n_ = 0, w_ = 0;
  double R_ = 0, inv_L_ = 0, inv_C_ = 0, inv_RL_ = 0;
};

}  // namespace

LSDAE_KIT_MODEL(TransmissionLineSection)
