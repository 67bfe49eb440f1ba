// models/psse/machines/gensal.h -- GENSAL: salient-pole synchronous machine,
// quadratic saturation on the d axis only (PSS/E Model Library, GENSAL;
// equations in gensal.cpp and docs/psse.md).
//
// .dyr record (PSS/E order): T'do T''do T''qo H D Xd Xq X'd X''d Xl S(1.0)
// S(1.2); X''q = X''d; Ra is the generator record's ZR (on MBASE).
//
// Variables (gen[<bus>_<id>].…): states delta, dw, Eqp (E'q), psikd (ψkd),
// psiqpp (ψ''q); inputs efd, pm; outputs speed and, when read, pe, ifd,
// itr and iti.
#ifndef LSDAE_MODELS_PSSE_MACHINES_GENSAL_H
#define LSDAE_MODELS_PSSE_MACHINES_GENSAL_H

#include <memory>
#include <span>

#include "psse/core/registry.h"

namespace lsdae::psse {

std::span<const ParameterSpec> gensal_parameters();
std::unique_ptr<Component> make_gensal(const DyrRecord& record, const UnitData& unit);

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_MACHINES_GENSAL_H
