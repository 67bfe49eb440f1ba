// runtime/cli/system_commands.cpp -- see system_commands.h.
#include "cli/system_commands.h"

#include <cstdio>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <vector>

#include "run/json_writer.h"
#include "cli/limits_option.h"
#include "common/format.h"
#include "import/ssp/system_checks.h"
#include "import/temp_dir.h"
#include "lsdae/error.h"
#include "lsdae/fmu.h"
#include "lsdae/ssp.h"
#include "lsdae/supervise.h"

namespace lsdae::cli {

using run::JsonWriter;

namespace {

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

std::string ref(const ConnectorRef& r) { return r.component + "." + r.variable; }

std::string transformation(const Connection& c) {
  if (c.factor == 1.0 && c.offset == 0.0) return "";
  std::string out = "  (to = ";
  if (c.factor != 1.0) out += number(c.factor) + " · ";
  out += "from";
  if (c.offset != 0.0) out += (c.offset < 0 ? " − " : " + ") + number(c.offset < 0 ? -c.offset : c.offset);
  return out + ")";
}

SystemReadOptions read_options(std::uint64_t max_unpacked_size) {
  OpenOptions open;
  apply_max_unpacked_size(max_unpacked_size, open);
  SystemReadOptions options;
  options.limits = open.limits;
  return options;
}

struct OpenedComponent {
  std::shared_ptr<Fmu> fmu;
  std::optional<Error> failure;
};

std::vector<OpenedComponent> open_components(const SystemDescription& system, std::uint64_t max_unpacked_size) {
  std::vector<OpenedComponent> out;
  OpenOptions open;
  open.reject_invalid = false;
  apply_max_unpacked_size(max_unpacked_size, open);
  for (const auto& c : system.components) {
    OpenedComponent o;
    try {
      o.fmu = Fmu::open(c.fmu, open);
    } catch (const Error& e) {
      o.failure = e;
    }
    out.push_back(std::move(o));
  }
  return out;
}

std::string experiment_text(const SystemDescription& s) {
  std::string out;
  auto add = [&](const char* label, const std::optional<double>& v) {
    if (v) out += (out.empty() ? "" : ", ") + std::string(label) + " " + number(*v);
  };
  add("start", s.start_time);
  add("stop", s.stop_time);
  add("tolerance", s.tolerance);
  add("step", s.step_size);
  return out.empty() ? "not given (the components' own, then lsdae's defaults)" : out;
}

void json_optional(JsonWriter& j, const char* key, const std::optional<double>& v) {
  j.key(key);
  if (v) j.value(*v); else j.null();
}

}  // namespace

std::shared_ptr<System> open_system(const std::string& path, std::uint64_t max_unpacked_size) {
  const SystemDescription description = read_system_description(path, read_options(max_unpacked_size));
  OpenOptions open;
  apply_max_unpacked_size(max_unpacked_size, open);
  return System::create(description, open);
}

int info_system(const std::string& path, bool json, std::uint64_t max_unpacked_size,
                const structure::StructureReport* structure, const std::string& note) {
  const SystemDescription system = read_system_description(path, read_options(max_unpacked_size));
  const auto opened = open_components(system, max_unpacked_size);
  const std::string name = std::filesystem::path(path).filename().string();
  int code = 0;
  for (const auto& o : opened)
    if (o.failure && code == 0) code = exit_code(o.failure->kind());
  if (json) {
    JsonWriter j(std::cout);
    j.begin_object();
    j.field("file", name);
    j.field("system", system.name);
    j.key("components").begin_array();
    for (std::size_t i = 0; i < system.components.size(); ++i) {
      const auto& c = system.components[i];
      j.begin_object();
      j.field("name", c.name);
      j.field("source", c.source);
      j.field("where", c.where);
      if (opened[i].fmu) {
        const auto& md = opened[i].fmu->model_description();
        j.field("fmi_version", md.fmi_version);
        j.field("model_name", md.model_name);
        j.field("model_exchange", md.model_exchange.has_value());
        j.field("manifest_shape", to_key(opened[i].fmu->manifest().shape));
      } else {
        j.key("fmi_version").null();
        j.field("error", std::string(opened[i].failure->what()));
        j.field("stage", to_string(opened[i].failure->kind()));
      }
      j.key("parameters").begin_array();
      for (std::size_t p = 0; p < c.parameters.size(); ++p) {
        j.begin_object();
        j.field("name", c.parameters[p].first);
        j.field("value", c.parameters[p].second);
        j.field("where", p < c.parameters_where.size() ? c.parameters_where[p] : std::string());
        j.end_object();
      }
      j.end_array();
      j.end_object();
    }
    j.end_array();
    j.key("connections").begin_array();
    for (const auto& c : system.connections) {
      j.begin_object();
      j.field("from", ref(c.from));
      j.field("to", ref(c.to));
      j.field("factor", c.factor);
      j.field("offset", c.offset);
      j.field("where", c.where);
      j.end_object();
    }
    j.end_array();
    j.key("couplings").begin_array();
    for (const auto& c : system.couplings) {
      j.begin_object();
      j.field("name", c.name);
      j.field("where", c.where);
      j.key("ports").begin_array();
      for (const auto& p : c.ports) {
        j.begin_object();
        j.field("component", p.potential.component);
        j.field("potential", p.potential.variable);
        j.field("flow", p.flow.variable);
        j.end_object();
      }
      j.end_array();
      j.end_object();
    }
    j.end_array();
    j.key("experiment").begin_object();
    json_optional(j, "start_time", system.start_time);
    json_optional(j, "stop_time", system.stop_time);
    json_optional(j, "tolerance", system.tolerance);
    json_optional(j, "step_size", system.step_size);
    j.end_object();
    if (structure != nullptr) j.key("structure").raw(structure->to_json());
    if (!note.empty()) j.field("structure_note", note);
    j.end_object();
    std::cout << '\n';
    return code;
  }
  std::cout << name << (system.name.empty() ? "" : " (system \"" + system.name + "\")") << '\n';
  std::cout << "  components (" << system.components.size() << ")\n";
  for (std::size_t i = 0; i < system.components.size(); ++i) {
    const auto& c = system.components[i];
    std::cout << "    " << std::left << std::setw(20) << c.name << ' ' << (c.source.empty() ? c.fmu.string() : c.source);
    if (opened[i].fmu) {
      const auto& md = opened[i].fmu->model_description();
      std::cout << "  FMI " << md.fmi_version << ", model \"" << md.model_name << "\""
                << (md.model_exchange ? "" : ", no Model Exchange");
    } else {
      std::cout << "  (cannot be opened: " << opened[i].failure->what() << ")";
    }
    std::cout << '\n';
  }
  std::cout << "  connections (" << system.connections.size() << ")\n";
  for (const auto& c : system.connections)
    std::cout << "    " << ref(c.from) << " → " << ref(c.to) << transformation(c) << '\n';
  std::cout << "  couplings (" << system.couplings.size() << ")\n";
  for (const auto& c : system.couplings) {
    std::string potentials, flows;
    for (const auto& p : c.ports) {
      potentials += (potentials.empty() ? "" : " = ") + ref(p.potential);
      flows += (flows.empty() ? "" : " + ") + ref(p.flow);
    }
    std::cout << "    " << c.name << ": " << potentials << "; " << flows << " = 0\n";
  }
  std::size_t parameters = 0;
  for (const auto& c : system.components) parameters += c.parameters.size();
  std::cout << "  parameters (" << parameters << ")\n";
  for (const auto& c : system.components)
    for (const auto& [variable, value] : c.parameters) std::cout << "    " << c.name << "." << variable << " = " << value << '\n';
  std::cout << "  experiment: " << experiment_text(system) << '\n';
  if (structure != nullptr) {
    std::cout << "\nStructure\n" << structure->to_text();
    if (!note.empty()) std::cout << "  (" << note << ")\n";
  }
  return code;
}

int validate_system(const std::string& path, bool json, bool quiet, bool no_load, std::uint64_t max_unpacked_size,
                    const IsolationFlags& isolation_flags) {
  import::TempDir::set_signal_cleanup(false);
  StopSignals stop_signals;
  const std::string name = std::filesystem::path(path).filename().string();
  // One list of findings; `component` says which FMU a finding is about ("" for the SSD).
  struct Finding {
    std::string component;
    Diagnostic diagnostic;
  };
  std::vector<Finding> findings;
  Diagnostics ssd;
  SystemDescription system;
  try {
    system = read_system_description(path, read_options(max_unpacked_size), ssd);
  } catch (const Error& e) {
    if (json) {
      JsonWriter j(std::cout);
      j.begin_object();
      j.field("file", name);
      j.field("valid", false);
      j.field("stage", to_string(e.kind()));
      j.field("exit_code", exit_code(e.kind()));
      j.field("errors", static_cast<std::uint64_t>(1));
      j.key("diagnostics").begin_array();
      j.begin_object();
      j.field("severity", "error");
      j.field("component", "");
      j.field("message", std::string(e.what()));
      j.end_object();
      j.end_array();
      j.end_object();
      std::cout << '\n';
    }
    std::cerr << "lsdae: error: " << e.what() << '\n';
    return exit_code(e.kind());
  }
  for (const auto& d : ssd.items()) findings.push_back({"", d});
  std::size_t errors = ssd.validation_errors(), warnings = ssd.count(Severity::warning);
  const auto opened = open_components(system, max_unpacked_size);
  std::vector<import::ComponentModel> models;
  std::vector<std::string> binary(system.components.size(), "skipped");
  for (std::size_t i = 0; i < opened.size(); ++i) {
    const auto& c = system.components[i];
    models.push_back(opened[i].fmu ? import::ComponentModel{&opened[i].fmu->model_description(),
                                                            opened[i].fmu->display_name()}
                                   : import::ComponentModel{});
    if (opened[i].failure) {
      if (!c.fmu.empty()) {  // an empty path: the SSD reader reported the source already
        findings.push_back({c.name, Diagnostic{Severity::error, "", 0, opened[i].failure->what(), ""}});
        ++errors;
      }
      continue;
    }
    const Fmu& fmu = *opened[i].fmu;
    for (const auto& d : fmu.diagnostics().items()) findings.push_back({c.name, d});
    errors += fmu.diagnostics().validation_errors();
    warnings += fmu.diagnostics().count(Severity::warning);
    if (no_load || fmu.diagnostics().has_errors()) continue;
    IsolationOptions isolation = isolation_options(isolation_flags, fmu.display_name());
    isolation.stop_grace = 0;
    auto shared = opened[i].fmu;
    RunOutcome r = run_with_isolation(
        isolation_flags,
        [&](RunContext&) {
          auto instance = shared->instantiate("lsdae-validate");
          if (shared->manifest().present()) instance->enable_dae_mode();
          return 0;
        },
        isolation);
    if (r.end == RunEnd::interrupted) {
      std::cerr << "lsdae: " << r.message << '\n';
      return exit_code(ErrorKind::interrupted);
    }
    binary[i] = r.ok() ? "ok" : "failed";
    if (!r.ok()) {
      findings.push_back({c.name, Diagnostic{Severity::error, "binaries/x86_64-linux", 0, r.message, ""}});
      ++errors;
    }
  }
  Diagnostics checks;
  import::check_system(system, models, checks);
  for (const auto& d : checks.items()) findings.push_back({"", d});
  errors += checks.validation_errors();
  warnings += checks.count(Severity::warning);

  auto is_error = [](const Diagnostic& d) { return d.severity == Severity::error || d.severity == Severity::conformance; };
  if (json) {
    JsonWriter j(std::cout);
    j.begin_object();
    j.field("file", name);
    j.field("valid", errors == 0);
    j.field("errors", static_cast<std::uint64_t>(errors));
    j.field("warnings", static_cast<std::uint64_t>(warnings));
    j.key("components").begin_array();
    for (std::size_t i = 0; i < system.components.size(); ++i) {
      j.begin_object();
      j.field("name", system.components[i].name);
      j.field("source", system.components[i].source);
      j.field("opened", opened[i].fmu != nullptr);
      j.field("binary", binary[i]);
      j.end_object();
    }
    j.end_array();
    j.key("diagnostics").begin_array();
    for (const auto& f : findings) {
      if (quiet && !is_error(f.diagnostic)) continue;
      j.begin_object();
      j.field("severity", is_error(f.diagnostic) ? "error" : to_string(f.diagnostic.severity));
      j.field("blocks_simulation", f.diagnostic.severity == Severity::error);
      j.field("component", f.component);
      j.field("file", f.diagnostic.file);
      j.field("line", f.diagnostic.line);
      j.field("message", f.diagnostic.message);
      j.field("hint", f.diagnostic.hint);
      j.end_object();
    }
    j.end_array();
    j.end_object();
    std::cout << '\n';
  } else {
    for (const auto& f : findings) {
      if (quiet && !is_error(f.diagnostic)) continue;
      std::string where = name + ": ";
      if (!f.component.empty()) where += "component \"" + f.component + "\": ";
      (is_error(f.diagnostic) ? std::cerr : std::cout) << where << f.diagnostic.format() << '\n';
    }
    std::cout << name << ": " << (errors == 0 ? "valid" : "INVALID") << " ("
              << count_of(system.components.size(), "component") << ", "
              << count_of(system.connections.size(), "connection") << ", "
              << count_of(system.couplings.size(), "coupling") << "; " << count_of(errors, "error") << ", "
              << count_of(warnings, "warning") << ")\n";
  }
  return errors == 0 ? 0 : exit_code(ErrorKind::invalid);
}

}  // namespace lsdae::cli
