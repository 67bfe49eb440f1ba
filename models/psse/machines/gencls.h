// models/psse/machines/gencls.h -- GENCLS: classical machine, a constant EMF
// behind the generator's source impedance ZSORCE (PSS/E Model Library,
// GENCLS). H = 0 makes it an infinite bus (constant EMF and angle).
//
// .dyr record: H D. Variables (gen[<bus>_<id>].…): states delta (rad), dw
// (speed deviation) when H > 0; input pm; output speed.
#ifndef LSDAE_MODELS_PSSE_MACHINES_GENCLS_H
#define LSDAE_MODELS_PSSE_MACHINES_GENCLS_H

#include <memory>
#include <span>

#include "psse/core/registry.h"

namespace lsdae::psse {

std::span<const ParameterSpec> gencls_parameters();
std::unique_ptr<Component> make_gencls(const DyrRecord& record, const UnitData& unit);

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_MACHINES_GENCLS_H
