// A chain of N masses rigidly coupled by N-1 velocity constraints: the
// scalable index-2 model of the corpus (CoupledMasses, seed 003, for N masses).
//
//   Fa         = F0 sin(omega t)                      driving force on mass 1
//   m[k]       = m (1 + (k-1 mod 3)/2)                k = 1..N   (m, 1.5 m, 2 m, m, ...)
//   der(s[k])  = v[k]
//   der(v[k])  = (F[k-1] - F[k] + (k == 1) Fa) / m[k]  with F[0] = F[N] = 0
//   0          = v[k] - v[k+1]                         k = 1..N-1: F[k], the force of
//                                                      mass k on mass k+1
//
// One form (config form=semi_explicit, manifest shape A, DAE mode from the start,
// N from config key N): der(s), der(v) from fmi3GetContinuousStateDerivatives,
// plus one residual group per coupling, highest index first, the derivative
// formulation with der(v) eliminated by the model's own equations:
//   g[k]    = v[k] - v[k+1]                                         index 2
//   gdot[k] = (F[k-1] - F[k] + (k == 1) Fa)/m[k] - (F[k] - F[k+1])/m[k+1]   index 1
// Index reduction keeps one velocity as a state and makes N-1 velocities dummy
// states (their derivatives dummy derivatives); which N-1 is a numeric choice.
//
// Exact solution (the chain moves as one body of mass M = sum m[k]):
//   v[k] = F0 (1 - cos(omega t)) / (omega M),  s[k] = F0 (omega t - sin(omega t)) / (omega^2 M),
//   F[k] = Fa (m[k+1] + ... + m[N]) / M.
//
// Layout: the variables of one mass are declared together (s, der(s), v, der(v),
// F, g, gdot), so the dependency pattern is banded.
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "kit/model.h"

namespace {

using namespace lsdae::kit;

constexpr ValueRef kTime = 0;  // the kit gives the independent variable value reference 0

class MassChain final : public Model {
 public:
  explicit MassChain(const Config& config)
      : form_(config.get_choice("form", {"semi_explicit"})), n_(config.get_int("N", 10)) {
    if (n_ < 2) throw std::invalid_argument("MassChain: N = " + std::to_string(n_) + "; a chain needs N >= 2");
  }

  void declare(Builder& b) override {
    const std::string n = std::to_string(n_);
    b.model_name("MassChain", "A chain of " + n + " masses rigidly coupled at velocity level, index 2 (" + form_ +
                                  " form)");
    b.default_experiment({0.0, 10.0, 1e-8, 0.01});
    b.form(Form::semi_explicit);
    b.provides_partials();

    m_ = b.parameter("m", 1.0, "kg", "base mass: mass k is m (1 + ((k-1) mod 3)/2)");
    F0_ = b.parameter("F0", 1.0, "N", "amplitude of the driving force on mass 1");
    omega_ = b.parameter("omega", 2.0, "rad/s", "angular frequency of the driving force");
    Fa_ = b.local("Fa", "N", "driving force F0 sin(omega t)");

    const auto count = static_cast<std::size_t>(n_);
    s_.resize(count);
    v_.resize(count);
    der_s_.resize(count);
    der_v_.resize(count);
    F_.resize(count - 1);
    g_.resize(count - 1);
    gdot_.resize(count - 1);
    for (std::size_t k = 0; k < count; ++k) {
      const std::string i = "[" + std::to_string(k + 1) + "]";
      s_[k] = b.state("s" + i, 0.0, "m", "position of mass " + std::to_string(k + 1));
      der_s_[k] = b.derivative(s_[k]);
      v_[k] = b.state("v" + i, 0.0, "m/s", "velocity of mass " + std::to_string(k + 1));
      der_v_[k] = b.derivative(v_[k]);
      if (k + 1 < count) {
        F_[k] = b.algebraic("F" + i, 0.0, "N", "constraint force of mass " + std::to_string(k + 1) + " on mass " +
                                                    std::to_string(k + 2));
        g_[k] = b.residual_variable("g" + i, "v" + i + " - v[" + std::to_string(k + 2) + "] (index 2)");
        gdot_[k] = b.residual_variable("gdot" + i, "d/dt of g" + i + " with der(v) substituted (index 1)");
      }
    }

    constexpr DepKind kC = DepKind::constant;
    constexpr DepKind kF = DepKind::fixed;
    constexpr DepKind kD = DepKind::dependent;
    for (std::size_t k = 0; k < count; ++k) {
      b.dae_dependencies(der_s_[k], {{v_[k], kC}});
      std::vector<Dependency> dv;
      if (k == 0) dv.push_back({kTime, kD});
      if (k > 0) dv.push_back({F_[k - 1], kF});
      if (k + 1 < count) dv.push_back({F_[k], kF});
      b.dae_dependencies(der_v_[k], dv);
    }
    for (std::size_t k = 0; k + 1 < count; ++k) {
      std::vector<Dependency> d;
      if (k == 0) d.push_back({kTime, kD});
      if (k > 0) d.push_back({F_[k - 1], kF});
      d.push_back({F_[k], kF});
      if (k + 2 < count) d.push_back({F_[k + 1], kF});
      b.residual_group({{
          {g_[k], 2, {{v_[k], kC}, {v_[k + 1], kC}}},
          {gdot_[k], 1, d},
      }});
    }
  }

  void compute(Context& c) override {
    double* v = c.v;
    const std::size_t count = s_.size();
    const double Fa = v[F0_] * std::sin(v[omega_] * c.time);
    v[Fa_] = Fa;
    for (std::size_t k = 0; k < count; ++k) {
      const double force = (k > 0 ? v[F_[k - 1]] : 0.0) - (k + 1 < count ? v[F_[k]] : 0.0) + (k == 0 ? Fa : 0.0);
      v[der_s_[k]] = v[v_[k]];
      v[der_v_[k]] = force / mass(v, k);
    }
    for (std::size_t k = 0; k + 1 < count; ++k) {
      v[g_[k]] = v[v_[k]] - v[v_[k + 1]];
      v[gdot_[k]] = v[der_v_[k]] - v[der_v_[k + 1]];
    }
  }

  void partials(const Context& c, PartialSink& s) override {
    const double* v = c.v;
    const std::size_t count = s_.size();
    const double dFa_dt = v[F0_] * v[omega_] * std::cos(v[omega_] * c.time);
    for (std::size_t k = 0; k < count; ++k) {
      const double inv_m = 1.0 / mass(v, k);
      s.add(der_s_[k], v_[k], 1.0);
      if (k == 0) s.add(der_v_[k], kTime, dFa_dt * inv_m);
      if (k > 0) s.add(der_v_[k], F_[k - 1], inv_m);
      if (k + 1 < count) s.add(der_v_[k], F_[k], -inv_m);
    }
    for (std::size_t k = 0; k + 1 < count; ++k) {
      const double a = 1.0 / mass(v, k), b = 1.0 / mass(v, k + 1);
      s.add(g_[k], v_[k], 1.0);
      s.add(g_[k], v_[k + 1], -1.0);
      if (k == 0) s.add(gdot_[k], kTime, dFa_dt * a);
      if (k > 0) s.add(gdot_[k], F_[k - 1], a);
      s.add(gdot_[k], F_[k], -a - b);
      if (k + 2 < count) s.add(gdot_[k], F_[k + 1], b);
    }
  }

 private:
  double mass(const double* v, std::size_t k) const { return v[m_] * (1.0 + 0.5 * static_cast<double>(k % 3)); }

  std::string form_;
  long n_;
  ValueRef m_ = 0, F0_ = 0, omega_ = 0, Fa_ = 0;
  std::vector<ValueRef> s_, v_, der_s_, der_v_, F_, g_, gdot_;
};

}  // namespace

LSDAE_KIT_MODEL(MassChain)
