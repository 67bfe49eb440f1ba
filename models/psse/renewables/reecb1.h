// models/psse/renewables/reecb1.h -- REECB1: the WECC second-generation
// renewable electrical control model B (REEC_B, PV plants): from the plant's
// active and reactive references (pref, qext, or a power factor) it computes
// the converter's current commands Ipcmd and Iqcmd, with the voltage dip
// logic (freezing its regulators), the reactive current injection of a dip,
// the Q and V regulators, the power order with its ramp and limits, and the
// current limit logic with P or Q priority. Equations, sources and
// interpretations in reecb1.cpp and docs/psse-renewables.md.
//
// .dyr record (PSS/E order): 5 ICONs (remote bus, PFFLAG, VFLAG, QFLAG,
// PQFLAG), then Vdip Vup Trv dbd1 dbd2 Kqv Iqh1 Iql1 Vref0 Tp Qmax Qmin Vmax
// Vmin Kqp Kqi Kvp Kvi Tiq dPmax dPmin Pmax Pmin Imax Tpord.
//
// Variables (reec[<bus>_<id>].…): states Vf, Pf, xQ, xV, Iq, Pord (those its
// flags use); algebraic Ipcmd, Iqcmd (the outputs ipcmd, iqcmd); inputs pe,
// qe, pref, qext (those its flags use); parameters pfaref (PFFLAG = 1) and
// Vref0 (Kqv ≠ 0).
#ifndef LSDAE_MODELS_PSSE_RENEWABLES_REECB1_H
#define LSDAE_MODELS_PSSE_RENEWABLES_REECB1_H

#include <memory>
#include <span>

#include "psse/core/registry.h"

namespace lsdae::psse {

std::span<const ParameterSpec> reecb1_parameters();
std::unique_ptr<Component> make_reecb1(const DyrRecord& record, const UnitData& unit);

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_RENEWABLES_REECB1_H
