// models/psse/tool/lsdae_grid.cpp -- lsdae-grid: turns a PSS/E case (.raw +
// .dyr) into an FMU of the PsseGrid binary, after checking that it reads,
// solves and initializes (docs/psse.md, "The command").
//
//   lsdae-grid CASE.raw CASE.dyr -o CASE.fmu [options]
//
// It reads the case, solves the power flow, builds and initializes every
// model, prints what it decided (the report) and writes the FMU: the .raw and
// the .dyr and the options in resources/, modelDescription.xml and the
// FMI-LS-DAE manifest (from the model itself, as the kit's describer does),
// and the binary PsseGrid.so. Exit status: 0 written; 1 the case is refused
// (the message says why and what to do); 2 a usage error (also an -o or
// --flat-reference naming the .raw or the .dyr, which writing would destroy);
// 3 the FMU cannot be written (no PsseGrid binary, a file that cannot be written).
#include <zip.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "common/output_clash.h"
#include "kit/description.h"
#include "kit/layout.h"
#include "kit/xml_writer.h"
#include "psse/case/case_builder.h"
#include "psse/core/registry.h"
#include "psse/io/psse_text.h"
#include "psse/io/dyr_reader.h"
#include "psse/io/raw_reader.h"
#include "psse/system/system.h"
#include "psse/tool/case_tables.h"

namespace fs = std::filesystem;
using namespace lsdae;

namespace {

constexpr const char* kUsage =
    "usage: lsdae-grid CASE.raw CASE.dyr -o CASE.fmu [options]\n"
    "  --form semi_explicit|fully_implicit   DAE form (default semi_explicit)\n"
    "  --stop-time T                         default experiment's stop time (10 s)\n"
    "  --raw-version 32|33|34                read the .raw as that version (default: its REV)\n"
    "  --substitute MODEL=OTHER              read MODEL's records as OTHER (none: drop them); repeatable\n"
    "  --skip-unsupported                    drop the records lsdae does not implement (reported); hold\n"
    "                                        generators without a machine record as below\n"
    "  --unmodelled-generators source|current  such a generator as a constant EMF behind its ZSORCE\n"
    "                                        (default, PSS/E's Norton source) or a constant-current source\n"
    "  --load-conversion PI,PY,QI,QY         percent of constant P and Q converted to constant current\n"
    "                                        and admittance (CONL), e.g. 0,100,0,100 for constant impedance\n"
    "  --load-breakpoint U                   constant power/current become admittance below U p.u. (PQBRAK)\n"
    "  --pv-set-points stored|vs             hold PV buses at the stored voltage (default) or at VS\n"
    "  --initial-limits widen|hold           a limit a model starts beyond: widened to the value (default,\n"
    "                                        PowerWorld's rule) or held (PSS/E's); reported either way\n"
    "  --fault BUS:T_ON:T_OFF:R:X            a three-phase fault (R, X p.u. on SBASE); repeatable\n"
    "  --trip FROM-TO-CKT@T                  open a branch or transformer at T (CKT as in the .raw); repeatable\n"
    "  --gentrip BUS-ID@T                    disconnect a generator at T (ID as in the .raw); repeatable\n"
    "  --loadstep BUS:T:P:Q                  add P + jQ (MW, Mvar at 1 p.u., constant admittance) at T\n"
    "  --fault-buses LIST|all  --trip-branches LIST|all  --loadstep-buses LIST|all\n"
    "                                        the locations the FMU's parameters may choose later\n"
    "  --flat-reference FILE.csv             also write the undisturbed operating point (t = 0, 0.25, 0.5)\n"
    "  --check                               read, solve, initialize and report; write no FMU (no -o)\n"
    "  --quiet                               print only errors\n"
    "  --list-models                         the dynamic models lsdae implements\n"
    "  --list-branches, --list-machines      the case's branch and generator records by row (the rows\n"
    "                                        trip[k].branch and gentrip[k].machine name); write no FMU\n";

int usage(const std::string& message) {
  std::cerr << "lsdae-grid: " << message << "\n" << kUsage;
  return 2;
}

fs::path binary_path(const char* argv0) {
  if (const char* env = std::getenv("LSDAE_PSSE_FMU_BINARY")) return env;
  std::error_code ec;
  const fs::path self = fs::canonical("/proc/self/exe", ec);
  if (!ec) {
    const fs::path installed = self.parent_path().parent_path() / LSDAE_INSTALL_LIBDIR / "lsdae" / "PsseGrid.so";
    if (fs::exists(installed)) return installed;
  }
  (void)argv0;
  return LSDAE_PSSE_BUILD_BINARY;
}

void write_file(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw std::runtime_error("cannot write \"" + path.string() + "\"");
}

// Zips the staged folder (sorted, fixed time stamps: the same FMU for the same input).
void zip_folder(const fs::path& stage, const fs::path& fmu) {
  fs::remove(fmu);
  int error = 0;
  zip_t* z = zip_open(fmu.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &error);
  if (z == nullptr) throw std::runtime_error("cannot create \"" + fmu.string() + "\" (libzip error " + std::to_string(error) + ")");
  std::vector<fs::path> entries;
  for (const auto& e : fs::recursive_directory_iterator(stage)) entries.push_back(e.path());
  std::sort(entries.begin(), entries.end());
  for (const fs::path& p : entries) {
    const std::string name = fs::relative(p, stage).generic_string();
    zip_int64_t index = -1;
    if (fs::is_directory(p)) {
      index = zip_dir_add(z, name.c_str(), ZIP_FL_ENC_UTF_8);
    } else {
      zip_source_t* src = zip_source_file(z, p.c_str(), 0, -1);
      if (src == nullptr) break;
      index = zip_file_add(z, name.c_str(), src, ZIP_FL_ENC_UTF_8 | ZIP_FL_OVERWRITE);
      if (index < 0) zip_source_free(src);
    }
    if (index < 0) {
      const std::string what = zip_strerror(z);
      zip_discard(z);
      throw std::runtime_error("cannot add \"" + name + "\" to \"" + fmu.string() + "\": " + what);
    }
    zip_file_set_mtime(z, static_cast<zip_uint64_t>(index), 315532800, 0);  // 1980-01-01
  }
  if (zip_close(z) != 0) {
    const std::string what = zip_strerror(z);
    zip_discard(z);
    throw std::runtime_error("cannot write \"" + fmu.string() + "\": " + what);
  }
}

void write_flat_reference(const fs::path& path, const psse::System& system) {
  const auto point = system.initial_point();
  std::string text = "time";
  for (const auto& [name, value] : point) text += "," + name;
  text += "\n";
  for (double t : {0.0, 0.25, 0.5}) {
    char number[40];
    std::snprintf(number, sizeof number, "%.17g", t);
    text += number;
    for (const auto& [name, value] : point) {
      std::snprintf(number, sizeof number, "%.17g", value);
      text += std::string(",") + number;
    }
    text += "\n";
  }
  write_file(path, text);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> positional;
  std::map<std::string, std::string> settings;
  std::string output, form = "semi_explicit", stop_time = "10", flat_reference;
  bool quiet = false, check_only = false, list_branches = false, list_machines = false;
  std::vector<std::string> faults, trips, gentrips, loadsteps, substitutes;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](const char* what) -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(a + " needs " + what);
      return argv[++i];
    };
    try {
      if (a == "--help" || a == "-h") {
        std::cout << kUsage;
        return 0;
      } else if (a == "--list-models") {
        for (const psse::ModelEntry* e : psse::all_models())
          std::cout << e->name << "  (" << psse::role_prefix(e->role) << ", " << e->parameters.size()
                    << " parameters)  " << e->summary << "\n";
        return 0;
      } else if (a == "-o" || a == "--output") output = value("a file name");
      else if (a == "--form") form = value("semi_explicit or fully_implicit");
      else if (a == "--stop-time") stop_time = value("a time in s");
      else if (a == "--raw-version") settings["raw_version"] = value("32, 33 or 34");
      else if (a == "--substitute") {
        std::string s = value("MODEL=OTHER");
        const auto eq = s.find('=');
        if (eq == std::string::npos) return usage("--substitute \"" + s + "\": expected MODEL=OTHER or MODEL=none");
        s[eq] = ':';
        substitutes.push_back(s);
      } else if (a == "--skip-unsupported") settings["skip_unsupported"] = "true";
      else if (a == "--unmodelled-generators") settings["unmodelled_generators"] = value("source or current");
      else if (a == "--load-conversion") settings["load_conversion"] = value("PI,PY,QI,QY");
      else if (a == "--load-breakpoint") settings["load_breakpoint"] = value("a voltage in p.u.");
      else if (a == "--pv-set-points") settings["pv_set_points"] = value("stored or vs");
      else if (a == "--initial-limits") settings["initial_limits"] = value("widen or hold");
      else if (a == "--fault") faults.push_back(value("BUS:T_ON:T_OFF:R:X"));
      else if (a == "--trip") trips.push_back(value("FROM-TO-CKT@T"));
      else if (a == "--gentrip") gentrips.push_back(value("BUS-ID@T"));
      else if (a == "--loadstep") loadsteps.push_back(value("BUS:T:P:Q"));
      else if (a == "--fault-buses") settings["fault_buses"] = value("a bus list or all");
      else if (a == "--trip-branches") settings["trip_branches"] = value("a branch list or all");
      else if (a == "--loadstep-buses") settings["loadstep_buses"] = value("a bus list or all");
      else if (a == "--flat-reference") flat_reference = value("a CSV file name");
      else if (a == "--quiet") quiet = true;
      else if (a == "--check") check_only = true;
      else if (a == "--list-branches") list_branches = true;
      else if (a == "--list-machines") list_machines = true;
      else if (!a.empty() && a[0] == '-') return usage("unknown option \"" + a + "\"");
      else positional.push_back(a);
    } catch (const std::invalid_argument& e) {
      return usage(e.what());
    }
  }
  if (positional.size() != 2) return usage("give the .raw and the .dyr file");
  if (list_branches || list_machines) {
    try {
      const int version = settings.count("raw_version") ? std::stoi(settings["raw_version"]) : 0;
      const psse::RawCase rc = psse::read_raw(positional[0], version);
      const psse::Network net = psse::build_network(rc);
      if (list_branches) std::cout << psse::branch_table(net);
      if (list_machines) std::cout << psse::machine_table(rc, net, psse::read_dyr(positional[1]));
    } catch (const std::exception& e) {
      std::cerr << "lsdae-grid: " << e.what() << "\n";
      return 1;
    }
    return 0;
  }
  if (output.empty() && !check_only) return usage("give the FMU to write with -o CASE.fmu (or --check)");
  if (form != "semi_explicit" && form != "fully_implicit")
    return usage("--form \"" + form + "\": expected semi_explicit or fully_implicit");
  // An output named like an input would replace the case with the FMU (or the
  // table); the two outputs must differ (common/output_clash.h).
  const std::vector<lsdae::files::WritePath> writes{{"-o", output, "-o CASE.fmu"},
                                                    {"--flat-reference", flat_reference, "--flat-reference flat.csv"}};
  if (const std::string clash = lsdae::files::output_over_input(
          writes, {{positional[0], "the .raw being read"}, {positional[1], "the .dyr being read"}});
      !clash.empty())
    return usage(clash);
  if (lsdae::files::same_output(writes))
    return usage("-o and --flat-reference both name \"" + output + "\" → give each its own file");
  auto join = [](const std::vector<std::string>& items) {
    std::string s;
    for (const auto& i : items) s += (s.empty() ? "" : ",") + i;
    return s;
  };
  if (!substitutes.empty()) settings["substitute"] = join(substitutes);
  if (!faults.empty()) settings["faults"] = join(faults);
  if (!trips.empty()) settings["trips"] = join(trips);
  if (!gentrips.empty()) settings["gentrips"] = join(gentrips);
  if (!loadsteps.empty()) settings["loadsteps"] = join(loadsteps);

  psse::CaseOptions options;
  try {
    options = psse::case_options(settings);
  } catch (const std::invalid_argument& e) {
    return usage(e.what());
  }
  // Check the case: read, power flow, models, initialization.
  try {
    psse::BuiltCase c = psse::build_case(positional[0], positional[1], options);
    const kit::Form kit_form = form == "semi_explicit" ? kit::Form::semi_explicit : kit::Form::fully_implicit;
    psse::System system(std::move(c.input), kit_form);
    const psse::InitReport& r = system.report();
    if (!quiet) {
      for (const auto& line : c.report) std::cout << line << "\n";
      std::cout << "  models: " << r.components << " components, " << r.states << " states, " << r.algebraics
                << " algebraic variables, " << r.limiters << " limiters\n";
      for (const auto& n : r.notes) std::cout << "  note: " << n << "\n";
      for (const auto& n : r.limits) std::cout << "  limit: " << n << "\n";
      std::printf("  at rest at t = 0: largest derivative %.3e (%s), largest residual %.3e (%s)\n",
                  r.largest_derivative, r.largest_derivative_name.empty() ? "-" : r.largest_derivative_name.c_str(),
                  r.largest_residual, r.largest_residual_name.empty() ? "-" : r.largest_residual_name.c_str());
    }
    if (!flat_reference.empty()) write_flat_reference(flat_reference, system);
  } catch (const psse::TextError& e) {
    std::cerr << "lsdae-grid: " << e.what() << "\n";
    return 1;
  } catch (const psse::ModelError& e) {
    std::cerr << "lsdae-grid: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "lsdae-grid: " << e.what() << "\n";
    return 1;
  }

  if (check_only) return 0;
  // Write the FMU.
  try {
    const fs::path binary = binary_path(argv[0]);
    if (!fs::exists(binary))
      throw std::runtime_error("the FMU binary PsseGrid.so is not at \"" + binary.string() +
                               "\" → install lsdae, or set LSDAE_PSSE_FMU_BINARY");
    const fs::path fmu = fs::absolute(output);
    const fs::path stage = fmu.parent_path() / (fmu.filename().string() + ".stage");
    fs::remove_all(stage);
    fs::create_directories(stage / "resources");
    fs::copy_file(positional[0], stage / "resources" / fs::path(positional[0]).filename());
    if (fs::path(positional[1]).filename() != fs::path(positional[0]).filename())
      fs::copy_file(positional[1], stage / "resources" / fs::path(positional[1]).filename());
    std::map<std::string, std::string> values = psse::case_settings(options);
    values["raw"] = fs::path(positional[0]).filename().string();
    values["dyr"] = fs::path(positional[1]).filename().string();
    values["form"] = form;
    values["manifest"] = "A";
    values["stop_time"] = stop_time;
    kit::Config config(values);
    config.set_resource_dir((stage / "resources").string() + "/");
    auto model = kit::make_model(config);
    const kit::Description d = kit::describe(*model, config);
    write_file(stage / "modelDescription.xml",
               kit::apply_layout_to_model_description(d, kit::model_description_xml(d, "PsseGrid")));
    write_file(stage / kit::kManifestPath, kit::apply_layout_to_manifest(d, kit::manifest_xml(d)));
    write_file(stage / "resources" / kit::kConfigFile, kit::format_config(config));
    fs::create_directories(stage / "binaries" / "x86_64-linux");
    fs::copy_file(binary, stage / "binaries" / "x86_64-linux" / "PsseGrid.so");
    zip_folder(stage, fmu);
    fs::remove_all(stage);
    if (!quiet) std::cout << "wrote " << output << " (" << d.variables.size() << " variables)\n";
  } catch (const fs::filesystem_error& e) {  // the path: a folder that is a file, a full disk, ...
    std::cerr << "lsdae-grid: -o \"" << output << "\": the FMU cannot be written: " << e.code().message() << " ("
              << e.path1().string() << ") → choose a path in a folder you can write to\n";
    return 3;
  } catch (const std::exception& e) {
    std::cerr << "lsdae-grid: " << e.what() << "\n";
    return 3;
  }
  return 0;
}
