// models/psse/machines/machine_frame.h -- what the synchronous machine models
// (GENCLS, GENROU, GENSAL) share: PSS/E's quadratic saturation, the rotation
// between the network frame and the rotor's d-q frame, and the swing
// equation as PSS/E writes it.
//
// Rotor frame (PSS/E, Kundur §3.1): the q axis leads the d axis by 90°; δ is
// the angle of the q axis in the network's synchronous frame (PSS/E's ANGLE
// channel), so a network phasor F = Fr + jFi has rotor components
//     Fd + jFq = F · e^(−j(δ − π/2)),   Fd = Fr sin δ − Fi cos δ,  Fq = Fr cos δ + Fi sin δ.
// The subtransient voltage of GENROU and GENSAL is E'' = −ψ''q + j ψ''d in
// the rotor frame, NOT multiplied by the speed (PSS/E convention; checked
// against PSS/E's GENROU trajectories: with the speed factor the error grows
// from 6.6e-5 to 8.5e-4 rad, docs/psse.md).
//
// Swing equation (PSS/E Model Library, GENROU/GENSAL; torques in p.u. on
// MBASE, speed deviation Δω in p.u.):
//     2H dΔω/dt = (Pm − D Δω)/(1 + Δω) − Te,   dδ/dt = ω0 Δω,
// Te the air-gap torque ψ''d iq − ψ''q id.
//
// Saturation (PSS/E's quadratic function, core/saturation.h, on the air-gap flux magnitude):
//     Se(x) = B (x − A)² / x  for x > A, else 0,
// through Se(1.0) = S(1.0) and Se(1.2) = S(1.2), i.e. with r = √(S(1.0)/(1.2 S(1.2))),
// A = (1.2 r − 1)/(r − 1), B = S(1.0)/(1 − A)². S(1.0) = 0 means no
// saturation (whatever S(1.2) is: PSS/E's GENROU_NO_SAT case has S(1.2) = 1
// and its initial angle is the unsaturated one to 1e-6°). The field current
// increase is x·Se(x): ψ''d·Se(ψ'') in GENROU's d axis. Checked against
// PSS/E: the initial rotor angles of the three GENROU cases agree to 1e-6°
// with this definition and differ by 0.13° with Se = B (x − A)².
#ifndef LSDAE_MODELS_PSSE_MACHINES_MACHINE_FRAME_H
#define LSDAE_MODELS_PSSE_MACHINES_MACHINE_FRAME_H

#include <cstddef>
#include <string>

#include "psse/core/component.h"
#include "psse/core/dual.h"
#include "psse/core/parameters.h"
#include "psse/core/saturation.h"

namespace lsdae::psse {

// Network-frame phasor → rotor frame (d, q) at rotor angle δ.
template <class T>
void to_rotor(const T& fr, const T& fi, const T& sin_delta, const T& cos_delta, T& fd, T& fq) {
  fd = fr * sin_delta - fi * cos_delta;
  fq = fr * cos_delta + fi * sin_delta;
}

// Rotor frame (d, q) → network frame.
template <class T>
void to_network(const T& fd, const T& fq, const T& sin_delta, const T& cos_delta, T& fr, T& fi) {
  fr = fd * sin_delta + fq * cos_delta;
  fi = fq * sin_delta - fd * cos_delta;
}

// The subtransient stator of GENROU and GENSAL: the voltage −ψ''q + jψ''d
// (rotor frame) behind Ra + jX''d, i.e. the admittance g + jb; the current
// the machine injects (network frame ir, ii and rotor frame id, iq; machine
// base) at terminal voltage vr + j vi.
template <class T>
void subtransient_stator(const T& psd, const T& psq, const T& sin_delta, const T& cos_delta, const T& vr,
                         const T& vi, double g, double b, T& ir, T& ii, T& id, T& iq) {
  T er, ei;
  to_network(T(-psq), psd, sin_delta, cos_delta, er, ei);
  const T dr = er - vr, di = ei - vi;
  ir = g * dr - b * di;
  ii = b * dr + g * di;
  to_rotor(ir, ii, sin_delta, cos_delta, id, iq);
}

// The optional outputs of a machine: its terminal power pe, its field
// current ifd (XadIfd) and its terminal current itr + j iti (network frame,
// MBASE) exist as algebraic variables only when another model of the unit
// reads them (Layout::consumed).
class MachineOutputs {
 public:
  void declare(Layout& l);
  void initialize(InitContext& in, double pe, double ifd, Complex current) const;
  template <class T>
  void residuals(Frame<T>& f, const T& pe, const T& ifd, const T& ir, const T& ii) const {
    if (pe_ >= 0) f.res(pe_, f.z(pe_) - pe);
    if (ifd_ >= 0) f.res(ifd_, f.z(ifd_) - ifd);
    if (itr_ >= 0) {
      f.res(itr_, f.z(itr_) - ir);
      f.res(iti_, f.z(iti_) - ii);
    }
  }

 private:
  int pe_ = -1, ifd_ = -1, itr_ = -1, iti_ = -1;
};

// The message noting that ZSORCE's reactance is not the model's X''d (the
// model uses X''d, and ZSORCE's R as Ra); empty when they agree.
std::string zsource_note(Complex zsource, double xpp);

// dΔω/dt of the swing equation above.
template <class T>
T swing(const T& pm, const T& te, const T& speed, double h, double d) {
  return ((pm - d * speed) / (1.0 + speed) - te) / (2.0 * h);
}

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_MACHINES_MACHINE_FRAME_H
