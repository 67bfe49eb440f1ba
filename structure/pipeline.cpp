// structure/pipeline.cpp -- see pipeline.h.
#include "structure/pipeline.h"

#include "structure/messages.h"

namespace lsdae::structure {

StructureOutcome run_structure(const DaeInput& input, const JacobianCallback* values,
                               const PipelineOptions& options) {
  StructureOutcome out;
  out.analysis = analyze_structure(input, options.analysis);
  StructuralAnalysis& a = out.analysis;
  const ColoringSummary* summary = nullptr;
  ColoringSummary coloring_summary;
  if (a.ok()) {
    const bool dummies = options.method != ReductionMethod::projection && a.dummy_plan.error.empty();
    if (dummies) {
      out.selection = values ? select_dummy_derivatives(a.system, a.dummy_plan, *values, options.selection)
                             : select_dummy_derivatives_structurally(a.system, a.dummy_plan);
      if (options.review_selection) options.review_selection(*out.selection);
      if (out.selection->success)
        out.index1 = make_dummy_derivative_system(a.system, a.pantelides, a.dummy_plan, *out.selection);
      else
        a.warnings.push_back(messages::dummy_fallback_to_projection(out.selection->error));
    }
    if (!out.index1) out.index1 = make_projection_system(a.system, a.pantelides);
    if (options.match_rows) order_rows_by_matching(a.system, *out.index1);
    out.iteration = iteration_pattern(a.system, *out.index1);
    std::vector<std::pair<ColumnOrdering, std::size_t>> counts;
    if (options.best_ordering) {
      std::vector<Coloring> all = color_columns_all(out.iteration);
      std::size_t best = 0;
      while (all_orderings[best] != default_ordering) ++best;
      for (std::size_t k = 0; k < all.size(); ++k) {
        counts.emplace_back(all_orderings[k], all[k].colors);
        if (k != best && all[k].colors < all[best].colors) best = k;
      }
      out.coloring = std::move(all[best]);
    } else {
      out.coloring = color_columns(out.iteration, options.ordering);
    }
    coloring_summary = summarize_coloring(out.iteration, *out.coloring, counts);
    summary = &coloring_summary;
  }
  const DummySelection* selection =
      out.index1 && out.index1->method == ReductionMethod::dummy_derivatives && out.selection ? &*out.selection
                                                                                             : nullptr;
  out.report = make_report(a, out.index1 ? &*out.index1 : nullptr, selection, summary, options.report);
  return out;
}

Reselection reselect(const StructuralAnalysis& analysis, const JacobianCallback& values,
                     const SelectionOptions& options, bool match_rows) {
  require_ok(analysis);
  Reselection out;
  out.selection = select_dummy_derivatives(analysis.system, analysis.dummy_plan, values, options);
  if (out.selection.success) out.index1 = index1_for_selection(analysis, out.selection, match_rows);
  return out;
}

Index1System index1_for_selection(const StructuralAnalysis& analysis, const DummySelection& selection,
                                  bool match_rows) {
  Index1System index1 =
      make_dummy_derivative_system(analysis.system, analysis.pantelides, analysis.dummy_plan, selection);
  if (match_rows) order_rows_by_matching(analysis.system, index1);
  return index1;
}

}  // namespace lsdae::structure
