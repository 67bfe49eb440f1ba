// models/psse/machines/machine_frame.cpp -- see machine_frame.h (the
// saturation function is in core/saturation.cpp, shared with the exciters).
#include "psse/machines/machine_frame.h"

#include <algorithm>
#include <cmath>

#include "psse/core/signals.h"

namespace lsdae::psse {

void MachineOutputs::declare(Layout& l) {
  pe_ = ifd_ = itr_ = iti_ = -1;
  if (l.consumed(signal::pe)) {
    pe_ = l.algebraic("Pe", "electrical power at the terminal, p.u. on MBASE");
    l.output(signal::pe, Var::z(pe_));
  }
  if (l.consumed(signal::ifd)) {
    ifd_ = l.algebraic("XadIfd", "field current, p.u.");
    l.output(signal::ifd, Var::z(ifd_));
  }
  if (l.consumed(signal::itr) || l.consumed(signal::iti)) {
    itr_ = l.algebraic("Itr", "terminal current, real part, p.u. on MBASE");
    iti_ = l.algebraic("Iti", "terminal current, imaginary part, p.u. on MBASE");
    l.output(signal::itr, Var::z(itr_));
    l.output(signal::iti, Var::z(iti_));
  }
}

void MachineOutputs::initialize(InitContext& in, double pe, double ifd, Complex current) const {
  if (pe_ >= 0) in.algebraic(pe_, pe);
  if (ifd_ >= 0) in.algebraic(ifd_, ifd);
  if (itr_ >= 0) {
    in.algebraic(itr_, current.real());
    in.algebraic(iti_, current.imag());
  }
}

std::string zsource_note(Complex zsource, double xpp) {
  if (std::fabs(zsource.imag() - xpp) <= 1e-6 * std::max(1.0, xpp)) return "";
  return "ZSORCE X = " + std::to_string(zsource.imag()) + " differs from X''d = " + std::to_string(xpp) +
         "; the model uses X''d (and ZSORCE's R as Ra)";
}

}  // namespace lsdae::psse
