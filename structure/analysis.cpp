// structure/analysis.cpp -- see analysis.h.
#include "structure/analysis.h"

#include <algorithm>

#include "structure/error.h"
#include "structure/matching.h"
#include "structure/messages.h"

namespace lsdae::structure {

const char* to_string(AnalysisStatus status) noexcept {
  switch (status) {
    case AnalysisStatus::ok: return "ok";
    case AnalysisStatus::unbalanced: return "unbalanced";
    case AnalysisStatus::structurally_singular: return "structurally singular";
    case AnalysisStatus::missing_formulations: return "missing formulations";
    case AnalysisStatus::runaway: return "runaway";
  }
  return "?";
}

std::vector<DifferentiatedGroup> StructuralAnalysis::differentiated() const {
  std::vector<DifferentiatedGroup> out;
  if (!ok()) return out;
  for (std::size_t g = 0; g < pantelides.level.size(); ++g)
    if (pantelides.level[g] > 0) out.push_back({g, pantelides.level[g]});
  return out;
}

void require_ok(const StructuralAnalysis& analysis) {
  if (!analysis.ok()) throw StructureError(analysis.error);
}

namespace {

MatchingSummary summarize(const Matching& m, const std::function<std::string(std::size_t)>& row_name,
                          const std::function<std::string(std::size_t)>& column_name, std::size_t max_names) {
  MatchingSummary s;
  s.rows = m.row_to_column.size();
  s.unknowns = m.column_to_row.size();
  s.rank = m.size;
  for (const std::size_t r : m.unmatched_rows()) {
    ++s.unmatched_row_count;
    if (s.unmatched_rows.size() < max_names) s.unmatched_rows.push_back(row_name(r));
  }
  for (const std::size_t c : m.unmatched_columns()) {
    ++s.unmatched_unknown_count;
    if (s.unmatched_unknowns.size() < max_names) s.unmatched_unknowns.push_back(column_name(c));
  }
  return s;
}

std::string singular_message(const MatchingSummary& s) {
  return messages::structurally_singular(s.rows, s.unknowns, s.rank, s.unmatched_rows, s.unmatched_unknowns,
                                         s.unmatched_row_count, s.unmatched_unknown_count);
}

void missing_formulations(StructuralAnalysis& a, const AnalysisOptions& options) {
  const DaeSystem& sys = a.system;
  a.status = AnalysisStatus::missing_formulations;
  a.classic = classic_pantelides(sys);
  a.classic_run = true;
  a.structural_index = a.classic.success ? a.classic.structural_index : 0;
  std::vector<messages::MissingDerivative> missing;
  for (const MissingFormulation& mf : a.pantelides.missing) {
    const std::size_t last = sys.group_ptr[mf.group + 1] - 1;
    missing.push_back({sys.group_name(mf.group), mf.order_needed, sys.formulation_count(mf.group),
                       sys.formulation_names[last], a.pantelides.unknowns.row(last).empty(),
                       last < sys.not_differentiable.size() ? sys.not_differentiable[last] : std::string()});
  }
  std::vector<messages::DifferentiationCount> classic;
  std::size_t more = 0;
  if (a.classic.success)
    for (std::size_t g = 0; g < sys.groups(); ++g) {
      if (a.classic.differentiations[g] == 0) continue;
      if (classic.size() < options.max_names) classic.push_back({sys.group_name(g), a.classic.differentiations[g]});
      else ++more;
    }
  a.error = messages::missing_derivatives(a.structural_index, missing, classic, more);
  if (a.classic.success) {
    // The declared index of each original formulation against the complete reduction.
    for (std::size_t g = 0; g < sys.groups(); ++g) {
      const auto& declared = sys.declared_index[sys.group_ptr[g]];
      if (declared && (*declared < 0 || static_cast<std::size_t>(*declared) != a.classic.group_index[g]))
        a.warnings.push_back(messages::declared_index_disagrees(sys.group_name(g), *declared, a.classic.group_index[g]));
    }
  }
}

}  // namespace

StructuralAnalysis analyze_structure(const DaeInput& input, const AnalysisOptions& options) {
  return analyze_structure(build_system(input), options);
}

StructuralAnalysis analyze_structure(DaeSystem system, const AnalysisOptions& options) {
  StructuralAnalysis a;
  a.system = std::move(system);
  const DaeSystem& sys = a.system;
  const std::size_t n = sys.layout.states;
  a.warnings = sys.warnings;
  a.notes = sys.notes;
  auto group_name = [&](std::size_t g) { return sys.group_name(g); };
  auto unknown_name = [&](std::size_t u) { return sys.unknown_name(u); };

  // 2. The original formulations over (ẋ, z).
  a.pantelides.unknowns = unknown_incidence(sys);
  const std::vector<std::size_t> originals(sys.group_ptr.begin(), sys.group_ptr.end() - 1);
  a.original = summarize(maximum_matching(BipartiteView(a.pantelides.unknowns, originals)), group_name,
                         unknown_name, options.max_names);

  // 3. Balance and structural regularity.
  a.extended = summarize(extended_matching(sys), group_name, unknown_name, options.max_names);
  if (sys.groups() != sys.layout.unknowns()) {
    a.status = AnalysisStatus::unbalanced;
    a.error = singular_message(a.extended);
    return a;
  }
  if (a.extended.rank != sys.groups()) {
    a.status = AnalysisStatus::structurally_singular;
    a.error = singular_message(a.extended);
    return a;
  }

  // 4. Pantelides over the provided formulations.
  a.pantelides = pantelides(sys, options.pantelides);
  if (!a.pantelides.runaway.empty()) {
    a.status = AnalysisStatus::runaway;
    a.error = a.pantelides.runaway;
    return a;
  }
  if (!a.pantelides.success) {
    missing_formulations(a, options);
    return a;
  }

  // 5.–6. BLT of the active system and the structural index.
  const BipartiteView active = a.pantelides.active_view();
  a.blt = block_lower_triangular(active, a.pantelides.matching);
  std::vector<bool> algebraic_column(sys.layout.unknowns(), false);
  for (std::size_t u = n; u < algebraic_column.size(); ++u) algebraic_column[u] = true;
  a.index = estimate_index(active, a.pantelides.matching, a.blt, a.pantelides.level, algebraic_column);
  a.structural_index = a.index.structural_index;
  IndexCheck check = check_declared_indices(sys, a.pantelides.level, a.index.group_index);
  a.warnings.insert(a.warnings.end(), check.warnings.begin(), check.warnings.end());
  a.notes.insert(a.notes.end(), check.notes.begin(), check.notes.end());

  // 7. The dummy-derivative plan.
  a.dummy_plan = plan_dummy_derivatives(sys, a.pantelides, options.invariants_as_constraints);
  a.notes.insert(a.notes.end(), a.dummy_plan.notes.begin(), a.dummy_plan.notes.end());
  if (!a.dummy_plan.error.empty()) a.warnings.push_back(messages::dummy_plan_unusable(a.dummy_plan.error));
  return a;
}

}  // namespace lsdae::structure
