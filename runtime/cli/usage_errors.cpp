// runtime/cli/usage_errors.cpp -- see usage_errors.h.
#include "cli/usage_errors.h"

#include <algorithm>
#include <optional>

#include "run/did_you_mean.h"
#include "cli/option_values.h"

namespace lsdae::cli {

using run::did_you_mean;

namespace {

// "--name" and "-n" for every option of `app` that is not positional.
std::vector<std::string> option_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::Option* opt : app.get_options()) {
    if (!opt->nonpositional()) continue;
    for (const auto& l : opt->get_lnames()) names.push_back("--" + l);
    for (const auto& s : opt->get_snames()) names.push_back("-" + s);
  }
  return names;
}

std::vector<std::string> command_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) names.push_back(sub->get_name());
  return names;
}

std::string join(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : ", ") + w;
  return out;
}

// An option word: "--x", "-x"; not "-", not a negative number ("-5", "-.5").
bool looks_like_option(const std::string& word) {
  if (word.size() < 2 || word[0] != '-') return false;
  if (word[1] == '-') return word.size() > 2;
  return !(word[1] == '.' || (word[1] >= '0' && word[1] <= '9'));
}

// The option `word` names in `app` ("--stop=3" names --stop), or nullptr.
const CLI::Option* find_option(const CLI::App& app, const std::string& word) {
  const std::string name = word.substr(0, word.find('='));
  for (const CLI::Option* opt : app.get_options()) {
    if (!opt->nonpositional()) continue;
    if (name.rfind("--", 0) == 0) {
      const auto& l = opt->get_lnames();
      if (std::find(l.begin(), l.end(), name.substr(2)) != l.end()) return opt;
    } else {
      const auto& s = opt->get_snames();
      if (std::find(s.begin(), s.end(), name.substr(1)) != s.end()) return opt;
    }
  }
  return nullptr;
}

bool takes_value(const CLI::Option* opt) { return opt->get_items_expected_max() > 0; }

// What a command takes as its one positional argument, in words and as an
// example: `plot` and `report` a result file (their positional is named
// "result"), the other commands an FMU or a system.
struct Positional {
  std::string noun, example;
};
Positional positional_of(const CLI::App& sub) {
  for (const CLI::Option* opt : sub.get_options())
    if (!opt->nonpositional() && opt->get_name() == "result") return {"result file", "result.csv"};
  return {"FMU", "model.fmu"};
}

std::string unknown_option(const std::string& word, const std::vector<std::string>& names, const std::string& help) {
  const std::string name = word.substr(0, word.find('='));
  const std::string hint = did_you_mean(name, names);
  if (hint.empty()) return "unknown option " + quoted_value(name) + " → " + help + " lists the options";
  return "unknown option " + quoted_value(name) + " → " + hint + " (" + help + " lists the options)";
}

}  // namespace

std::string describe_usage_error(CLI::App& app, const std::vector<std::string>& args, const CLI::ParseError& error) {
  const std::vector<std::string> commands = command_names(app);
  const std::string command_list = "commands: " + join(commands);

  // 1. Global options up to the command word.
  std::size_t i = 0;
  CLI::App* sub = nullptr;
  for (; i < args.size(); ++i) {
    const std::string& word = args[i];
    if (word == "--") {
      ++i;
      break;
    }
    if (looks_like_option(word)) {
      if (find_option(app, word) != nullptr) continue;
      // An option of a command, given before it?
      std::vector<std::string> owners;
      for (const CLI::App* s : app.get_subcommands([](const CLI::App*) { return true; }))
        if (find_option(*s, word) != nullptr) owners.push_back(s->get_name());
      if (!owners.empty()) {
        std::string list;
        for (const auto& o : owners) list += (list.empty() ? "`lsdae " : ", `lsdae ") + o + "`";
        return "option " + quoted_value(word.substr(0, word.find('='))) + " belongs to " + list +
               " → put it after the command, e.g. `lsdae " + owners.front() + " model.fmu " + word + " …`";
      }
      return unknown_option(word, option_names(app), "`lsdae --help`");
    }
    for (CLI::App* s : app.get_subcommands([](CLI::App*) { return true; }))
      if (s->get_name() == word) sub = s;
    if (sub == nullptr) {
      const std::string hint = did_you_mean(word, commands);
      if (!hint.empty()) return "unknown command " + quoted_value(word) + " → " + hint + " (" + command_list + ")";
      return quoted_value(word) + " is not a command → put one first, e.g. `lsdae simulate " + word +
             "` (" + command_list + ")";
    }
    ++i;
    break;
  }
  if (sub == nullptr)
    return "no command given → e.g. `lsdae simulate model.fmu` (" + command_list +
           "; `lsdae --help` explains them)";

  // 2. The command's own words: the first unknown option is the root cause
  //    of most refusals (CLI11 may have tripped over its value instead).
  const std::string where = sub->get_name();
  const std::string help = "`lsdae " + where + " --help`";
  const Positional positional = positional_of(*sub);
  std::size_t positionals = 0;
  std::vector<std::string> surplus;
  std::size_t positional_slots = 0;
  for (const CLI::Option* opt : sub->get_options())
    if (!opt->nonpositional()) ++positional_slots;
  for (bool only_positional = false; i < args.size(); ++i) {
    const std::string& word = args[i];
    if (!only_positional && word == "--") {
      only_positional = true;
      continue;
    }
    if (!only_positional && looks_like_option(word)) {
      const CLI::Option* opt = find_option(*sub, word);
      if (opt == nullptr) opt = find_option(app, word);
      if (opt == nullptr) {
        std::vector<std::string> names = option_names(*sub), global = option_names(app);
        names.insert(names.end(), global.begin(), global.end());
        return where + ": " + unknown_option(word, names, help);
      }
      if (takes_value(opt) && word.find('=') == std::string::npos) ++i;  // its value
      continue;
    }
    if (++positionals > positional_slots) surplus.push_back(word);
  }

  // 3. By what CLI11 saw.
  const std::string what = error.what();
  if (dynamic_cast<const CLI::ExtrasError*>(&error) != nullptr) {
    std::string word = surplus.empty() ? std::string() : surplus.front();
    if (word.empty()) {
      // Not found by the scan above (an option that took several values):
      // the first of CLI11's leftovers, in command-line order.
      std::vector<std::string> left = sub->remaining();
      std::vector<std::string> top = app.remaining();
      left.insert(left.end(), top.begin(), top.end());
      std::size_t first = args.size();
      for (const auto& l : left) {
        auto at = std::find(args.begin(), args.end(), l);
        if (at != args.end()) first = std::min(first, static_cast<std::size_t>(at - args.begin()));
      }
      if (first < args.size()) word = args[first];
    }
    return where + ": unexpected argument " + quoted_value(word) + " → `lsdae " + where + "` takes one " +
           positional.noun + ", then options (" + help + " lists them)";
  }
  if (dynamic_cast<const CLI::RequiredError*>(&error) != nullptr) {
    if (what.rfind("fmu ", 0) == 0 || what.rfind("result ", 0) == 0)
      return where + ": no " + positional.noun + " given → `lsdae " + where + " " + positional.example +
             " [options]` (" + help + " lists the options)";
    return where + ": " + what + " → " + help + " lists the options";
  }
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&error) != nullptr) {
    const std::string option = what.substr(0, what.find(':'));
    return where + ": " + option + " needs a value → e.g. `lsdae " + where + " " + positional.example + " " + option +
           " VALUE` (" + help + " says which values)";
  }
  if (dynamic_cast<const CLI::ValidationError*>(&error) != nullptr) return where + " " + what;
  return where + ": " + what + " → " + help + " lists the options";
}

std::string describe_flag_value_error(CLI::App& app, const std::vector<std::string>& args, const std::exception& error) {
  const auto small_integer = [](const std::string& v) {
    std::size_t k = (!v.empty() && (v[0] == '-' || v[0] == '+')) ? 1 : 0;
    if (k == v.size() || v.size() - k > 18) return false;
    return std::all_of(v.begin() + static_cast<std::ptrdiff_t>(k), v.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  std::vector<CLI::App*> scopes{&app};
  for (CLI::App* s : app.get_subcommands([](CLI::App*) { return true; })) scopes.push_back(s);
  for (const std::string& word : args) {
    const std::size_t eq = word.find('=');
    if (!looks_like_option(word) || eq == std::string::npos) continue;
    for (CLI::App* scope : scopes) {
      const CLI::Option* opt = find_option(*scope, word);
      if (opt == nullptr || takes_value(opt)) continue;
      const std::string value = word.substr(eq + 1);
      if (small_integer(value)) continue;
      const std::string name = word.substr(0, eq);
      const std::string where = scope == &app ? "lsdae" : scope->get_name();
      return where + ": flag " + quoted_value(name) + " takes no value → value seen " + quoted_value(value) +
             " → give " + quoted_value(name) + " alone, or " + quoted_value(name + "=true") + " / " +
             quoted_value(name + "=false");
    }
  }
  return std::string("the command line could not be read (") + error.what() + ") → `lsdae --help` lists the options";
}

}  // namespace lsdae::cli
