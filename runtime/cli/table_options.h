// runtime/cli/table_options.h -- the command line's options of the options
// table (run/options.h), registered from the table itself.
//
//   TableOptions table(app, run::category::simulation);   // lsdae sweep
//   ... app.parse ...
//   run::RunSettings s = table.settings("simulate ");
//
// Each option of the given categories becomes a CLI11 option with the
// table's flag, help, value name, --help group and default; its validator is
// the table's check of the text (run::check_cli_text), so a value is refused
// while parsing with the message every front door gives for it:
//   lsdae: error: simulate --rtol: "5" is out of range: the relative tolerance must be from 1e-15 to 1 → e.g. --rtol 1e-6
// given() hands the options that were given to run::settings_from; the
// command never reads or checks a value itself.
#ifndef LSDAE_RUNTIME_CLI_TABLE_OPTIONS_H
#define LSDAE_RUNTIME_CLI_TABLE_OPTIONS_H

#include <CLI/CLI.hpp>

#include <memory>
#include <string>
#include <vector>

#include "run/options.h"

namespace lsdae::cli {

class TableOptions {
 public:
  TableOptions(CLI::App& app, unsigned categories);
  // The options given on the command line, as text (flags as booleans).
  run::GivenOptions given() const;
  // run::settings_from(given(), ...); the values were checked while parsing.
  run::RunSettings settings(const std::string& where) const;

 private:
  struct Slot {
    const run::OptionSpec* spec = nullptr;
    std::string text;
    std::vector<std::string> list;
    bool flag = false;
    CLI::Option* option = nullptr;
  };
  unsigned categories_;
  std::vector<std::unique_ptr<Slot>> slots_;
};

}  // namespace lsdae::cli

#endif  // LSDAE_RUNTIME_CLI_TABLE_OPTIONS_H
