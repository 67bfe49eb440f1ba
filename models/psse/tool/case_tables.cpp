// models/psse/tool/case_tables.cpp -- see case_tables.h.
#include "psse/tool/case_tables.h"

#include <cstdio>
#include <map>

namespace lsdae::psse {

std::string branch_table(const Network& net) {
  std::string out = "  row  kind               from      to   third  ckt   status  line\n";
  char text[200];
  for (std::size_t r = 0; r < net.branch_records.size(); ++r) {
    const BranchRecord& b = net.branch_records[r];
    const char* kind = b.kind == BranchRecord::Kind::line               ? "line"
                       : b.kind == BranchRecord::Kind::switching_device ? "switching device"
                       : b.kind == BranchRecord::Kind::transformer      ? "transformer"
                                                                        : "3-w transformer";
    const std::string third = b.third == 0 ? "-" : std::to_string(b.third);
    std::snprintf(text, sizeof text, "%5zu  %-16s %6d  %6d  %6s  %-4s  %-6s  %d\n", r + 1, kind, b.from, b.to,
                  third.c_str(), ("'" + b.ckt + "'").c_str(), b.in_service ? "in" : "out", b.line);
    out += text;
  }
  return out;
}

std::string machine_table(const RawCase& rc, const Network& net, const std::vector<DyrRecord>& dyr) {
  std::map<std::pair<int, std::string>, std::string> models;
  for (const DyrRecord& d : dyr) {
    std::string& m = models[{d.bus, d.id}];
    m += (m.empty() ? "" : " ") + d.model;
  }
  std::string out = "  row     bus  id    status  MBASE (MVA)   PG (MW)  dynamic records  line\n";
  char text[400];
  for (std::size_t k = 0; k < rc.generators.size() && k < net.generators.size(); ++k) {
    const RawGenerator& g = rc.generators[k];
    auto it = models.find({g.bus, g.id});
    const std::string list = it == models.end() ? "-" : it->second;
    std::snprintf(text, sizeof text, "%5zu  %6d  %-4s  %-6s  %11.1f  %8.1f  %s  %d\n", k + 1, g.bus,
                  ("'" + g.id + "'").c_str(), net.generators[k].in_service ? "in" : "out", g.mbase, g.pg,
                  list.c_str(), g.line);
    out += text;
  }
  return out;
}

}  // namespace lsdae::psse
