// models/psse/renewables/regca1.h -- REGCA1: the WECC second-generation
// renewable generator/converter model (REGC_A): a current source at the
// network, without rotor or PLL, that follows the current commands of its
// electrical control (REECB1) with the converter's lag, the low-voltage
// active current management, the low-voltage power logic and the high-voltage
// reactive current management. Equations, sources and interpretations in
// regca1.cpp and docs/psse-renewables.md.
//
// .dyr record (PSS/E order): LVPLSW (ICON) Tg Rrpwr Brkpt Zerox Lvpl1 Volim
// Lvpnt1 Lvpnt0 Iolim Tfltr Khv Iqrmax Iqrmin Accel.
//
// Variables (gen[<bus>_<id>].…): states Ip, Iq (active and reactive current,
// p.u. on MBASE, Iq > 0 injecting reactive power), Vf (filtered voltage of
// the LVPL, with LVPLSW = 1); inputs ipcmd, iqcmd; outputs pe, qe when
// another model reads them (algebraic variables).
#ifndef LSDAE_MODELS_PSSE_RENEWABLES_REGCA1_H
#define LSDAE_MODELS_PSSE_RENEWABLES_REGCA1_H

#include <memory>
#include <span>

#include "psse/core/registry.h"

namespace lsdae::psse {

std::span<const ParameterSpec> regca1_parameters();
std::unique_ptr<Component> make_regca1(const DyrRecord& record, const UnitData& unit);

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_RENEWABLES_REGCA1_H
