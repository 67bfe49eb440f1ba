// runtime/capi/statistics.h -- lsdae_stats (lsdae/lsdae.h) from the run
// layer's one statistics record and field table (run/statistics.h).
//
// Every numeric statistic of the field table whose flat name is marked for
// C has a member of that name in lsdae_stats; c_members() lists the
// members with their names, and fill_stats fills each from the field of
// that name. A test (tests/runtime/capi) checks that the two lists are the
// same set, so the struct and the table cannot drift apart.
#ifndef LSDAE_CAPI_STATISTICS_H
#define LSDAE_CAPI_STATISTICS_H

#include <string>
#include <vector>

#include "lsdae/lsdae.h"
#include "run/statistics.h"

namespace lsdae::capi {

struct StatsMember {
  std::string name;  // the member of lsdae_stats, = the field's flat name
  void (*assign)(lsdae_stats& out, const run::FieldValue& value);
};
const std::vector<StatsMember>& c_members();

void fill_stats(const run::RunStatistics& stats, lsdae_stats& out);

}  // namespace lsdae::capi

#endif  // LSDAE_CAPI_STATISTICS_H
