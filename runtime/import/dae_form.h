// runtime/import/dae_form.h -- which DAE form an LS-DAE manifest is written in,
// read from the manifest itself (docs/fmi-ls-dae.md, "Form"). There are three:
//
//   fully implicit        some residual names a state-derivative variable in its
//                         dependencies (the draft-0.1 convention): the residuals
//                         are the whole system F(t, x, ẋ, z) = 0, lsdae writes ẋ
//                         into the derivative variables, and in dependencies a
//                         state stands for x, a derivative for ẋ.
//   fully implicit,       no residual names a derivative, the manifest lists NO
//   OpenModelica form     <ContinuousStateDerivative>, and there are as many
//                         residual groups as states plus algebraic variables
//                         (n + m): the residuals cover the state rows too, and a
//                         state's value reference in dependencies stands for both
//                         x and ẋ. This is what OpenModelica's DAE export writes
//                         and how OMSimulator reads it. lsdae writes ẋ into the
//                         derivative variables of the core modelDescription.xml
//                         (those whose `derivative` attribute names the state).
//   semi-explicit         otherwise: ẋ = f(x, z, t) from
//                         fmi3GetContinuousStateDerivatives, the residuals are
//                         g(x, z, t) = 0, one per algebraic variable (m).
//
// Without ContinuousStateDerivative and without a derivative in dependencies, a
// manifest is one of the last two forms by its count alone: m residual groups is
// semi-explicit (every ẋ then depends on everything), n + m is the OpenModelica
// form, and any other count is an error that names both expectations, since
// neither form can be solved (no matching exists, or rows are left over).
// With no states the forms coincide and the manifest is read as semi-explicit.
//
// Cost: O(1) beyond what the caller already scanned.
#ifndef LSDAE_RUNTIME_IMPORT_DAE_FORM_H
#define LSDAE_RUNTIME_IMPORT_DAE_FORM_H

#include <cstddef>

#include "lsdae/dae_form.h"
#include "lsdae/diagnostics.h"
#include "lsdae/manifest.h"

namespace lsdae::import {

struct DaeFormReading {
  DaeForm form = DaeForm::semi_explicit;
  // The residual count was checked here (and any mismatch reported): the
  // caller's own count rules for the other forms must not run as well.
  bool counts_checked = false;
};

// `manifest` is present; `states` is the number of continuous states of the
// core ModelStructure; `names_derivative` tells whether some residual's
// dependencies name a state-derivative variable. Adds an error to
// `diagnostics` when the manifest has neither ContinuousStateDerivative nor a
// derivative in dependencies and its residual count fits neither form.
DaeFormReading read_dae_form(const Manifest& manifest, std::size_t states, bool names_derivative,
                             Diagnostics& diagnostics);

}  // namespace lsdae::import

#endif  // LSDAE_RUNTIME_IMPORT_DAE_FORM_H
