// models/psse/tool/case_tables.h -- the tables by which an FMU's parameters
// name a branch or a generator (core/disturbances.h: trip[k].branch,
// gentrip[k].machine), as lsdae-grid --list-branches / --list-machines print
// them: one row per record of the .raw, in file order, 1-based.
//
//   row  kind         from    to  third  ckt  status  line
//     1  line        1001  1002      -  '1'  in        6255
//   row    bus  id   status  MBASE (MVA)  PG (MW)  dynamic records      line
//     1   1032  'C'  in           873.0    712.0  GENROU REGCA1 ...      389
#ifndef LSDAE_MODELS_PSSE_TOOL_CASE_TABLES_H
#define LSDAE_MODELS_PSSE_TOOL_CASE_TABLES_H

#include <string>
#include <vector>

#include "psse/io/dyr_record.h"
#include "psse/io/raw_case.h"
#include "psse/network/network.h"

namespace lsdae::psse {

std::string branch_table(const Network& net);
std::string machine_table(const RawCase& rc, const Network& net, const std::vector<DyrRecord>& dyr);

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_TOOL_CASE_TABLES_H
