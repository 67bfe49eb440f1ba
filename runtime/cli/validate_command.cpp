// runtime/cli/validate_command.cpp -- `lsdae validate model.fmu`: every
// problem with file:line, then (unless --no-load) load the binary and create
// and free one instance (in DAE mode when the FMU has a manifest) to check
// symbols, fmi3GetVersion and the instantiation token.
#include <CLI/CLI.hpp>

#include <cstdint>
#include <iostream>
#include <memory>
#include <optional>

#include "cli/commands.h"
#include "cli/json_writer.h"
#include "cli/limits_option.h"
#include "lsdae/error.h"
#include "lsdae/fmu.h"

namespace lsdae::cli {

namespace {

struct ValidateOptions {
  std::string path;
  bool json = false;
  bool no_load = false;
  bool quiet = false;
  std::uint64_t max_unpacked_size = 0;  // 0: ArchiveLimits' defaults
};

}  // namespace

Runner add_validate_command(CLI::App& app) {
  auto options = std::make_shared<ValidateOptions>();
  app.add_option("fmu", options->path, "The .fmu file (or an unpacked FMU folder)")->required();
  app.add_flag("--json", options->json, "Print the findings as JSON");
  app.add_flag("--no-load", options->no_load, "Do not load the binary (XML checks only)");
  app.add_flag("-q,--quiet", options->quiet, "Print errors only");
  add_max_unpacked_size_option(app, options->max_unpacked_size);
  return [options]() {
    OpenOptions open;
    open.reject_invalid = false;
    apply_max_unpacked_size(options->max_unpacked_size, open);
    auto fmu = Fmu::open(options->path, open);
    Diagnostics findings = fmu->diagnostics();
    std::string load_result = "skipped";
    std::optional<ErrorKind> load_error;
    if (!options->no_load && !findings.has_errors()) {
      try {
        auto instance = fmu->instantiate("lsdae-validate");
        if (fmu->manifest().present()) instance->enable_dae_mode();
        load_result = "ok";
      } catch (const Error& e) {
        // The binary's own message starts with the FMU's name: drop it, the
        // line prefix says it. A missing binary was already a warning: the
        // error replaces it.
        std::string message = e.what();
        const std::string prefix = fmu->display_name() + ": ";
        if (message.rfind(prefix, 0) == 0) message.erase(0, prefix.size());
        Diagnostics kept;
        for (const auto& d : findings.items())
          if (!(d.severity == Severity::warning && d.file.rfind("binaries/", 0) == 0)) kept.add(d);
        findings = kept;
        const auto& me = fmu->model_description().model_exchange;
        findings.error(std::string("binaries/") + "x86_64-linux/" + (me ? me->model_identifier : "?") + ".so", 0, message);
        load_result = "failed";
        load_error = e.kind();
      }
    }
    std::size_t errors = findings.count(Severity::error), warnings = findings.count(Severity::warning);
    if (options->json) {
      JsonWriter j(std::cout);
      j.begin_object();
      j.field("file", fmu->display_name());
      j.field("valid", errors == 0);
      j.field("manifest_shape", to_string(fmu->manifest().shape));
      j.field("binary", load_result);
      j.field("errors", static_cast<std::uint64_t>(errors));
      j.field("warnings", static_cast<std::uint64_t>(warnings));
      j.key("diagnostics").begin_array();
      for (const auto& d : findings.items()) {
        if (options->quiet && d.severity != Severity::error) continue;
        j.begin_object();
        j.field("severity", to_string(d.severity));
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
        if (options->quiet && d.severity != Severity::error) continue;
        (d.severity == Severity::error ? std::cerr : std::cout) << fmu->display_name() << ": " << d.format() << '\n';
      }
      auto count = [](std::size_t n, const char* word) {
        return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
      };
      std::cout << fmu->display_name() << ": " << (errors == 0 ? "valid" : "INVALID") << " ("
                << count(errors, "error") << ", " << count(warnings, "warning") << "; manifest "
                << to_string(fmu->manifest().shape) << "; binary " << load_result << ")\n";
    }
    // The binary's failure keeps its own exit code (5 binary, 6 FMU call);
    // any other error makes the FMU invalid (1).
    if (errors == 0) return 0;
    if (load_error && errors == 1) return exit_code(*load_error);
    return exit_code(ErrorKind::invalid);
  };
}

}  // namespace lsdae::cli
