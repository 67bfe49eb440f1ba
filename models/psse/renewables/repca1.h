// models/psse/renewables/repca1.h -- REPCA1: the WECC second-generation
// renewable plant controller model A (REPC_A): the plant's reactive power or
// voltage loop (with reactive droop or line drop compensation, dead band,
// non-windup PI, lead-lag, voltage freeze) giving Qext, and its active power
// loop with frequency droop (dead band, separate up and down droops) giving
// Pref, both to the electrical control (REECB1). Equations, sources and
// interpretations in repca1.cpp and docs/psse-renewables.md.
//
// .dyr record (PSS/E order): 7 ICONs (regulated bus, monitored branch from,
// to, circuit id (quoted), VCFlag, RefFlag, Fflag), then Tfltr Kp Ki Tft Tfv
// Vfrz Rc Xc Kc emax emin dbd1 dbd2 Qmax Qmin Kpg Kig Tp fdbd1 fdbd2 femax
// femin Pmax Pmin Tlag Ddn Dup.
//
// Variables (repc[<bus>_<id>].…): states Vf or Qf, xQ, Qll, Pf, xP, Plag,
// and the bus frequency's Vr_f, Vi_f (those its data use); algebraic Qext and
// Pref (outputs qext and, with Fflag = 1, pref); inputs pe, qe; parameters
// Vref or Qref, Plant_pref and Fref (frequency reference deviation, p.u.).
#ifndef LSDAE_MODELS_PSSE_RENEWABLES_REPCA1_H
#define LSDAE_MODELS_PSSE_RENEWABLES_REPCA1_H

#include <memory>
#include <span>

#include "psse/core/registry.h"

namespace lsdae::psse {

std::span<const ParameterSpec> repca1_parameters();
std::unique_ptr<Component> make_repca1(const DyrRecord& record, const UnitData& unit);

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_RENEWABLES_REPCA1_H
