// runtime/run/did_you_mean.cpp -- see did_you_mean.h.
#include "run/did_you_mean.h"

#include <algorithm>
#include <limits>
#include <numeric>

namespace lsdae::run {

std::size_t edit_distance(const std::string& a, const std::string& b) {
  // d[i][j]: distance between a[0, i) and b[0, j); three rows are kept for
  // the transposition term, which looks two rows back.
  const std::size_t n = b.size();
  std::vector<std::size_t> before(n + 1), previous(n + 1), current(n + 1);
  std::iota(previous.begin(), previous.end(), std::size_t{0});
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= n; ++j) {
      const std::size_t substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, substitution});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        current[j] = std::min(current[j], before[j - 2] + 1);
    }
    std::swap(before, previous);
    std::swap(previous, current);
  }
  return previous[n];
}

std::vector<std::string> closest_names(const std::string& word, const std::vector<std::string>& candidates) {
  if (word.empty()) return {};
  // A prefix of a longer name is what abbreviating users type: those first.
  std::vector<std::string> prefixed;
  for (const auto& c : candidates)
    if (c.size() > word.size() && c.compare(0, word.size(), word) == 0 && word.find_first_not_of('-') != std::string::npos)
      prefixed.push_back(c);
  if (!prefixed.empty()) return prefixed;
  const std::size_t allowed = std::max<std::size_t>(1, (word.size() + 2) / 3);
  std::size_t best = std::numeric_limits<std::size_t>::max();
  std::vector<std::string> out;
  for (const auto& c : candidates) {
    const std::size_t d = edit_distance(word, c);
    if (d > allowed || d > best) continue;
    if (d < best) {
      best = d;
      out.clear();
    }
    if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  }
  return out;
}

std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates) {
  const std::vector<std::string> names = closest_names(word, candidates);
  if (names.empty()) return {};
  auto quoted = [](const std::string& name) { return "`" + name + "`"; };
  if (names.size() == 1) return "did you mean " + quoted(names[0]) + "?";
  if (names.size() == 2) return "did you mean " + quoted(names[0]) + " or " + quoted(names[1]) + "?";
  std::string list;
  for (const auto& name : names) list += (list.empty() ? "" : ", ") + quoted(name);
  return "did you mean one of " + list + "?";
}

}  // namespace lsdae::run
