// structure/analysis.h -- the structural analysis of one DAE, end to end up to
// the dummy-derivative PLAN (everything that needs no numeric value):
//
//   1. build_system             the one system F(ẋ, x, z) = 0 (dae_system.h)
//   2. original matching        the original formulations over the unknowns
//                               (ẋ, z): structural rank and what is unmatched
//                               (for the report: a high-index DAE is singular here)
//   3. balance + extended matching   unbalanced or structurally singular → stop
//                               with the diagnostic naming residuals and variables
//   4. Pantelides               over the provided formulations (pantelides.h);
//                               missing formulations → stop with a diagnostic that
//                               also gives the classic Pantelides counts and index
//   5. BLT                      of the active (index-1) system (blt.h)
//   6. structural index         per group and overall; `index` attributes checked
//   7. dummy-derivative plan    constraints, candidates, Jacobian entries
// The numeric steps come after, with values from the runtime:
//   select_dummy_derivatives(a.system, a.dummy_plan, values)   (re-run to re-select)
//   make_dummy_derivative_system / make_projection_system       (index1_system.h)
//   iteration_pattern + color_columns                           (colouring)
// structure/pipeline.h runs all of it for `lsdae info --structure`.
//
// Errors: invalid input (an index out of range, ...) throws StructureError;
// a model that cannot be analysed does not throw: `status` and `error` say
// why (the report prints them) and require_ok() turns them into an exception
// for callers that need an index-1 system.
//
// Cost: linear in the pattern size up to the matching's √N factor:
// O(nnz · √(n + m)) time, O(nnz + n + m) memory (measured figures in
// docs/algorithms.md).
#ifndef LSDAE_STRUCTURE_ANALYSIS_H
#define LSDAE_STRUCTURE_ANALYSIS_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "structure/blt.h"
#include "structure/classic_pantelides.h"
#include "structure/dae_input.h"
#include "structure/dae_system.h"
#include "structure/dummy_derivatives.h"
#include "structure/pantelides.h"
#include "structure/structural_index.h"

namespace lsdae::structure {

enum class AnalysisStatus : std::uint8_t {
  ok,                    // index-1 system found (possibly after differentiation)
  unbalanced,            // residual groups != unknowns
  structurally_singular, // no differentiation can help
  missing_formulations,  // higher index, the FMU lacks derivative formulations
  runaway,               // Pantelides stopped by its guard
};
const char* to_string(AnalysisStatus status) noexcept;  // "ok", "unbalanced", ...

struct AnalysisOptions {
  bool invariants_as_constraints = true;  // dummy derivatives also enforce the invariants
  PantelidesOptions pantelides;
  std::size_t max_names = 10;             // names listed per diagnostic list
};

struct MatchingSummary {
  std::size_t rows = 0, unknowns = 0, rank = 0;
  std::vector<std::string> unmatched_rows;      // up to max_names names
  std::vector<std::string> unmatched_unknowns;  // up to max_names names
  std::size_t unmatched_row_count = 0, unmatched_unknown_count = 0;
};

struct DifferentiatedGroup {
  std::size_t group = 0;
  std::size_t times = 0;
};

struct StructuralAnalysis {
  DaeSystem system;
  AnalysisStatus status = AnalysisStatus::ok;
  std::string error;                   // the diagnostic when status != ok
  std::vector<std::string> warnings;   // dense rows, index attributes, unusable dummy plan
  std::vector<std::string> notes;      // unused formulations, substitutions, Schur closures

  MatchingSummary original;            // original formulations over (ẋ, z)
  MatchingSummary extended;            // Pantelides' precondition (state i ~ x_i or ẋ_i)
  PantelidesResult pantelides;         // status ok or missing_formulations
  ClassicPantelidesResult classic;     // run when formulations are missing
  bool classic_run = false;
  Blt blt;                             // of the active system (status ok)
  IndexEstimate index;                 // per group (status ok)
  // ok: from the formulations; missing_formulations: from classic Pantelides
  // (0 when that did not finish); otherwise 0.
  std::size_t structural_index = 0;
  DummyDerivativePlan dummy_plan;      // status ok

  bool ok() const { return status == AnalysisStatus::ok; }
  // Groups differentiated at least once (status ok), ascending.
  std::vector<DifferentiatedGroup> differentiated() const;
};

StructuralAnalysis analyze_structure(const DaeInput& input, const AnalysisOptions& options = {});
StructuralAnalysis analyze_structure(DaeSystem system, const AnalysisOptions& options = {});

// Throws StructureError(analysis.error) unless analysis.ok().
void require_ok(const StructuralAnalysis& analysis);

}  // namespace lsdae::structure

#endif  // LSDAE_STRUCTURE_ANALYSIS_H
