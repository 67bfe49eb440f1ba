// models/psse/machines/genrou.h -- GENROU: round-rotor synchronous machine
// with quadratic saturation on both axes (PSS/E Model Library, GENROU;
// PowerWorld's block diagram; equations in genrou.cpp and docs/psse.md).
//
// .dyr record (PSS/E order): T'do T''do T'qo T''qo H D Xd Xq X'd X'q X''d Xl
// S(1.0) S(1.2); X''q = X''d; Ra is the generator record's ZR (on MBASE).
//
// Variables (gen[<bus>_<id>].…): states delta (rad), dw (speed deviation,
// p.u.), Eqp (E'q), psikd (ψkd), Edp (E'd), psikq (ψkq); inputs efd, pm;
// outputs speed (= dw) and, when another model reads them, pe, ifd,
// itr and iti (algebraic variables).
#ifndef LSDAE_MODELS_PSSE_MACHINES_GENROU_H
#define LSDAE_MODELS_PSSE_MACHINES_GENROU_H

#include <memory>
#include <span>

#include "psse/core/registry.h"

namespace lsdae::psse {

std::span<const ParameterSpec> genrou_parameters();
std::unique_ptr<Component> make_genrou(const DyrRecord& record, const UnitData& unit);

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_MACHINES_GENROU_H
