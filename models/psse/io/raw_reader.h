// models/psse/io/raw_reader.h -- reader for PSS/E power-flow raw data files,
// versions 32, 33 and 34.
//
// Format (PSS/E Program Operation Manual, "Power Flow Raw Data File
// Contents"; the free-format rules in psse_text.h):
//   line 1   IC, SBASE, REV, XFRRAT, NXFRAT, BASFRQ / comment
//   lines 2-3  two title lines
//   (v34)    system-wide data (GENERAL, GAUSS, NEWTON, ADJUST, TYSL, SOLVER,
//            RATING records) up to a line "0"
//   then the data sections in a fixed order, each ended by a line whose only
//   field is 0 (what follows the slash is a comment), the data ended by Q:
//     v32  bus, load, fixed shunt, generator, branch, transformer, area,
//          two-terminal dc, VSC dc, impedance correction, multi-terminal dc,
//          multi-section line, zone, inter-area transfer, owner, FACTS,
//          switched shunt, GNE
//     v33  the same, then induction machine
//     v34  bus, load, fixed shunt, generator, branch, system switching
//          device, transformer, then as v33, then substation
// Read: buses, loads, fixed and switched shunts (switched shunts at their
// present setting BINIT), generators, branches, two- and three-winding
// transformers (4 or 5 lines per record), v34 system switching devices (as
// branches of reactance X), v34 GENERAL's THRSHZ and PQBRAK. Every other
// section is skipped; RawCase::notes says so, with its record count (a
// section that holds records the network would need -- dc lines, FACTS,
// GNE, induction machines -- is noted as NOT MODELLED).
//
// Fields are taken by position in the version's layout; when the section
// carries a PSS/E column header ("@!  I,'ID', PG, ...", as PSS/E 34 writes
// it), each field is found by its name there instead.
//
// Contract: every malformed record throws TextError naming the file, the line
// and the field (psse_text.h): a field of the wrong type, a missing required
// field, a bus number no bus record defines, a duplicate bus, a version other
// than 32-34 (unless `version` forces one), a section not ended before the
// end of the file. Values are not judged here (network.h does).
// Cost: one pass, O(size).
#ifndef LSDAE_MODELS_PSSE_IO_RAW_READER_H
#define LSDAE_MODELS_PSSE_IO_RAW_READER_H

#include <string>
#include <string_view>

#include "psse/io/raw_case.h"

namespace lsdae::psse {

// `version` 0: the REV of the header; 32, 33 or 34: read as that version.
RawCase read_raw(const std::string& path, int version = 0);
RawCase parse_raw(std::string_view text, const std::string& path, int version = 0);

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_IO_RAW_READER_H
