// models/psse/scenarios/branch_match.h -- which branch of a PSS/E case a
// contingency names: the rows the PsseGrid FMU's trip[k].branch takes.
//
//   branch_rows(raw)   one row per branch record of the .raw in the order
//       of Network::branch_records (network.h; lsdae-grid --list-branches):
//       the non-transformer branches (and v34 switching devices) in file
//       order, then the transformers. In service: status not 0 (a
//       three-winding transformer: not 0, all windings) and every bus in the
//       case and not isolated (IDE 4).
//   match_matpower(ends, rows)  each row of a MATPOWER case's mpc.branch
//       (powergrid/scenarios/matpower_changes.h read_branch_ends) to its
//       PSS/E branch, by from-bus, to-bus and circuit. MATPOWER has no
//       circuit: as PSS/E's PSSECON2CHGTAB and psse2mpc number them, the
//       circuit of a row is its place k (1, 2, ...) among the rows that join
//       the same two buses, in row order. The PSS/E branch is the one joining
//       those buses (either direction) whose circuit id is k; when none has
//       id k, the k-th of them in file order if both files have as many
//       between the two buses. A row no PSS/E branch joins matches nothing
//       (a MATPOWER-only bus: a three-winding transformer's star point);
//       a row with several candidates of id k, or none of id k and a
//       different count, is ambiguous. Both are kept as notes, not guessed.
//   find_branch(rows, from, to, third, ckt)  a .con element's branch: ends
//       in either direction (a three-winding transformer: the three buses in
//       any order), the circuit without regard to case.
// Cost: O(rows) with a map of bus pairs.
#ifndef LSDAE_MODELS_PSSE_SCENARIOS_BRANCH_MATCH_H
#define LSDAE_MODELS_PSSE_SCENARIOS_BRANCH_MATCH_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "powergrid/scenarios/matpower_changes.h"
#include "psse/io/raw_case.h"

namespace lsdae::psse {

struct BranchRow {
  int from = 0, to = 0, third = 0;
  std::string ckt;
  bool transformer = false, in_service = false;
  int line = 0;  // in the .raw
};
std::vector<BranchRow> branch_rows(const RawCase& raw);

struct RowMatch {
  std::optional<std::size_t> row;  // 0-based row of branch_rows; nullopt: see note
  std::string note;                // why not matched: "matches no branch ..." / "ambiguous ..."
};
std::vector<RowMatch> match_matpower(const std::vector<powergrid::BranchEnds>& ends, const std::vector<BranchRow>& rows);

// The 0-based rows that fit (none, one, or several when the case repeats an id).
std::vector<std::size_t> find_branch(const std::vector<BranchRow>& rows, int from, int to, int third, const std::string& ckt);

// Circuit and machine ids as PSS/E compares them: blanks trimmed, without regard to case.
bool same_psse_id(const std::string& a, const std::string& b);

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_SCENARIOS_BRANCH_MATCH_H
