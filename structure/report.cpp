// structure/report.cpp -- see report.h: make_report() and the text
// rendering; the JSON rendering is report_json.cpp.
#include "structure/report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "structure/messages.h"

namespace lsdae::structure {

ColoringSummary summarize_coloring(const Pattern& iteration, const Coloring& chosen,
                                   const std::vector<std::pair<ColumnOrdering, std::size_t>>& per_ordering) {
  ColoringSummary s;
  s.ordering = to_string(chosen.ordering);
  s.colors = chosen.colors;
  s.columns = iteration.cols();
  s.entries = iteration.nnz();
  s.lower_bound = iteration.max_row_nnz();
  for (const auto& [ordering, colors] : per_ordering) s.per_ordering.emplace_back(to_string(ordering), colors);
  return s;
}

namespace {

// Appends names[k] for k in `indices` up to max, returns the total.
template <class Name>
std::size_t capped(std::vector<std::string>& out, std::size_t total, std::size_t max, Name name) {
  for (std::size_t k = 0; k < total && k < max; ++k) out.push_back(name(k));
  return total;
}

std::string plural(std::size_t n, const char* singular, const char* plural_form) {
  return std::to_string(n) + " " + (n == 1 ? singular : plural_form);
}

// The first `shown` names and how many more there are.
std::string list_or_none(const std::vector<std::string>& names, std::size_t total, std::size_t shown) {
  if (total == 0) return "none";
  const std::vector<std::string> head(names.begin(), names.begin() + static_cast<std::ptrdiff_t>(std::min(shown, names.size())));
  return messages::quoted_list(head, total - head.size());
}

std::string report_real(double value) {
  if (std::isnan(value)) return "n/a";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3g", value);
  return buffer;
}

}  // namespace

StructureReport make_report(const StructuralAnalysis& a, const Index1System* index1,
                            const DummySelection* selection, const ColoringSummary* coloring,
                            const ReportOptions& options) {
  const DaeSystem& sys = a.system;
  StructureReport r;
  r.form = to_string(sys.form);
  r.states = sys.layout.states;
  r.algebraic = sys.layout.algebraic;
  r.residual_groups = sys.groups();
  r.formulations = sys.formulations.rows();
  r.invariants = sys.invariant_names.size();
  r.nonzeros = sys.formulations.nnz();
  r.dense_rows = sys.dense_rows();
  r.status = to_string(a.status);
  r.error = a.error;
  r.original = a.original;
  r.warnings = a.warnings;
  r.notes = a.notes;
  r.max_text_names = options.max_text_names;

  if (a.ok()) {
    r.structural_index = a.structural_index;
    r.index_source = "formulations";
    for (const DifferentiatedGroup& d : a.differentiated()) {
      StructureReport::Differentiation entry{sys.group_name(d.group), d.times, {}, {}};
      for (std::size_t k = 0; k <= d.times; ++k) {
        const std::size_t f = sys.formulation(d.group, k);
        (f < sys.synthesized.size() && sys.synthesized[f] ? entry.synthesized : entry.formulations)
            .push_back(sys.formulation_names[f]);
      }
      r.differentiated.push_back(std::move(entry));
    }
    r.blt_blocks = a.blt.blocks();
    r.largest_block = a.blt.largest_block();
    r.block_histogram = a.blt.size_histogram();
    if (r.blt_blocks <= options.max_blocks_listed) {
      r.block_sizes.emplace();
      for (std::size_t b = 0; b < r.blt_blocks; ++b) r.block_sizes->push_back(a.blt.block_size(b));
    }
  } else if (a.classic_run && a.classic.success) {
    r.structural_index = a.classic.structural_index;
    r.index_source = "classic Pantelides";
  }
  if (a.classic_run && a.classic.success)
    for (std::size_t g = 0; g < sys.groups(); ++g)
      if (a.classic.differentiations[g] > 0)
        r.classic_differentiations.push_back({sys.group_name(g), a.classic.differentiations[g], {}, {}});

  if (index1) {
    StructureReport::Reduction red;
    red.method = to_string(index1->method);
    if (selection && (!index1->dummy_states.empty() || !selection->switched_off.empty()))
      red.selection = selection->numeric ? "numeric" : "structural";
    if (selection)
      for (const EquationRef e : selection->switched_off) red.switched_off.push_back(sys.name(e));
    red.rcond = selection ? selection->rcond : 1.0;
    const ColumnLayout& layout = sys.layout;
    if (!red.selection.empty()) {
      red.checked = !selection->numeric ? "not checked numerically" : selection->values_source;
      if (selection->structural_check) {
        const auto& c = *selection->structural_check;
        std::string names;
        for (const std::size_t s : c.dummy_states)
          names += (names.empty() ? "" : ", ") + sys.column_names[layout.column(derivative_of(s))];
        if (!c.kept && !selection->switched_off.empty())
          red.structural_check = "structural choice " + (names.empty() ? std::string("(none)") : names) +
                                 ": does not apply (constraints switched off in this mode), replaced";
        else
          red.structural_check = "structural choice " + (names.empty() ? std::string("(none)") : names) + ": rcond " +
                                 report_real(c.rcond) + (c.rcond == 0.0 ? " (singular)" : "") +
                                 (c.kept ? ", kept" : ", replaced");
      }
    }
    red.dummy_count = capped(red.dummy_derivatives, index1->dummy_states.size(), options.max_names, [&](std::size_t k) {
      return sys.column_names[layout.column(derivative_of(index1->dummy_states[k]))];
    });
    red.states_after_count =
        capped(red.states_after, index1->differential_states.size(), options.max_names,
               [&](std::size_t k) { return sys.column_names[layout.column(state(index1->differential_states[k]))]; });
    red.rows = index1->rows.size();
    red.row_order = index1->rows_matched ? "matched" : "declared";
    for (const IdaUnknown& u : index1->unknowns)
      (u.kind == UnknownKind::differential ? red.differential : red.algebraic) += 1;
    red.projection_constraint_count =
        capped(red.projection_constraints, index1->projection_constraints.size(), options.max_names,
               [&](std::size_t k) { return sys.name(index1->projection_constraints[k]); });
    r.reduction = std::move(red);
  }
  if (coloring) r.coloring = *coloring;
  return r;
}

std::string StructureReport::to_text() const {
  std::string t;
  auto line = [&](const std::string& s) { t += s + "\n"; };
  const std::size_t shown = max_text_names;
  line("DAE: " + form + ", " + plural(states, "state", "states") + ", " +
       plural(algebraic, "algebraic variable", "algebraic variables") + ", " +
       plural(residual_groups, "residual group", "residual groups") + " (" +
       plural(formulations, "formulation", "formulations") + "), " + plural(invariants, "invariant", "invariants") +
       ", " + plural(nonzeros, "dependency nonzero", "dependency nonzeros") +
       (dense_rows > 0 ? ", " + plural(dense_rows, "dense row", "dense rows") : ""));
  line("status: " + status);
  if (!error.empty()) line("error: " + error);
  line("matching of the original formulations over the unknowns (derivatives, algebraic variables): " + plural(original.rows, "residual", "residuals") +
       ", " + plural(original.unknowns, "unknown", "unknowns") + ", structural rank " +
       std::to_string(original.rank));
  if (original.unmatched_row_count > 0)
    line("  unmatched residuals: " + list_or_none(original.unmatched_rows, original.unmatched_row_count, shown));
  if (original.unmatched_unknown_count > 0)
    line("  unmatched variables: " + list_or_none(original.unmatched_unknowns, original.unmatched_unknown_count, shown));
  line("structural index: " + (structural_index ? std::to_string(*structural_index) : std::string("unknown")) +
       (index_source == "classic Pantelides" ? " (classic Pantelides)" : ""));
  if (!differentiated.empty()) {
    line("differentiated residuals (FMU formulations):");
    bool own = false;
    for (const auto& d : differentiated) {
      std::string chain;
      for (const auto& f : d.formulations) chain += (chain.empty() ? "" : " -> ") + messages::quoted(f);
      if (!d.synthesized.empty()) chain += " -> (lsdae's own)", own = true;
      line("  " + messages::quoted(d.residual) + " " + messages::times(d.times) + ": " + chain);
    }
    if (own) {
      line("lsdae's own formulations (synthesized by central differences of the FMU's residual; not FMU variables):");
      for (const auto& d : differentiated) {
        std::string previous = d.formulations.empty() ? d.residual : d.formulations.back();
        for (const auto& f : d.synthesized) {
          line("  " + messages::quoted(f) + " of " + messages::quoted(previous));
          previous = f;
        }
      }
    }
  } else if (status == "ok") {
    line("differentiated residuals: none");
  }
  if (!classic_differentiations.empty()) {
    std::string list;
    for (const auto& d : classic_differentiations)
      list += (list.empty() ? "" : ", ") + messages::quoted(d.residual) + " " + messages::times(d.times);
    line("a complete reduction (classic Pantelides) differentiates: " + list);
  }
  if (status == "ok") {
    line("BLT of the index-1 system: " + plural(blt_blocks, "block", "blocks") + ", largest " +
         std::to_string(largest_block));
    if (block_sizes) {
      std::string sizes;
      for (const std::size_t s : *block_sizes) sizes += (sizes.empty() ? "" : " ") + std::to_string(s);
      line("  block sizes: " + sizes);
    } else {
      std::string hist;
      for (const auto& [size, count] : block_histogram)
        hist += (hist.empty() ? "" : ", ") + std::to_string(count) + " x " + std::to_string(size);
      line("  block sizes (count x size): " + hist);
    }
  }
  if (reduction) {
    const auto& red = *reduction;
    std::string head = "index reduction: " + red.method;
    if (!red.selection.empty())
      head += " (" + red.selection + " selection" + (red.selection == "numeric" ? ", rcond " + report_real(red.rcond) : "") +
              (red.checked.empty() ? "" : "; " + red.checked) + ")";
    line(head);
    if (!red.structural_check.empty()) line("  checked at the start point: " + red.structural_check);
    if (red.method == to_string(ReductionMethod::dummy_derivatives))
      line("  dummy derivatives (" + std::to_string(red.dummy_count) + "): " +
           list_or_none(red.dummy_derivatives, red.dummy_count, shown));
    if (!red.switched_off.empty()) {
      std::string names;
      for (const auto& n : red.switched_off) names += (names.empty() ? "\"" : ", \"") + n + "\"";
      line("  switched off at this point (in this mode: no row, no dummy derivative): " + names);
    }
    line("  states after reduction (" + std::to_string(red.states_after_count) + "): " +
         list_or_none(red.states_after, red.states_after_count, shown));
    line("  index-1 system: " + plural(red.rows, "row", "rows") + " (" + red.row_order + " order), " +
         std::to_string(red.differential) +
         " differential + " + std::to_string(red.algebraic) + " algebraic unknowns");
    if (red.method != to_string(ReductionMethod::none))
      line("  projection constraints (" + std::to_string(red.projection_constraint_count) + "): " +
           list_or_none(red.projection_constraints, red.projection_constraint_count, shown));
  }
  if (coloring) {
    std::string head = "Jacobian colouring (" + coloring->ordering + "): " +
                       plural(coloring->colors, "colour", "colours") + " for " +
                       plural(coloring->columns, "column", "columns") + " (lower bound " +
                       std::to_string(coloring->lower_bound) + ")";
    if (!coloring->per_ordering.empty()) {
      std::string each;
      for (const auto& [name, colors] : coloring->per_ordering)
        each += (each.empty() ? "" : ", ") + name + " " + std::to_string(colors);
      head += "; " + each;
    }
    line(head);
    if (coloring->varying) {
      const auto& v = *coloring->varying;
      line("  constant entries (dependenciesKind constant, fixed, tunable, discrete): " +
           std::to_string(v.constant_entries) + " of " + std::to_string(coloring->entries) +
           ", evaluated once; the varying entries need " + plural(v.colors, "colour", "colours") + " for " +
           plural(v.varying_columns, "column", "columns") + " (" +
           (v.subtracts ? "known constants subtracted; " + std::to_string(v.exclusive_colors) + " without subtracting"
                        : "no row shared with a constant entry; " + std::to_string(v.subtract_colors) +
                              " when subtracting") +
           ")");
    }
  }
  if (elimination) {
    const auto& e = *elimination;
    if (!e.not_planned.empty()) {
      line("Linear elimination (--eliminate auto): not planned: " + e.not_planned);
    } else {
      line("Linear elimination (--eliminate auto): " + std::to_string(e.eliminated) + " of " +
           plural(e.algebraic, "algebraic unknown", "algebraic unknowns") + " in " + plural(e.blocks, "block", "blocks") +
           (e.eliminated > 0 ? "; IDA integrates " + std::to_string(e.unknowns_after) + " unknowns, Jacobian " +
                                   std::to_string(e.nonzeros_before) + " → " + std::to_string(e.nonzeros_after) +
                                   " nonzeros, " + plural(e.colors_after, "colour", "colours")
                             : std::string()));
      if (e.eliminated > 0) line("  eliminated: " + list_or_none(e.eliminated_names, e.eliminated, shown));
      if (e.varying_count > 0) {
        std::string each;
        std::size_t listed = 0;
        for (const auto& [unknown, row] : e.varying) {
          if (listed == shown) break;
          each += (listed++ > 0 ? ", \"" : "\"") + unknown + "\" (row \"" + row + "\")";
        }
        if (e.varying_count > listed) each += " … and " + std::to_string(e.varying_count - listed) + " more";
        line("  kept, a row depends on it through an entry not declared constant or fixed: " + each);
      }
      if (e.no_row_count > 0)
        line("  kept, no row left to solve it from: " + list_or_none(e.no_row, e.no_row_count, shown));
      if (e.fill_count > 0)
        line("  kept, " + plural(e.rejected_blocks, "block", "blocks") +
             " the cost model refused (eliminating would add Jacobian nonzeros): " +
             list_or_none(e.fill, e.fill_count, shown));
    }
  }
  if (!warnings.empty()) {
    line("warnings:");
    for (const auto& w : warnings) line("  " + w);
  }
  if (!notes.empty()) {
    line("notes:");
    for (const auto& n : notes) line("  " + n);
  }
  return t;
}

}  // namespace lsdae::structure
