// structure/pipeline.h -- the whole structural pass in one call: analysis,
// dummy-derivative selection (or projection), index-1 system, iteration
// pattern, colouring and the report. This is what `lsdae info --structure`
// runs, and what the simulator runs before IDA starts.
//
//   const DaeInput input = ...;                    // from the parsed manifest
//   JacobianCallback values = ...;                 // FMU directional derivatives at the start point
//   StructureOutcome s = run_structure(input, &values);
//   std::cout << (json ? s.report.to_json() : s.report.to_text());
//   if (!s.index1) return exit_code_for(s.analysis.error);
//
// `values` may be null: the dummy derivatives are then chosen from the
// structure alone (select_dummy_derivatives_structurally) and the report says
// "structural selection". When the numeric selection fails (singular
// constraints at this point) the projection method is used instead and a
// warning says why. `index1` is empty only when the analysis failed.
//
// Cost: the analysis (analysis.h) + one callback + the colouring
// (O(Σ k_r²), coloring.h; × 4 with best_ordering).
#ifndef LSDAE_STRUCTURE_PIPELINE_H
#define LSDAE_STRUCTURE_PIPELINE_H

#include <functional>
#include <optional>

#include "structure/analysis.h"
#include "structure/coloring.h"
#include "structure/dummy_derivatives.h"
#include "structure/index1_system.h"
#include "structure/iteration_pattern.h"
#include "structure/report.h"

namespace lsdae::structure {

struct PipelineOptions {
  AnalysisOptions analysis;
  // dummy_derivatives (default) or projection; none is taken as dummy_derivatives.
  ReductionMethod method = ReductionMethod::dummy_derivatives;
  SelectionOptions selection;
  // Colour with every ordering, keep the fewest colours (ties: default_ordering)
  // and report all counts; false: colour once with `ordering`.
  bool best_ordering = true;
  ColumnOrdering ordering = default_ordering;
  // Permute the index-1 rows onto a matching (order_rows_by_matching): a
  // zero-free diagonal for KLU. false keeps the declared order.
  bool match_rows = true;
  ReportOptions report;
  // Called with the selection before the index-1 system and the report are
  // made (when a selection was attempted): the caller that supplied the
  // values records where they came from, or declares a selection it will not
  // use (success = false and an error: the projection fallback follows).
  std::function<void(DummySelection&)> review_selection;
};

struct StructureOutcome {
  StructuralAnalysis analysis;
  std::optional<DummySelection> selection;  // when dummy derivatives were attempted
  std::optional<Index1System> index1;
  Pattern iteration;                         // iteration-matrix pattern of index1
  std::optional<Coloring> coloring;
  StructureReport report;
};

StructureOutcome run_structure(const DaeInput& input, const JacobianCallback* values,
                               const PipelineOptions& options = {});

// Re-selection at a new point, for the simulator when the current selection's
// rcond has degraded: one callback and the selection on the existing plan;
// `index1` is empty when the selection failed (`selection.error` says why).
// The iteration pattern of the new system may differ (other dummies): colour
// it again. Precondition: analysis.ok().
struct Reselection {
  DummySelection selection;
  std::optional<Index1System> index1;
};
Reselection reselect(const StructuralAnalysis& analysis, const JacobianCallback& values,
                     const SelectionOptions& options = {}, bool match_rows = true);

// The index-1 system of a successful selection on `analysis`
// (make_dummy_derivative_system), its rows matched unless `match_rows` is
// false: what reselect() builds, for a caller that selected on its own (the
// simulator compares the new selection with the current one first).
// Precondition: analysis.ok() and selection.success.
Index1System index1_for_selection(const StructuralAnalysis& analysis, const DummySelection& selection,
                                  bool match_rows = true);

}  // namespace lsdae::structure

#endif  // LSDAE_STRUCTURE_PIPELINE_H
