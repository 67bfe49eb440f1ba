// models/psse/stabilizers/ieeest.h -- IEEEST: IEEE stabilizing model (PSS/E
// Model Library, IEEEST: IEEE 1981 / IEEE Std 421.5-2016 PSS1A with PSS/E's
// output switch). Equations in ieeest.cpp.
//
// .dyr record (PSS/E order): ICONs M (input signal code) IB (remote bus),
// then A1 A2 A3 A4 A5 A6 T1 T2 T3 T4 T5 T6 KS LSMAX LSMIN VCU VCL.
//
// Variables (pss[<bus>_<id>].…): states z1..zn (the filter, n <= 4, as its
// order), xT2, xT4 (lead-lags, when T2, T4 > 0), xW (washout, when T6 > 0);
// algebraic Vs (written to the unit's signal vs); input speed, pe, pm
// (as M asks).
#ifndef LSDAE_MODELS_PSSE_STABILIZERS_IEEEST_H
#define LSDAE_MODELS_PSSE_STABILIZERS_IEEEST_H

#include <memory>
#include <span>

#include "psse/core/registry.h"

namespace lsdae::psse {

std::span<const ParameterSpec> ieeest_parameters();
std::unique_ptr<Component> make_ieeest(const DyrRecord& record, const UnitData& unit);

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_STABILIZERS_IEEEST_H
