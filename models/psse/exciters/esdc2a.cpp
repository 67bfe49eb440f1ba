// models/psse/exciters/esdc2a.cpp -- ESDC2A, IEEE Std 421.5 type DC2A
// (PSS/E Model Library "ESDC2A"; IEEE Std 421.5-2005 §5.2; OpenIPSL's
// PSS/E-validated ESDC2A and ANDES agree on the structure).
//
// .dyr record: the same sixteen fields as ESDC1A (esdc1a.cpp), read the same
// way. DC2A differs from DC1A only in the regulator's limits, which are
// proportional to the terminal voltage (the regulator is fed from the
// generator terminals):  VT·VRMIN <= VR <= VT·VRMAX  (non-windup), VT = |VT|
// at the bus, unfiltered.
#include "psse/exciters/esdc2a.h"

#include "psse/exciters/dc_exciter.h"
#include "psse/exciters/esdc1a.h"

namespace lsdae::psse {

std::span<const ParameterSpec> esdc2a_parameters() { return esdc1a_parameters(); }

std::unique_ptr<Component> make_esdc2a(const DyrRecord& record, const UnitData&) {
  DcExciterData d = read_dc1a_record(Parameters(record, esdc1a_parameters()));
  d.limits_times_vt = true;
  return make_dc_exciter(record, d);
}

}  // namespace lsdae::psse
