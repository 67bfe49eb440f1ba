// structure/report.h -- everything `lsdae info --structure` prints, as plain
// data, and its two renderings: a human text report and JSON (`--json`).
//
// make_report() copies what it needs out of the analysis (names, counts), so
// the report outlives the analysis. Name lists are capped at
// ReportOptions::max_names entries; the `*_count` fields hold the totals.
// BLT block sizes are listed one by one up to max_blocks_listed blocks and
// otherwise as a histogram (size → number of blocks), which is always given.
//
// The JSON document (schema version 1) has these keys, always present:
//   schema, model{form, states, algebraic, residual_groups, formulations,
//   invariants, nonzeros, dense_rows}, status, error, original_matching{rows,
//   unknowns, structural_rank, unmatched_residuals[], unmatched_residual_count,
//   unmatched_variables[], unmatched_variable_count},
//   structural_index (null when unknown), index_source ("formulations" |
//   "classic Pantelides" | null), differentiated[{residual, times,
//   formulations[] (the FMU's), synthesized[] (lsdae's own)}], classic_differentiations[{residual, times}],
//   blt{blocks, largest, block_sizes[] (null when not listed),
//   histogram[{size, count}]}, reduction{method, selection, dummy_derivatives[],
//   dummy_count, switched_off[] (constraints switched off in the mode at
//   the point: no row, no dummy), states_after[], states_after_count, rcond, rows,
//   differential, algebraic, projection_constraints[],
//   projection_constraint_count} (null before
//   reduction), coloring{ordering, colors, columns, lower_bound,
//   per_ordering[{ordering, colors}], varying{constant_entries, varying_columns,
//   colors, method ("exclusive" | "subtract"), exclusive_colors,
//   subtract_colors} (null when not classified)} (null when not coloured),
//   elimination{algebraic, eliminated, blocks, rejected_blocks,
//   unknowns_after, nonzeros_before, nonzeros_after, colors_after,
//   eliminated_names[], varying[{unknown, row}], varying_count, no_row[],
//   no_row_count, fill[], fill_count} (null when not planned:
//   structure/linear_elimination.h), warnings[], notes[].
// Cost: O(size of the output + groups).
#ifndef LSDAE_STRUCTURE_REPORT_H
#define LSDAE_STRUCTURE_REPORT_H

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "structure/analysis.h"
#include "structure/coloring.h"
#include "structure/dummy_derivatives.h"
#include "structure/index1_system.h"

namespace lsdae::structure {

struct ReportOptions {
  std::size_t max_names = 50;         // names kept per list (both renderings)
  std::size_t max_text_names = 12;    // names shown per list by to_text()
  std::size_t max_blocks_listed = 20;
};

struct ColoringSummary {
  std::string ordering;
  std::size_t colors = 0, columns = 0, lower_bound = 0;
  std::size_t entries = 0;  // nonzeros of the iteration matrix
  std::vector<std::pair<std::string, std::size_t>> per_ordering;  // every ordering measured
  // With the FMU's dependenciesKind (structure/coloring_varying.h): the
  // entries evaluated once and the colours left for the varying ones.
  struct Varying {
    std::size_t constant_entries = 0, varying_columns = 0, colors = 0;
    std::size_t exclusive_colors = 0, subtract_colors = 0;
    bool subtracts = false;
  };
  std::optional<Varying> varying;
};

// Summary of `chosen` on `iteration`; per_ordering: the colour count of every
// ordering measured (may be empty).
ColoringSummary summarize_coloring(const Pattern& iteration, const Coloring& chosen,
                                   const std::vector<std::pair<ColumnOrdering, std::size_t>>& per_ordering = {});

// What `--eliminate auto` would eliminate (structure/linear_elimination.h),
// and why the other algebraic unknowns stay.
struct EliminationSummary {
  std::size_t algebraic = 0;  // algebraic unknowns of the index-1 system
  std::size_t eliminated = 0, blocks = 0, rejected_blocks = 0;
  std::size_t unknowns_after = 0, nonzeros_before = 0, nonzeros_after = 0, colors_after = 0;
  std::vector<std::string> eliminated_names;
  std::vector<std::pair<std::string, std::string>> varying;  // (unknown, a row with a non-constant entry)
  std::vector<std::string> no_row, fill;
  std::size_t varying_count = 0, no_row_count = 0, fill_count = 0;
  std::string not_planned;  // why nothing was planned (e.g. "dummy derivatives"); empty when planned
};

struct StructureReport {
  struct Differentiation {
    std::string residual;
    std::size_t times = 0;
    std::vector<std::string> formulations;  // the FMU's, original first; empty for classic counts
    std::vector<std::string> synthesized;   // lsdae's own, after the FMU's (d/dt of the last)
  };
  struct Reduction {
    std::string method;     // to_string(ReductionMethod)
    std::string selection;  // "numeric", "structural" or "" (no dummy derivatives)
    // How the numeric values were computed ("directional derivatives",
    // "finite differences"); "not checked numerically" for a structural selection.
    std::string checked;
    // The structure-alone choice checked at the same point, e.g.
    // "structural choice der(x), der(vx): rcond 0 (singular), replaced"; empty when not checked.
    std::string structural_check;
    std::vector<std::string> dummy_derivatives;
    std::size_t dummy_count = 0;
    // Constraints switched off in the current mode (DummySelection::switched_off).
    std::vector<std::string> switched_off;
    std::vector<std::string> states_after;
    std::size_t states_after_count = 0;
    double rcond = 1.0;  // NaN when not numeric
    std::size_t rows = 0, differential = 0, algebraic = 0;
    std::string row_order;  // "matched" (order_rows_by_matching) or "declared"
    std::vector<std::string> projection_constraints;
    std::size_t projection_constraint_count = 0;
  };

  std::string form;
  std::size_t states = 0, algebraic = 0, residual_groups = 0, formulations = 0, invariants = 0;
  std::size_t nonzeros = 0, dense_rows = 0;
  std::string status;
  std::string error;
  MatchingSummary original;
  std::optional<std::size_t> structural_index;
  std::string index_source;  // "formulations", "classic Pantelides" or ""
  std::vector<Differentiation> differentiated;
  std::vector<Differentiation> classic_differentiations;
  std::size_t blt_blocks = 0, largest_block = 0;
  std::optional<std::vector<std::size_t>> block_sizes;
  std::vector<std::pair<std::size_t, std::size_t>> block_histogram;
  std::optional<Reduction> reduction;
  std::optional<ColoringSummary> coloring;
  std::optional<EliminationSummary> elimination;
  std::vector<std::string> warnings, notes;
  std::size_t max_text_names = 12;

  std::string to_text() const;
  std::string to_json() const;
};

// index1, selection, coloring may be null (not computed). `selection` is the
// dummy-derivative selection that built index1 (null for projection/none).
StructureReport make_report(const StructuralAnalysis& analysis, const Index1System* index1,
                            const DummySelection* selection, const ColoringSummary* coloring,
                            const ReportOptions& options = {});

}  // namespace lsdae::structure

#endif  // LSDAE_STRUCTURE_REPORT_H
