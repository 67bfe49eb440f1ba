// models/psse/core/bus_frequency.h -- the frequency of a component's bus,
// measured from its voltage phasor, for models that read a bus frequency
// (a plant controller's frequency droop, a stabilizer on bus frequency).
//
// In a phasor simulation the bus frequency deviation is the rate of change of
// the bus voltage angle over ω0. A measured angle is filtered (PSS/E computes
// bus frequencies by differentiating angles in its network solution; ANDES's
// BusFreq filters the angle and differentiates it with a washout). Here the
// phasor itself passes a first-order lag with time constant Tf,
//     Tf dxr/dt = Vr − xr,   Tf dxi/dt = Vi − xi,
// and the deviation is the exact derivative of the filtered phasor's angle:
//     Δf = (xr dxi/dt − xi dxr/dt) / (ω0 |x|²) = (xr Vi − xi Vr) / (ω0 Tf |x|²)   (p.u.).
// For small angle changes this is s/(1 + s Tf) applied to the angle; in a
// steady rotation at Δω it is exactly Δω; it has no wrap-around at ±π and
// stays finite while the voltage collapses (x lags, |x| > 0).
//
// Use: declare() in the model's declare (two states, named <prefix>Vr_f,
// <prefix>Vi_f), initialize() with the initial voltage, equations() inside
// the model's equations (writes the two derivatives), deviation() for Δf.
// Contract: Tf > 0 (the caller checks its data); cost: a few flops.
#ifndef LSDAE_MODELS_PSSE_CORE_BUS_FREQUENCY_H
#define LSDAE_MODELS_PSSE_CORE_BUS_FREQUENCY_H

#include <string>

#include "psse/core/component.h"

namespace lsdae::psse {

class BusFrequency {
 public:
  // Filter time constant used by models whose data give none (s).
  static constexpr double kDefaultFilter = 0.02;

  BusFrequency() = default;
  BusFrequency(double tf, double omega0) : tf_(tf), omega0_(omega0) {}

  void declare(Layout& l, const std::string& prefix = "") {
    xr_ = l.state(prefix + "Vr_f", "bus voltage, real part, filtered for the frequency measurement", "p.u.");
    xi_ = l.state(prefix + "Vi_f", "bus voltage, imaginary part, filtered for the frequency measurement", "p.u.");
  }
  void initialize(InitContext& in) const {
    in.state(xr_, in.voltage().real());
    in.state(xi_, in.voltage().imag());
  }
  template <class T>
  void equations(Frame<T>& f) const {
    f.der(xr_, (f.vr() - f.x(xr_)) / tf_);
    f.der(xi_, (f.vi() - f.x(xi_)) / tf_);
  }
  // Δf, p.u. of the nominal frequency.
  template <class T>
  T deviation(const Frame<T>& f) const {
    const T& xr = f.x(xr_);
    const T& xi = f.x(xi_);
    return (xr * f.vi() - xi * f.vr()) / (omega0_ * tf_ * (xr * xr + xi * xi));
  }

 private:
  double tf_ = kDefaultFilter, omega0_ = 1.0;
  int xr_ = -1, xi_ = -1;
};

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_CORE_BUS_FREQUENCY_H
