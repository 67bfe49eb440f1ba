// models/kit/claims.h -- false claims that a variant makes on purpose.
//
// An importer reads a model's dependency lists, their dependenciesKind and
// its directional derivatives as claims of someone else's code (issue 32):
// the FMI project's own Roberts declares "constant" for Jacobian entries that
// vary, and exporters ship directional derivatives that are wrong. These
// Config keys make any kit model lie in one named place, so that the honest
// variant and the lying one come from the same model and the same reference:
//
//   claim_constant=U:K[,U:K...]       every dependency list that declares the
//                                     entry (U, K) says dependenciesKind
//                                     "constant" although dU/dK varies
//   claim_hidden=U:K[,U:K...]         the entry (U, K) is left out of every
//                                     dependency list although U depends on K
//   claim_partial_scale=U:K:F[,...]   fmi3GetDirectionalDerivative returns
//                                     F times dU/dK (F = -1: a wrong sign;
//                                     U or K may be * for every one)
//   claim_partial_scale_after=T       the scales apply only at time > T: the
//                                     derivatives are right at the start and
//                                     wrong later (a claim an importer can only
//                                     catch by checking again during the run)
//
// U and K are variable names ("der(y1)", "y3"). The binary computes the true
// model; only what it says about it changes. apply_claims() runs at the end of
// describe(), so the XML writers and the instance see the lying description.
//
// Cost: O(entries of the named unknowns) per claim at describe time; the
// partial scales cost one pass over the collected partials per point.
// Throws std::invalid_argument naming the key, the entry and the rule when an
// entry does not exist, is already what the claim says (a claim that would
// be true), or the model has no directional derivatives to scale.
#ifndef LSDAE_MODELS_KIT_CLAIMS_H
#define LSDAE_MODELS_KIT_CLAIMS_H

#include "kit/description.h"

namespace lsdae::kit {

void apply_claims(Description& d);

}  // namespace lsdae::kit

#endif  // LSDAE_MODELS_KIT_CLAIMS_H
