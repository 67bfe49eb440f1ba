// models/psse/scenarios/con_file.h -- the contingencies of a PSS/E
// contingency description data file (.con) that the PsseGrid FMU can sweep.
//
// Format (PSS/E Program Operation Manual, "Contingency Description Data
// File"; the PSS/E "SUB/MON/CON File Descriptions"): free-format lines, the
// keywords in any case and abbreviable to their first four letters as PSS/E
// writes them only in full here; `COM` lines and text after `/*` are
// comments; a block
//     CONTINGENCY label
//       OPEN BRANCH FROM BUS 1001 TO BUS 1064 CIRCUIT 1
//     END
// per contingency, the file ended by a second END. Element lines read:
//   OPEN | TRIP | DISCONNECT  BRANCH | LINE  FROM BUS i TO BUS j [TO BUS k] [CIRCUIT | CKT c]
//   REMOVE | DISCONNECT | TRIP  MACHINE | UNIT  id FROM BUS i
// (circuit and machine ids default to 1, quotes optional). A contingency
// of branch outages (one, or several: N-k) or of one machine outage is kept;
// one that mixes them, has several machines, or has an element of another
// action (DISCONNECT BUS, SET, CHANGE, ALTER, INCREASE, MOVE, CLOSE, ...) or
// an automatic (SINGLE ... IN SUBSYSTEM) statement is skipped and listed in
// `skipped`, with its label and line. A malformed element
// line of a known action (a bus that is not a number, FROM without BUS) or
// a block not ended is Error(usage) naming the file and line.
// Cost: one pass, O(size).
#ifndef LSDAE_MODELS_PSSE_SCENARIOS_CON_FILE_H
#define LSDAE_MODELS_PSSE_SCENARIOS_CON_FILE_H

#include <filesystem>
#include <string>
#include <vector>

namespace lsdae::psse {

struct ConElement {
  enum class Kind { branch, machine } kind = Kind::branch;
  int line = 0;                     // in the file
  int from = 0, to = 0, third = 0;  // branch: FROM BUS, TO BUS (and a third winding's bus); machine: from = the bus
  std::string id = "1";            // the circuit or the machine id
};

struct ConContingency {
  std::string label;
  int line = 0;  // of CONTINGENCY
  std::vector<ConElement> elements;  // branches (one or more), or one machine
};

struct ConFile {
  std::vector<ConContingency> contingencies;
  std::vector<std::string> skipped;  // "P23 (line 40): \"DISCONNECT BUS 3\" (only branch and machine outages are swept)"
};

ConFile read_con(const std::filesystem::path& path);
ConFile parse_con(const std::string& text, const std::string& where);

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_SCENARIOS_CON_FILE_H
