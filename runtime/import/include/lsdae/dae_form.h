// lsdae/dae_form.h -- how a model's DAE-mode residuals relate to its state
// derivatives: the form the importer reads from an LS-DAE manifest
// (runtime/import/dae_form.h, docs/fmi-ls-dae.md "Form"), which a Model
// (lsdae/model.h) reports and the simulation follows.
#ifndef LSDAE_DAE_FORM_H
#define LSDAE_DAE_FORM_H

namespace lsdae {

enum class DaeForm {
  ode,             // no manifest: plain ME FMU, F = x' - f(x)
  semi_explicit,   // x' = f(x, z, t) from GetContinuousStateDerivatives, plus g(x, z, t) = 0
  fully_implicit,  // residuals F(x', x, z, t) = 0 take the derivatives as knowns
  // F(x', x, z, t) = 0 as OpenModelica exports it: no ContinuousStateDerivative
  // in the manifest, one residual per state and algebraic variable, and a
  // state's value reference in dependencies stands for both x and x'. lsdae
  // writes x' into the derivative variables, as in `fully_implicit`.
  fully_implicit_openmodelica,
};
// "ODE", "semi-explicit DAE", "fully implicit DAE", "fully implicit DAE
// (OpenModelica form: ...)": what `lsdae info` prints.
const char* to_string(DaeForm form) noexcept;
// "ode", "semi_explicit", "fully_implicit", "fully_implicit_openmodelica" (JSON).
const char* to_key(DaeForm form) noexcept;
// Both fully implicit forms: lsdae writes x' and the residuals are the whole DAE.
inline bool is_fully_implicit(DaeForm form) noexcept {
  return form == DaeForm::fully_implicit || form == DaeForm::fully_implicit_openmodelica;
}

}  // namespace lsdae

#endif  // LSDAE_DAE_FORM_H
