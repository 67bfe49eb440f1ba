// lsdae/manifest.h -- the FMI-LS-DAE manifest
// (extra/org.fmi-standard.fmi-ls-dae/fmi-ls-manifest.xml), in either of the two
// shapes found in the wild (docs/fmi-ls-dae.md):
//
//   Shape A, draft 0.1: root `fmiLayeredStandardManifest` (or `fmi-ls-dae`),
//     optional <EnableDAE valueReference> (or attribute enableDAEModeVariable),
//     <AlgebraicVariables>, <ModelStructure> whose <Residual>s group one or more
//     <Formulation valueReference index? dependencies? dependenciesKind?>:
//     the same constraint differentiated to successive orders, original first.
//   Shape B, 1.0.0-alpha.1: root `fmiDAEManifest`, required
//     <EnableDAEParameter>, flat <Residual>s (the FMI 3.0 dependency type) and
//     <Invariant>s (quantities that must stay zero: drift constraints).
//
// lsdae stores both in one form: a shape-B <Residual> becomes a group with one
// Formulation (no index) and each <Invariant> is kept in `invariants`.
// Elements are matched by local name; namespaces are ignored.
#ifndef LSDAE_MANIFEST_H
#define LSDAE_MANIFEST_H

#include <optional>
#include <string>
#include <vector>

#include "lsdae/model_description.h"

namespace lsdae {

enum class ManifestShape {
  none,         // the FMU has no LS-DAE manifest: a plain ODE FMU
  draft_0_1,    // shape A
  alpha_1_0_0,  // shape B
};
// "none", "A (draft 0.1)", "B (1.0.0-alpha.1)": what the text outputs print.
const char* to_string(ManifestShape shape) noexcept;
// "none", "A", "B": the one spelling of every --json output.
const char* to_key(ManifestShape shape) noexcept;

// One <Formulation> (shape A) or a flat <Residual> (shape B).
struct Formulation {
  Unknown residual;          // the residual variable and its DAE-mode dependencies
  std::optional<int> index;  // the declared DAE index of this formulation
};

// One <Residual>: formulations in document order (original constraint first).
struct ResidualGroup {
  std::vector<Formulation> formulations;
  int line = 0;
};

struct Manifest {
  ManifestShape shape = ManifestShape::none;
  std::string root_element;  // local name as written
  std::string ls_name;       // fmi-ls-name attribute (shape A), may be empty
  std::string ls_version;    // fmi-ls-version (shape A) or version attribute, may be empty
  // The Boolean that switches the FMU from ODE to DAE mode; absent: DAE-only FMU.
  std::optional<ValueReference> enable_dae;
  std::string enable_dae_name;  // when given by name (enableDAEModeVariable variant)
  int enable_dae_line = 0;

  struct AlgebraicVariable {
    ValueReference value_reference = 0;
    int line = 0;
  };
  std::vector<AlgebraicVariable> algebraic_variables;

  // DAE-mode ModelStructure (overrides the core one in DAE mode).
  ModelStructure structure;
  std::vector<ResidualGroup> residuals;
  std::vector<Unknown> invariants;  // shape B

  bool present() const { return shape != ManifestShape::none; }
  std::size_t formulation_count() const;
};

}  // namespace lsdae

#endif  // LSDAE_MANIFEST_H
