// models/psse/machines/machine_frame.cpp -- see machine_frame.h.
#include "psse/machines/machine_frame.h"

#include <algorithm>
#include <cmath>

#include "psse/core/signals.h"

namespace lsdae::psse {

QuadraticSaturation::QuadraticSaturation(const Parameters& p, std::size_t i10, std::size_t i12) {
  const double s10 = p[i10], s12 = p[i12];
  p.require_nonnegative(i10);
  p.require_nonnegative(i12);
  if (s10 == 0.0) return;  // no saturation (machine_frame.h)
  p.require(1.2 * s12 > s10, i12, "must exceed S(1.0)/1.2 (no quadratic saturation passes through both points)");
  const double r = std::sqrt(s10 / (1.2 * s12));
  a_ = (1.2 * r - 1.0) / (r - 1.0);
  b_ = s10 / ((1.0 - a_) * (1.0 - a_));
  active_ = true;
}

void MachineOutputs::declare(Layout& l) {
  pe_ = ifd_ = -1;
  if (l.consumed(signal::pe)) {
    pe_ = l.algebraic("Pe", "electrical power at the terminal, p.u. on MBASE");
    l.output(signal::pe, Var::z(pe_));
  }
  if (l.consumed(signal::ifd)) {
    ifd_ = l.algebraic("XadIfd", "field current, p.u.");
    l.output(signal::ifd, Var::z(ifd_));
  }
}

void MachineOutputs::initialize(InitContext& in, double pe, double ifd) const {
  if (pe_ >= 0) in.algebraic(pe_, pe);
  if (ifd_ >= 0) in.algebraic(ifd_, ifd);
}

std::string zsource_note(Complex zsource, double xpp) {
  if (std::fabs(zsource.imag() - xpp) <= 1e-6 * std::max(1.0, xpp)) return "";
  return "ZSORCE X = " + std::to_string(zsource.imag()) + " differs from X''d = " + std::to_string(xpp) +
         "; the model uses X''d (and ZSORCE's R as Ra)";
}

}  // namespace lsdae::psse
