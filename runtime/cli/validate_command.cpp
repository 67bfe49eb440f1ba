// runtime/cli/validate_command.cpp -- `lsdae validate model.fmu`: every
// problem with file:line, then (unless --no-load) load the binary and create
// and free one instance (in DAE mode when the FMU has a manifest) to check
// symbols, fmi3GetVersion and the instantiation token.
//
// The binary is loaded in a supervised child process (lsdae/supervise.h;
// `--no-isolate`: in this one): a binary that crashes or ends the process
// while loading or instantiating is a binary error (exit 5) naming the
// signal and the fmi3 function; one that hangs longer than --call-timeout is
// exit 11. A stop signal ends the check at once (exit 130); the extraction
// folder is removed in every case.
#include <CLI/CLI.hpp>

#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

#include "cli/commands.h"
#include "common/format.h"
#include "cli/isolation_option.h"
#include "run/json_writer.h"
#include "cli/limits_option.h"
#include "cli/system_commands.h"
#include "import/temp_dir.h"
#include "lsdae/error.h"
#include "lsdae/fmu.h"
#include "lsdae/ssp.h"
#include "lsdae/supervise.h"
#include "simulation/model_clocks.h"

namespace lsdae::cli {

using run::JsonWriter;

namespace {

struct ValidateOptions {
  std::string path;
  bool json = false;
  bool no_load = false;
  bool quiet = false;
  std::uint64_t max_unpacked_size = 0;  // 0: ArchiveLimits' defaults
  IsolationFlags isolation;
};

// `--json` when the FMU cannot be read at all (archive, XML, a missing file):
// the same object as a report, with the one error as its only diagnostic and
// the stage that failed, so a script always gets JSON on stdout.
void print_json_failure(const std::string& path, const Error& e) {
  const std::string name = std::filesystem::path(path).filename().empty()
                               ? path
                               : std::filesystem::path(path).filename().string();
  std::string message = e.what(), hint, file;
  int line = 0;
  if (message.rfind(name + ": ", 0) == 0) message.erase(0, name.size() + 2);
  // "modelDescription.xml:12:5: reason": the member and its line.
  if (auto colon = message.find(':'); colon != std::string::npos && colon > 0 &&
                                      message.find(' ') > colon && colon + 1 < message.size() &&
                                      std::isdigit(static_cast<unsigned char>(message[colon + 1]))) {
    file = message.substr(0, colon);
    line = std::atoi(message.c_str() + colon + 1);
    auto rest = message.find(": ", colon);
    if (rest != std::string::npos) message.erase(0, rest + 2);
  }
  if (auto arrow = message.find(" → "); arrow != std::string::npos) {
    hint = message.substr(arrow + std::string(" → ").size());
    message.erase(arrow);
  }
  JsonWriter j(std::cout);
  j.begin_object();
  j.field("file", name);
  j.field("valid", false);
  j.field("stage", to_string(e.kind()));
  j.field("exit_code", exit_code(e.kind()));
  j.key("manifest_shape").null();
  j.field("binary", "skipped");
  j.field("errors", static_cast<std::uint64_t>(1));
  j.field("conformance_errors", static_cast<std::uint64_t>(0));
  j.field("warnings", static_cast<std::uint64_t>(0));
  j.key("diagnostics").begin_array();
  j.begin_object();
  j.field("severity", "error");
  j.field("blocks_simulation", true);
  j.field("file", file);
  j.field("line", line);
  j.field("message", message);
  j.field("hint", hint);
  j.end_object();
  j.end_array();
  j.end_object();
}

}  // namespace

Runner add_validate_command(CLI::App& app) {
  auto options = std::make_shared<ValidateOptions>();
  app.add_option("fmu", options->path, "The .fmu file (or an unpacked FMU folder, or a system: .ssp or .ssd)")->required();
  app.add_flag("--json", options->json, "Print the findings as JSON");
  app.add_flag("--no-load", options->no_load, "Do not load the binary (XML checks only)");
  app.add_flag("-q,--quiet", options->quiet, "Print errors only");
  add_max_unpacked_size_option(app, options->max_unpacked_size);
  add_isolation_options(app, options->isolation, "loading the binary");
  return [options]() {
    if (is_system_file(options->path))
      return validate_system(options->path, options->json, options->quiet, options->no_load,
                             options->max_unpacked_size, options->isolation);
    import::TempDir::set_signal_cleanup(false);
    StopSignals stop_signals;
    OpenOptions open;
    open.reject_invalid = false;
    apply_max_unpacked_size(options->max_unpacked_size, open);
    std::shared_ptr<Fmu> fmu;
    try {
      fmu = Fmu::open(options->path, open);
    } catch (const Error& e) {
      if (!options->json) throw;
      print_json_failure(options->path, e);
      std::cerr << "lsdae: error: " << e.what() << '\n';
      return exit_code(e.kind());
    }
    Diagnostics findings = fmu->diagnostics();
    // The clock declarations a run refuses (simulation/model_clocks.h): the
    // run's own rule and words, each an error here.
    for (const auto& refusal : simulation::clock_refusals(fmu->model_description()))
      findings.error("modelDescription.xml", refusal.variable->line, refusal.statement(), refusal.todo);
    std::string load_result = "skipped";
    std::optional<ErrorKind> load_error;
    // Conformance errors do not stop simulation, so they do not stop the load either.
    if (!options->no_load && !findings.has_errors()) {
      IsolationOptions isolation = isolation_options(options->isolation, fmu->display_name());
      isolation.stop_grace = 0;  // nothing to finish: a stop signal ends the check at once
      RunOutcome r = run_with_isolation(
          options->isolation,
          [&](RunContext&) {
            auto instance = fmu->instantiate("lsdae-validate");
            if (fmu->manifest().present()) instance->enable_dae_mode();
            return 0;
          },
          isolation);
      if (r.end == RunEnd::interrupted) {
        std::cerr << "lsdae: " << r.message << '\n';
        return exit_code(ErrorKind::interrupted);
      }
      if (r.ok()) {
        load_result = "ok";
      } else {
        // The binary's own message starts with the FMU's name: drop it, the
        // line prefix says it. A missing binary was already a warning: the
        // error replaces it. A crash of the binary is a binary error.
        std::string message = r.message;
        const std::string prefix = fmu->display_name() + ": ";
        if (message.rfind(prefix, 0) == 0) message.erase(0, prefix.size());
        Diagnostics kept;
        for (const auto& d : findings.items())
          if (!(d.severity == Severity::warning && d.file.rfind("binaries/", 0) == 0)) kept.add(d);
        findings = kept;
        const auto& me = fmu->model_description().model_exchange;
        findings.error(std::string("binaries/") + "x86_64-linux/" + (me ? me->model_identifier : "?") + ".so", 0, message);
        load_result = "failed";
        load_error = r.end == RunEnd::crashed || r.end == RunEnd::exited ? ErrorKind::binary : r.kind();
      }
    }
    // validate counts both kinds of error (lsdae/diagnostics.h).
    const std::size_t errors = findings.validation_errors();
    const std::size_t conformance = findings.count(Severity::conformance);
    const std::size_t warnings = findings.count(Severity::warning);
    auto is_error = [](const Diagnostic& d) { return d.severity == Severity::error || d.severity == Severity::conformance; };
    if (options->json) {
      JsonWriter j(std::cout);
      j.begin_object();
      j.field("file", fmu->display_name());
      j.field("valid", errors == 0);
      j.field("manifest_shape", to_key(fmu->manifest().shape));
      j.field("binary", load_result);
      j.field("errors", static_cast<std::uint64_t>(errors));
      j.field("conformance_errors", static_cast<std::uint64_t>(conformance));
      j.field("warnings", static_cast<std::uint64_t>(warnings));
      j.key("diagnostics").begin_array();
      for (const auto& d : findings.items()) {
        if (options->quiet && !is_error(d)) continue;
        j.begin_object();
        j.field("severity", is_error(d) ? "error" : to_string(d.severity));
        j.field("blocks_simulation", d.severity == Severity::error);
        j.field("file", d.file);
        j.field("line", d.line);
        j.field("message", d.message);
        j.field("hint", d.hint);
        j.end_object();
      }
      j.end_array();
      j.end_object();
    } else {
      for (const auto& d : findings.items()) {
        if (options->quiet && !is_error(d)) continue;
        (is_error(d) ? std::cerr : std::cout) << fmu->display_name() << ": " << d.format() << '\n';
      }
      std::cout << fmu->display_name() << ": " << (errors == 0 ? "valid" : "INVALID") << " ("
                << count_of(errors, "error") << (conformance > 0 ? " (" + std::to_string(conformance) + " conformance)" : "")
                << ", " << count_of(warnings, "warning") << "; manifest " << to_string(fmu->manifest().shape)
                << "; binary " << load_result << ")\n";
      if (conformance > 0 && conformance == errors)
        std::cout << fmu->display_name() << ": only conformance errors: `lsdae simulate` runs it with warnings, "
                     "`lsdae simulate --strict` refuses it\n";
    }
    // The binary's failure keeps its own exit code (5 binary, 6 FMU call);
    // any other error makes the FMU invalid (1).
    if (errors == 0) return 0;
    if (load_error && errors == 1) return exit_code(*load_error);
    return exit_code(ErrorKind::invalid);
  };
}

}  // namespace lsdae::cli
