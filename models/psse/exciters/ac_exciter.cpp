// models/psse/exciters/ac_exciter.cpp -- see ac_exciter.h.
#include "psse/exciters/ac_exciter.h"

namespace lsdae::psse {

AlternatorRectifier AlternatorRectifier::from(const Parameters& p, const AlternatorFields& i) {
  p.require_positive(i.te);
  p.require_nonnegative(i.kc);
  p.require_nonnegative(i.kd);
  const QuadraticSaturation saturation = QuadraticSaturation::through(p, i.e1, i.se1, i.e2, i.se2);
  return AlternatorRectifier(p[i.te], p[i.ke], p[i.kd], p[i.kc], saturation);
}

AcRegulator AcRegulator::from(const Parameters& p, const AcRegulatorFields& i) {
  for (std::size_t k : {i.tr, i.tb, i.tc}) p.require_nonnegative(k);
  p.require(p[i.tb] > 0.0 || p[i.tc] == 0.0, i.tc, "must be 0 when TB is 0 (a lead without a lag)");
  p.require_positive(i.ka);
  p.require_nonnegative(i.ta);
  p.require_nonnegative(i.tf);
  p.require(p[i.kf] == 0.0 || p[i.tf] > 0.0, i.tf, "must be > 0 when KF is not 0");
  return AcRegulator(p[i.tr], p[i.tb], p[i.tc], p[i.ka], p[i.ta], p[i.kf], p[i.tf]);
}

}  // namespace lsdae::psse
