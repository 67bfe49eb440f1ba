// runtime/import/dae_form.cpp -- see dae_form.h; also the names of a DaeForm
// (lsdae/dae_form.h).
#include "import/dae_form.h"

#include <string>

#include "import/manifest_parser.h"

namespace lsdae {

const char* to_string(DaeForm form) noexcept {
  switch (form) {
    case DaeForm::ode: return "ODE";
    case DaeForm::semi_explicit: return "semi-explicit DAE";
    case DaeForm::fully_implicit: return "fully implicit DAE";
    case DaeForm::fully_implicit_openmodelica:
      return "fully implicit DAE (OpenModelica form: no ContinuousStateDerivative; a state in dependencies stands "
             "for x and ẋ)";
  }
  return "?";
}

const char* to_key(DaeForm form) noexcept {
  switch (form) {
    case DaeForm::ode: return "ode";
    case DaeForm::semi_explicit: return "semi_explicit";
    case DaeForm::fully_implicit: return "fully_implicit";
    case DaeForm::fully_implicit_openmodelica: return "fully_implicit_openmodelica";
  }
  return "?";
}

}  // namespace lsdae

namespace lsdae::import {

DaeFormReading read_dae_form(const Manifest& manifest, std::size_t states, bool names_derivative,
                             Diagnostics& diagnostics) {
  if (names_derivative) return {DaeForm::fully_implicit, false};
  if (states == 0 || !manifest.structure.continuous_state_derivatives.empty()) return {DaeForm::semi_explicit, false};
  const std::size_t n = states, m = manifest.algebraic_variables.size(), rows = manifest.residuals.size();
  if (rows == m) return {DaeForm::semi_explicit, false};  // every ẋ_i then depends on everything
  if (rows == n + m) return {DaeForm::fully_implicit_openmodelica, true};

  const std::string implicit_count = std::to_string(n + m), explicit_count = std::to_string(m);
  const std::size_t off = rows < n + m ? n + m - rows : rows - (n + m);
  std::string fix = std::to_string(off) + (off == 1 ? " residual is " : " residuals are ") +
                    (rows < n + m ? "missing" : "extra") + " for the fully implicit form";
  diagnostics.error(
      kManifestFile, 1,
      std::to_string(rows) + " residual groups for " + std::to_string(n) + " states and " + std::to_string(m) +
          " algebraic variables, with no <ContinuousStateDerivative> and no residual that names a state derivative: "
          "such a manifest is either the fully implicit OpenModelica form (a state in dependencies stands for x and "
          "ẋ), which needs one residual per state and algebraic variable (" +
          std::to_string(n) + " + " + std::to_string(m) + " = " + implicit_count +
          "), or the semi-explicit form, which needs one per algebraic variable (" + explicit_count + "); " +
          std::to_string(rows) + " fits neither",
      fix + "; or, for the semi-explicit form, list each state derivative as a <ContinuousStateDerivative> (then " +
          explicit_count + " residuals, one per algebraic variable, plus any constraints on the states)");
  // The nearer reading, for `info`; simulation refuses the FMU either way.
  return {rows > m ? DaeForm::fully_implicit_openmodelica : DaeForm::semi_explicit, true};
}

}  // namespace lsdae::import
