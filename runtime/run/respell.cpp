// runtime/run/respell.cpp -- see respell.h.
#include "run/respell.h"

#include <cctype>
#include <optional>

#include "run/value_checks.h"

namespace lsdae::run {

namespace {

bool flag_char(char c) { return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '-'; }

// The value after a flag ("--max-step 1e-05"): the word up to a space, a
// comma, a semicolon or a closing bracket.
std::string value_word(const std::string& m, std::size_t from) {
  std::size_t end = from;
  while (end < m.size() && m[end] != ' ' && m[end] != ',' && m[end] != ';' && m[end] != ')' && m[end] != '\n') ++end;
  std::string word = m.substr(from, end - from);
  while (!word.empty() && (word.back() == '.' || word.back() == ':')) word.pop_back();  // the sentence's end
  return word;
}

// Whether `word` is a value of `s` (a number for a number, a word for a choice).
std::optional<std::string> value_of(const OptionSpec& s, const std::string& word) {
  if (word.empty()) return std::nullopt;
  if (s.kind == OptionKind::real || s.kind == OptionKind::count) {
    bool out_of_range = false;
    if (parse_real(word, out_of_range)) return word;
    return std::nullopt;
  }
  if (s.kind == OptionKind::choice) {
    for (const auto& c : s.choices)
      if (!c.word.empty() && c.word == word) return word;
    for (const auto& [alias, w] : s.aliases)
      if (alias == word) return w;
  }
  return std::nullopt;
}

}  // namespace

std::string respell(const std::string& m, Door door, const Respellings& extra) {
  if (door == Door::cli) return m;
  std::string out;
  out.reserve(m.size());
  bool quoted = false;  // inside `...`: the lsdae program's own command line
  for (std::size_t i = 0; i < m.size();) {
    const char c = m[i];
    if (c == '`') quoted = !quoted;
    const bool starts_flag = !quoted && c == '-' && i + 2 < m.size() && m[i + 1] == '-' &&
                             std::islower(static_cast<unsigned char>(m[i + 2])) &&
                             (i == 0 || !(std::isalnum(static_cast<unsigned char>(m[i - 1])) || m[i - 1] == '-'));
    if (!starts_flag) {
      out.push_back(c);
      ++i;
      continue;
    }
    std::size_t end = i + 2;
    while (end < m.size() && flag_char(m[end])) ++end;
    const std::string flag = m.substr(i, end - i);
    bool done = false;
    for (const auto& [word, spelling] : extra)
      if (word == flag) {
        out += spelling;
        i = end;
        done = true;
        break;
      }
    if (done) continue;
    const OptionSpec* spec = nullptr;
    for (const auto& s : option_table())
      if (s.cli == flag) spec = &s;
    if (spec == nullptr) {
      out += flag;
      i = end;
      continue;
    }
    if (spec->kind == OptionKind::flag) {
      out += spelled(*spec, door, spec->flag_default ? "false" : "true");
      i = end;
      continue;
    }
    if (end < m.size() && m[end] == ' ') {
      const std::string word = value_word(m, end + 1);
      if (auto value = value_of(*spec, word)) {
        out += spelled(*spec, door, *value);
        i = end + 1 + word.size();
        continue;
      }
    }
    out += spelled(*spec, door);
    i = end;
  }
  return out;
}

const Respellings& simulation_words(Door door) {
  static const Respellings none;
  static const Respellings c = {{"--set", "lsdae_set_text"},
                                {"--input", "lsdae_set_input_file"},
                                {"--output-vars", "output.output_vars"},
                                {"--stats", "output.statistics_file"},
                                {"--timeout", "lsdae_run_isolated's timeout"},
                                {"--call-timeout", "lsdae_run_isolated's call_timeout"}};
  static const Respellings python = {{"--set", "set()"},
                                     {"--input", "input"},
                                     {"--output-vars", "output"},
                                     {"--stats", "statistics_file"}};
  return door == Door::c ? c : door == Door::python ? python : none;
}

const Respellings& sweep_words(Door door) {
  static const Respellings none;
  static const Respellings c = {{"--set", "spec->sets"},
                                {"--metric", "spec->metrics"},
                                {"--stop-when", "spec->stop_when"},
                                {"--settle", "spec->settle_tol"},
                                {"--scenarios", "spec->scenarios_csv"},
                                {"--grid", "spec->grid"},
                                {"--monte-carlo", "spec->monte_carlo"},
                                {"--draw", "spec->draws"},
                                {"--seed", "spec->seed"},
                                {"--summary", "spec->summary_csv"},
                                {"--resume", "spec->resume"},
                                {"--jobs", "spec->jobs"},
                                {"--no-reuse", "spec->no_reuse"},
                                {"--input", "lsdae_set_input_file"}};
  static const Respellings python = {{"--set", "sets="},
                                     {"--metric", "metrics="},
                                     {"--stop-when", "stop_when="},
                                     {"--settle", "settle="},
                                     {"--no-reuse", "reuse=False"}};
  return door == Door::c ? c : door == Door::python ? python : none;
}

}  // namespace lsdae::run
