// runtime/cli/table_options.cpp -- see table_options.h.
#include "cli/table_options.h"

namespace lsdae::cli {

namespace {

CLI::Validator table_check(const run::OptionSpec& spec) {
  return CLI::Validator([&spec](std::string& text) { return run::check_cli_text(spec, text); }, "", spec.key);
}

}  // namespace

TableOptions::TableOptions(CLI::App& app, unsigned categories) : categories_(categories) {
  for (const run::OptionSpec& spec : run::option_table()) {
    if ((spec.category & categories) == 0) continue;
    auto slot = std::make_unique<Slot>();
    slot->spec = &spec;
    std::string help = spec.cli_help.empty() ? spec.help : spec.cli_help;
    if (spec.kind != run::OptionKind::flag && !spec.show_default && spec.default_text != "none" &&
        help.find("default") == std::string::npos && help.find(spec.default_text) == std::string::npos)
      help += " (default: " + spec.default_text + ")";
    CLI::Option* o = nullptr;
    switch (spec.kind) {
      case run::OptionKind::flag: o = app.add_flag(spec.cli, slot->flag, help); break;
      case run::OptionKind::choice_list:
        o = app.add_option(spec.cli, slot->list, help + " (repeatable)")->delimiter(',')->check(table_check(spec));
        break;
      default:
        o = app.add_option(spec.cli, slot->text, help)->check(table_check(spec));
        if (!spec.cli_type.empty()) o->type_name(spec.cli_type);
        if (spec.show_default) o->default_str(spec.default_text);
        break;
    }
    if (!spec.group.empty()) o->group(spec.group);
    slot->option = o;
    slots_.push_back(std::move(slot));
  }
}

run::GivenOptions TableOptions::given() const {
  run::GivenOptions out;
  for (const auto& slot : slots_) {
    if (slot->option->count() == 0) continue;
    const run::OptionSpec& spec = *slot->spec;
    switch (spec.kind) {
      // A flag given switches its default: --no-reselect is reselect = false.
      case run::OptionKind::flag: out.push_back({spec.key, !spec.flag_default, ""}); break;
      case run::OptionKind::choice_list: out.push_back({spec.key, slot->list, ""}); break;
      default: out.push_back({spec.key, slot->text, ""}); break;
    }
  }
  return out;
}

run::RunSettings TableOptions::settings(const std::string& where) const {
  return run::settings_from(given(), run::Door::cli, categories_, where);
}

}  // namespace lsdae::cli
