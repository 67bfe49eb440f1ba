// models/psse/scenarios/branch_match.cpp -- see branch_match.h.
#include "psse/scenarios/branch_match.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <unordered_set>
#include <utility>

namespace lsdae::psse {

namespace {

std::pair<std::int64_t, std::int64_t> pair_of(std::int64_t a, std::int64_t b) { return {std::min(a, b), std::max(a, b)}; }

std::string trimmed(const std::string& s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b])) != 0) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1])) != 0) --e;
  return s.substr(b, e - b);
}

}  // namespace

bool same_psse_id(const std::string& a, const std::string& b) {
  const std::string x = trimmed(a), y = trimmed(b);
  if (x.size() != y.size()) return false;
  for (std::size_t i = 0; i < x.size(); ++i)
    if (std::toupper(static_cast<unsigned char>(x[i])) != std::toupper(static_cast<unsigned char>(y[i]))) return false;
  return true;
}

std::vector<BranchRow> branch_rows(const RawCase& raw) {
  std::unordered_set<int> live;
  for (const RawBus& b : raw.buses)
    if (b.type != 4) live.insert(b.number);
  auto up = [&](int bus) { return bus == 0 || live.count(bus) != 0; };
  std::vector<BranchRow> rows;
  for (const RawBranch& b : raw.branches)
    rows.push_back({b.from, b.to, 0, b.ckt, false, b.status != 0 && up(b.from) && up(b.to), b.line});
  for (const RawTransformer& t : raw.transformers)
    rows.push_back({t.i, t.j, t.k, t.ckt, true, t.status != 0 && up(t.i) && up(t.j) && up(t.k), t.line});
  return rows;
}

std::vector<RowMatch> match_matpower(const std::vector<powergrid::BranchEnds>& ends, const std::vector<BranchRow>& rows) {
  // The PSS/E two-terminal branches between each pair of buses, in file order.
  std::map<std::pair<std::int64_t, std::int64_t>, std::vector<std::size_t>> psse;
  for (std::size_t r = 0; r < rows.size(); ++r)
    if (rows[r].third == 0) psse[pair_of(rows[r].from, rows[r].to)].push_back(r);
  std::map<std::pair<std::int64_t, std::int64_t>, std::size_t> matpower_count, seen;
  for (const auto& e : ends) ++matpower_count[pair_of(e.from, e.to)];
  std::vector<RowMatch> out;
  for (std::size_t m = 0; m < ends.size(); ++m) {
    const auto key = pair_of(ends[m].from, ends[m].to);
    const std::size_t k = ++seen[key];  // this row's circuit: its place among the parallel rows
    const std::string between = std::to_string(ends[m].from) + "-" + std::to_string(ends[m].to);
    RowMatch match;
    auto it = psse.find(key);
    if (it == psse.end()) {
      match.note = "branch row " + std::to_string(m + 1) + " (" + between + ") matches no branch of the PSS/E case";
      out.push_back(std::move(match));
      continue;
    }
    std::vector<std::size_t> with_id;
    for (std::size_t r : it->second)
      if (same_psse_id(rows[r].ckt, std::to_string(k))) with_id.push_back(r);
    if (with_id.size() == 1) {
      match.row = with_id.front();
    } else if (with_id.empty() && it->second.size() == matpower_count[key]) {
      match.row = it->second[k - 1];
    } else {
      match.note = "branch row " + std::to_string(m + 1) + " (" + between + ", circuit " + std::to_string(k) +
                   " of " + std::to_string(matpower_count[key]) + ") is ambiguous: the PSS/E case has " +
                   std::to_string(it->second.size()) + " branches between these buses, " +
                   std::to_string(with_id.size()) + " of circuit " + std::to_string(k);
    }
    out.push_back(std::move(match));
  }
  return out;
}

std::vector<std::size_t> find_branch(const std::vector<BranchRow>& rows, int from, int to, int third, const std::string& ckt) {
  std::vector<int> want{from, to, third};
  std::sort(want.begin(), want.end());
  std::vector<std::size_t> out;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    std::vector<int> have{rows[r].from, rows[r].to, rows[r].third};
    std::sort(have.begin(), have.end());
    if (have == want && same_psse_id(rows[r].ckt, ckt)) out.push_back(r);
  }
  return out;
}

}  // namespace lsdae::psse
