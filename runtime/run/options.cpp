// runtime/run/options.cpp -- the options table's rules (options.h): reading a
// given value for its kind, the messages in each front door's spelling, and
// what each option sets.
#include "run/options.h"

#include <charconv>
#include <cmath>
#include <optional>
#include <set>

#include "lsdae/error.h"
#include "run/did_you_mean.h"
#include "run/value_checks.h"

namespace lsdae::run {

namespace {

// An option's value once read: the field of its kind.
struct Parsed {
  double real = 0;
  std::int64_t count = 0;
  std::string word;  // choice (""; the C default), text
  bool flag = false;
  std::vector<std::string> list;  // choice_list
};

std::string shortest(double value) {
  char text[32];
  auto [end, ec] = std::to_chars(text, text + sizeof text, value);
  (void)ec;
  return std::string(text, end);
}

std::string joined(const std::vector<std::string>& words, const std::string& separator = ", ") {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : separator) + w;
  return out;
}

// A C enum field holds integers (its words have C names); klu_ordering and
// the other text fields hold the word itself.
bool c_enum(const OptionSpec& s) {
  for (const auto& c : s.choices)
    if (!c.c_name.empty()) return true;
  return false;
}

// The words as a door lists them: C's enum names ("0 (off)" for an int field).
std::string listed_words(const OptionSpec& s, Door door) {
  std::vector<std::string> shown;
  for (const auto& c : s.choices) {
    if (door == Door::c && c_enum(s)) {
      const bool number = !c.c_name.empty() && (c.c_name[0] == '-' || std::isdigit(static_cast<unsigned char>(c.c_name[0])));
      shown.push_back(number ? c.c_name + " (" + c.word + ")" : c.c_name);
    } else if (!c.word.empty()) {
      shown.push_back(c.word);
    }
  }
  return joined(shown);
}

std::string rendered(const OptionValue& value, Door door) {
  if (const auto* text = std::get_if<std::string>(&value)) return door == Door::cli ? quoted_value(*text) : "\"" + *text + "\"";
  if (const auto* real = std::get_if<double>(&value)) return shortest(*real);
  if (const auto* count = std::get_if<std::int64_t>(&value)) return std::to_string(*count);
  if (const auto* flag = std::get_if<bool>(&value))
    return door == Door::python ? (*flag ? "True" : "False") : (*flag ? "1" : "0");
  return "[" + joined(std::get<std::vector<std::string>>(value)) + "]";
}

RealRange range_of(const OptionSpec& s, Door door) {
  return RealRange{s.low, s.high, s.low_inclusive, s.high_inclusive, s.meaning, spelled(s, door, s.example)};
}

std::string must_be(const OptionSpec& s) { return s.meaning + " must be " + describe_range(range_of(s, Door::cli)); }

// The word of a choice for `text` (aliases resolved); nullopt when none.
std::optional<std::string> word_for(const OptionSpec& s, const std::string& text) {
  for (const auto& c : s.choices)
    if (!c.word.empty() && c.word == text) return c.word;
  for (const auto& [alias, word] : s.aliases)
    if (alias == text) return word;
  return std::nullopt;
}

// Reads `value` for the option's kind: nullopt when it is valid (`out` set),
// else the refusal (after the value seen).
std::optional<Refusal> read(const OptionSpec& s, const OptionValue& value, Door door, Parsed& out) {
  const std::string example = spelled(s, door, s.example);
  switch (s.kind) {
    case OptionKind::real: {
      const RealRange range = range_of(s, door);
      if (const auto* text = std::get_if<std::string>(&value); text && door == Door::cli) {
        if (auto refusal = refuse_real_text(*text, range)) return refusal;
        bool ignored = false;
        out.real = *parse_real(*text, ignored);
        return std::nullopt;
      }
      double v = 0;
      if (const auto* real = std::get_if<double>(&value)) v = *real;
      else if (const auto* count = std::get_if<std::int64_t>(&value)) v = static_cast<double>(*count);
      else return Refusal{"is not a number: " + must_be(s), "e.g. " + example};
      if (auto refusal = refuse_real(v, range)) return refusal;
      out.real = v;
      return std::nullopt;
    }
    case OptionKind::count: {
      if (const auto* text = std::get_if<std::string>(&value); text && door == Door::cli) {
        std::string digits = *text;
        if (auto refusal = refuse_count_text(digits, s.count_low, s.count_high, s.meaning, example)) return refusal;
        out.count = std::stoll(digits);
        return std::nullopt;
      }
      const auto* count = std::get_if<std::int64_t>(&value);
      if (count == nullptr) return not_a_whole_number(s.count_low, s.count_high, s.meaning, example);
      if (auto refusal = refuse_count(*count, s.count_low, s.count_high, s.meaning, example)) return refusal;
      out.count = *count;
      return std::nullopt;
    }
    case OptionKind::choice: {
      const std::string listed = listed_words(s, door);
      if (const auto* number = std::get_if<std::int64_t>(&value); number && door == Door::c && c_enum(s)) {
        for (const auto& c : s.choices)
          if (c.c_value == *number) {
            out.word = c.word;
            return std::nullopt;
          }
        return Refusal{"is not one of " + listed, "use one of them"};
      }
      const auto* text = std::get_if<std::string>(&value);
      if (text == nullptr) return Refusal{"is not one of " + listed, "use one of them"};
      if (auto word = word_for(s, *text)) {
        out.word = *word;
        return std::nullopt;
      }
      return refuse_choice(*text, s.words(), listed);
    }
    case OptionKind::flag: {
      if (const auto* flag = std::get_if<bool>(&value)) {
        out.flag = *flag;
        return std::nullopt;
      }
      if (const auto* number = std::get_if<std::int64_t>(&value); number && door != Door::python) {
        if (*number == 0 || *number == 1) {
          out.flag = *number == 1;
          return std::nullopt;
        }
      }
      const std::string off = spelled(s, door, s.flag_default ? "false" : "true");
      if (door == Door::python) return Refusal{"is not True or False", "e.g. " + off};
      return Refusal{"is not 0 or 1", "e.g. " + off};
    }
    case OptionKind::text: {
      const auto* text = std::get_if<std::string>(&value);
      if (text == nullptr) return Refusal{"is not a text: " + s.meaning + " are written as text", "e.g. " + example};
      out.word = *text;
      return std::nullopt;
    }
    case OptionKind::choice_list: {
      std::vector<std::string> items;
      if (const auto* list = std::get_if<std::vector<std::string>>(&value)) {
        items = *list;
      } else if (const auto* text = std::get_if<std::string>(&value)) {
        std::size_t at = 0;
        while (at <= text->size()) {
          std::size_t comma = text->find(',', at);
          if (comma == std::string::npos) comma = text->size();
          items.push_back(text->substr(at, comma - at));
          at = comma + 1;
        }
      } else {
        return Refusal{"is not a list of " + listed_words(s, door), "e.g. " + example};
      }
      for (const auto& item : items) {
        auto word = word_for(s, item);
        if (!word) {
          auto refusal = refuse_choice(item, s.words(), listed_words(s, door));
          refusal->what = "holds " + quoted_value(item) + ", which " + refusal->what;
          return refusal;
        }
        out.list.push_back(*word);
      }
      return std::nullopt;
    }
  }
  return std::nullopt;
}

void apply(RunSettings& r, const OptionSpec& s, const Parsed& p) {
  SimulationOptions& o = r.simulation;
  switch (s.id) {
    case OptionId::start_time: o.start_time = p.real; break;
    case OptionId::stop_time: o.stop_time = p.real; break;
    case OptionId::rtol: o.rtol = p.real; break;
    case OptionId::atol: o.atol = p.real; break;
    case OptionId::output_interval: o.output_interval = p.real; break;
    case OptionId::jacobian:
      // check: the run uses directional derivatives; run() compares both once
      // initialized (the one --jacobian check, run_loop.h).
      r.check_jacobian = p.word == "check";
      o.jacobian = p.word == "fd"                             ? JacobianMode::finite_differences
                   : p.word == "directional" || p.word == "check" ? JacobianMode::directional
                                                                  : JacobianMode::automatic;
      // The entries the FMU declares constant: checked and, when one varies,
      // evaluated at every Jacobian (auto, fd, directional); a false claim
      // stops the run (check); used unchecked (trust).
      o.jacobian_claims = p.word == "check"   ? JacobianClaims::refuse
                          : p.word == "trust" ? JacobianClaims::trust
                                              : JacobianClaims::fall_back;
      break;
    case OptionId::threads: o.threads = static_cast<std::size_t>(p.count); break;
    case OptionId::klu_ordering: o.klu_ordering = p.word; break;
    case OptionId::row_order:
      if (!p.word.empty()) o.match_rows = p.word == "matched";
      break;
    case OptionId::max_steps: o.max_steps = static_cast<long>(p.count); break;
    case OptionId::max_step: o.max_step = p.real; break;
    case OptionId::newton_dcj: o.newton_dcj = p.real; break;
    case OptionId::constraints:
      if (p.word == "project") o.constraints = ConstraintMethod::projection;
      else if (p.word == "none") o.constraints = ConstraintMethod::none;
      else o.constraints = ConstraintMethod::dummy_derivatives;
      break;
    case OptionId::projection_tolerance: o.projection_tolerance = p.real; break;
    case OptionId::reselect: o.reselect = p.flag; break;
    case OptionId::eliminate: o.eliminate_linear = p.word == "auto"; break;
    case OptionId::linear_solver:
      o.dense_linear_solver = p.word == "dense";
      o.klu_64bit_indices = p.word == "klu64";
      break;
    case OptionId::coloring: o.uncolored_jacobian = !p.flag; break;
    case OptionId::constant_entries: o.constant_jacobian_entries = p.flag; break;
    case OptionId::klu_reanalyze: o.keep_klu_analysis = !p.flag; break;
    case OptionId::jacobian_reuse: o.jacobian_reuse = p.flag; break;
    case OptionId::output_steps: r.output.steps = p.flag; break;
    case OptionId::output_times: r.output.times = p.word; break;
    case OptionId::output_grid: r.output.grid = p.word; break;
    case OptionId::output_first: r.output.log_first = p.real; break;
    case OptionId::output_per_decade: r.output.per_decade = p.count; break;
    case OptionId::output_every: r.output.every = p.count; break;
    case OptionId::max_rows: r.output.max_rows = p.count; break;
    case OptionId::format: r.results.format = p.word; break;
    case OptionId::csv_units: r.results.csv_units = p.flag; break;
    case OptionId::csv_events: r.results.csv_events = p.flag; break;
    case OptionId::hdf5_deflate: r.results.hdf5_deflate = static_cast<int>(p.count); break;
    case OptionId::hdf5_compress_all: r.results.hdf5_compress_all = p.flag; break;
    case OptionId::output_roles: r.results.roles = p.list; break;
    case OptionId::all: r.results.all = p.flag; break;
  }
}

std::vector<std::string> keys_of(unsigned categories) {
  std::vector<std::string> keys;
  for (const auto& s : option_table())
    if ((s.category & categories) != 0) keys.push_back(s.key);
  return keys;
}

// Reads every given option; problems in `problems`, values into `settings`.
void read_all(const GivenOptions& given, Door door, unsigned categories, RunSettings* settings,
              std::vector<std::string>& problems) {
  std::set<std::string> seen_keys;
  for (const GivenOption& g : given) {
    const std::string seen = g.seen.empty() ? rendered(g.value, door) : g.seen;
    const OptionSpec* s = find_option(g.key);
    if (s == nullptr || (s->category & categories) == 0) {
      const std::string where = door == Door::cli ? g.key + " " : door == Door::c ? g.key + " = " : g.key + "=";
      const std::vector<std::string> keys = keys_of(categories);
      const std::string hint = did_you_mean(g.key, keys);
      problems.push_back(where + seen + " is not " + (s == nullptr ? "an option" : "an option of this call") + " → " +
                         (hint.empty() ? "" : hint + " ") + "(the options: " + joined(keys) + ")");
      continue;
    }
    if (!seen_keys.insert(s->key).second) {
      problems.push_back(spelled(*s, door) + (door == Door::cli ? ": given twice" : " given twice") +
                         " → give it once");
      continue;
    }
    Parsed parsed;
    if (auto refusal = read(*s, g.value, door, parsed)) {
      const std::string key = spelled(*s, door);
      const std::string lead = door == Door::cli ? key + ": " : door == Door::c ? key + " = " : key;
      problems.push_back(lead + refusal->after(seen));
      continue;
    }
    if (settings != nullptr) apply(*settings, *s, parsed);
  }
}

}  // namespace

std::vector<std::string> OptionSpec::words() const {
  std::vector<std::string> out;
  for (const auto& c : choices)
    if (!c.word.empty()) out.push_back(c.word);
  return out;
}

const OptionSpec* find_option(const std::string& key) {
  for (const auto& s : option_table())
    if (s.key == key) return &s;
  return nullptr;
}

const OptionSpec& option(OptionId id) {
  for (const auto& s : option_table())
    if (s.id == id) return s;
  throw Error(ErrorKind::internal, "run: no option of id " + std::to_string(static_cast<int>(id)));
}

std::string spelled(const OptionSpec& s, Door door) {
  switch (door) {
    case Door::cli: return s.cli;
    case Door::c: return std::string(s.category == category::simulation ? "options." : "output.") + s.key;
    case Door::python: return s.key + "=";
  }
  return s.key;
}

std::string spelled(const OptionSpec& s, Door door, const std::string& value) {
  if (s.kind == OptionKind::flag) {
    // "true"/"false" (or "1"/"0"): the flag as the door sets it.
    const bool on = value == "true" || value == "1" || value == "True";
    switch (door) {
      case Door::cli:
        if (on == s.flag_default) return "(without " + s.cli + ")";
        return s.cli;
      case Door::c: return spelled(s, door) + " = " + (on ? "1" : "0");
      case Door::python: return spelled(s, door) + (on ? "True" : "False");
    }
  }
  const bool quoted = s.kind == OptionKind::choice || s.kind == OptionKind::text || s.kind == OptionKind::choice_list;
  switch (door) {
    case Door::cli: return s.cli + " " + value;
    case Door::c:
      if (s.kind == OptionKind::choice && c_enum(s))
        for (const auto& c : s.choices)
          if (c.word == value) return spelled(s, door) + " = " + c.c_name;
      return spelled(s, door) + " = " + (quoted ? "\"" + value + "\"" : value);
    case Door::python: return spelled(s, door) + (quoted ? "\"" + value + "\"" : value);
  }
  return value;
}

std::vector<std::string> validate(const GivenOptions& given, Door door, unsigned categories) {
  std::vector<std::string> problems;
  read_all(given, door, categories, nullptr, problems);
  return problems;
}

RunSettings settings_from(const GivenOptions& given, Door door, unsigned categories, const std::string& where) {
  RunSettings settings;
  std::vector<std::string> problems;
  read_all(given, door, categories, &settings, problems);
  if (!problems.empty()) {
    std::string message;
    for (const auto& p : problems) message += (message.empty() ? "" : "\n") + where + p;
    throw Error(ErrorKind::usage, message);
  }
  return settings;
}

std::string check_cli_text(const OptionSpec& spec, std::string& text) {
  Parsed parsed;
  const std::string seen = quoted_value(text);
  auto refusal = read(spec, OptionValue(text), Door::cli, parsed);
  if (refusal) return refusal->after(seen);
  if (spec.kind == OptionKind::count) text = std::to_string(parsed.count);
  return {};
}

}  // namespace lsdae::run
