// models/psse/case/case_builder.cpp -- see case_builder.h.
#include "psse/case/case_builder.h"

#include <complex>
#include <cstdio>
#include <map>
#include <set>
#include <vector>

#include "psse/core/parameters.h"
#include "psse/core/registry.h"
#include "psse/io/dyr_reader.h"
#include "psse/io/psse_text.h"
#include "psse/io/raw_reader.h"
#include "psse/network/step_up.h"

namespace lsdae::psse {

namespace {

std::string unit_of(int bus, const std::string& id) { return "G:" + std::to_string(bus) + ":" + id; }

}  // namespace

BuiltCase build_case(const std::string& raw_path, const std::string& dyr_path, const CaseOptions& options) {
  return build_case(read_raw(raw_path, options.raw_version), read_dyr(dyr_path), options);
}

BuiltCase build_case(RawCase raw, std::vector<DyrRecord> dyr, const CaseOptions& options) {
  BuiltCase out;
  out.raw = std::move(raw);
  out.dyr = std::move(dyr);
  const RawCase& rc = out.raw;
  std::vector<std::string>& report = out.report;
  report.push_back(rc.path + ": PSS/E version " + std::to_string(rc.version) + ", " + std::to_string(rc.buses.size()) +
                   " buses, " + std::to_string(rc.loads.size()) + " loads, " + std::to_string(rc.generators.size()) +
                   " generators, " + std::to_string(rc.branches.size()) + " branches, " +
                   std::to_string(rc.transformers.size()) + " transformers, SBASE " + std::to_string(rc.sbase) +
                   " MVA, " + std::to_string(rc.frequency) + " Hz");
  for (const auto& n : rc.notes) report.push_back("  " + n);

  Network net = build_network(rc);
  for (const auto& n : net.notes) report.push_back("  network: " + n);
  PowerFlowOptions pf;
  pf.vs_set_points = options.vs_set_points;
  out.operating_point = solve_operating_point(rc, net, pf);
  OperatingPoint& op = out.operating_point;
  report.push_back(op.summary);
  if (op.singular)
    throw ModelError(rc.path + ": the power flow's Jacobian is singular after " + std::to_string(op.iterations) +
                     " iterations from the stored voltages → check that every bus is tied by in-service branches "
                     "to a swing bus (IDE = 3) of its island and that no branch has zero impedance");
  if (!op.converged)
    throw ModelError(rc.path + ": the power flow does not converge from the stored voltages (largest mismatch " +
                     std::to_string(op.mismatch) + " p.u.) → solve the case in PSS/E and save it again");
  if (const std::string step_up = add_step_up_transformers(rc, net, op); !step_up.empty())
    report.push_back("  network: " + step_up);

  // Generators by unit.
  std::map<std::string, std::size_t> generator_of;
  for (std::size_t k = 0; k < rc.generators.size(); ++k)
    generator_of[unit_of(rc.generators[k].bus, rc.generators[k].id)] = k;

  std::vector<std::string> unsupported;
  std::map<std::string, int> machine_count;
  std::map<std::string, std::size_t> skipped_by_model;
  SystemInput& in = out.input;
  in.hold_initial_limits = options.hold_initial_limits;
  for (const DyrRecord& record : out.dyr) {
    std::string model = record.model;
    auto sub = options.substitute.find(model);
    if (sub != options.substitute.end()) {
      if (sub->second == "none") {
        ++skipped_by_model[model + " (substituted by none)"];
        continue;
      }
      model = sub->second;
    }
    const ModelEntry* entry = find_model(model);
    const std::string name = record_name(record) + " (" + record.where() + ")";
    if (entry == nullptr) {
      if (options.skip_unsupported) ++skipped_by_model[record.model + " (unsupported, skipped)"];
      else unsupported.push_back(name);
      continue;
    }
    const std::string unit = unit_of(record.bus, record.id);
    auto g = generator_of.find(unit);
    if (g == generator_of.end()) {
      if (options.skip_unsupported) ++skipped_by_model[record.model + " (no such generator, skipped)"];
      else unsupported.push_back(name + ": no generator " + std::to_string(record.bus) + " '" + record.id + "' in the .raw");
      continue;
    }
    const RawGenerator& gen = rc.generators[g->second];
    if (gen.status == 0 || net.index_of.count(gen.bus) == 0) {
      ++skipped_by_model[record.model + " (generator out of service, dropped)"];
      continue;
    }
    DyrRecord as = record;
    as.model = model;
    UnitData u;
    u.system_base = rc.sbase;
    u.frequency = rc.frequency;
    u.mbase = gen.mbase;
    u.zsource = Complex(gen.zr, gen.zx);
    PlacedComponent p;
    p.component = entry->make(as, u);
    p.bus = net.generators[g->second].terminal;
    p.injection = op.generator_power[g->second];
    p.unit = unit;
    if (entry->role == Role::machine) ++machine_count[unit];
    in.components.push_back(std::move(p));
    if (model != record.model) report.push_back("  " + name + " read as " + model + " (substitution)");
  }
  if (!unsupported.empty()) {
    std::map<std::string, int> by_model;
    for (const DyrRecord& r : out.dyr)
      if (find_model(r.model) == nullptr && options.substitute.count(r.model) == 0) ++by_model[r.model];
    std::string models;
    for (const auto& [m, n] : by_model) models += (models.empty() ? "" : ", ") + m + " (" + std::to_string(n) + ")";
    std::string first;
    for (std::size_t k = 0; k < unsupported.size() && k < 8; ++k) first += "\n  " + unsupported[k];
    if (unsupported.size() > 8) first += "\n  ... and " + std::to_string(unsupported.size() - 8) + " more";
    throw ModelError(std::to_string(unsupported.size()) + " dynamic records lsdae does not implement" +
                     (models.empty() ? "" : ": " + models) + first +
                     "\n→ substitute their models (--substitute MODEL=OTHER or MODEL=none) or pass --skip-unsupported "
                     "(reported); the models lsdae implements: lsdae-grid --list-models");
  }
  for (const auto& [what, n] : skipped_by_model)
    report.push_back("  dynamic records " + what + ": " + std::to_string(n));

  // A stabilizer's one output is its exciter's VOTHSG input (signal vs): on a
  // unit without an exciter (none in the .dyr, out of service, or substituted
  // by none) it drives nothing, yet its limiters would still be events.
  std::set<std::string> excited;
  for (const PlacedComponent& p : in.components)
    if (p.component->info().role == Role::exciter) excited.insert(p.unit);
  std::vector<std::string> idle;
  std::erase_if(in.components, [&](const PlacedComponent& p) {
    if (p.component->info().role != Role::stabilizer || excited.count(p.unit) != 0) return false;
    idle.push_back(p.component->describe());
    return true;
  });
  if (!idle.empty()) {
    std::string list;
    for (std::size_t k = 0; k < idle.size() && k < 4; ++k) list += (k ? ", " : "") + idle[k];
    report.push_back("  " + std::to_string(idle.size()) +
                     " stabilizers on units without an exciter dropped (their output VOTHSG would drive nothing): " +
                     list + (idle.size() > 4 ? ", ..." : ""));
  }

  // Every in-service generator needs one machine model.
  std::vector<std::string> without, held;
  double held_mw = 0;
  for (std::size_t k = 0; k < rc.generators.size(); ++k) {
    const RawGenerator& g = rc.generators[k];
    if (g.status == 0 || net.index_of.count(g.bus) == 0) continue;
    const std::string unit = unit_of(g.bus, g.id);
    const int n = machine_count[unit];
    if (n > 1)
      throw ModelError(rc.path + ":" + std::to_string(g.line) + ": generator " + std::to_string(g.bus) + " '" + g.id +
                       "' has " + std::to_string(n) + " machine models in the .dyr → keep one");
    if (n == 1) continue;
    if (!options.skip_unsupported) {
      without.push_back(std::to_string(g.bus) + " '" + g.id + "' (" + rc.path + ":" + std::to_string(g.line) + ")");
      continue;
    }
    const std::string where = rc.path + ":" + std::to_string(g.line);
    const std::size_t at = net.generators[k].terminal;
    PlacedComponent p;
    p.bus = at;
    if (options.unmodelled == Unmodelled::source) {
      // PSS/E's Norton source that no model updates: a constant EMF behind ZSORCE at the
      // power-flow point, which is GENCLS with H = 0 (no swing, no inertia).
      if (std::abs(Complex(g.zr, g.zx)) == 0.0)
        throw ModelError(where + ": generator " + std::to_string(g.bus) + " '" + g.id +
                         "' has no machine model and its ZSORCE (ZR + jZX) is 0, so it cannot be held as a constant "
                         "EMF behind it → give it ZX in the .raw, add a machine record, or pass "
                         "--unmodelled-generators current (a constant-current source)");
      DyrRecord record;
      record.file = rc.path;
      record.line = g.line;
      record.bus = g.bus;
      record.model = "GENCLS";
      record.id = g.id;
      record.values = {0.0, 0.0};  // H = 0, D = 0
      record.value_lines = {g.line, g.line};
      record.tokens = {"0", "0"};
      UnitData u;
      u.system_base = rc.sbase;
      u.frequency = rc.frequency;
      u.mbase = g.mbase;
      u.zsource = Complex(g.zr, g.zx);
      p.component = find_model("GENCLS")->make(record, u);
      p.injection = op.generator_power[k];
      p.unit = unit;  // a machine of its unit: a source for islanding, trippable (gentrip)
    } else {
      // A constant-current source at its power-flow injection: a negative load.
      RawLoad source;
      source.bus = g.bus;
      source.id = "G" + g.id;
      const Complex s = op.generator_power[k] * rc.sbase;
      const double u0 = std::abs(op.voltage[at]);
      source.ip = -s.real() / u0;
      source.iq = -s.imag() / u0;
      p.component = make_zip_load(source, rc.sbase, LoadConversion{0, 0, 0, 0, 1e-3}, where);
      p.unit = "S:" + std::to_string(g.bus) + ":" + g.id;
    }
    in.components.push_back(std::move(p));
    held_mw += op.generator_power[k].real() * rc.sbase;
    held.push_back(std::to_string(g.bus) + " '" + g.id + "'");
  }
  if (!held.empty()) {
    std::string list;
    for (std::size_t k = 0; k < held.size() && k < 6; ++k) list += (k ? ", " : "") + held[k];
    char mw[40];
    std::snprintf(mw, sizeof mw, "%.1f MW", held_mw);
    report.push_back("  " + std::to_string(held.size()) + " in-service generators without a machine model (" + mw +
                     ") held as " +
                     (options.unmodelled == Unmodelled::source
                          ? "constant EMFs behind their ZSORCE at the power-flow point (PSS/E's Norton source; "
                            "--unmodelled-generators current: constant-current sources)"
                          : "constant-current sources at their power-flow injection (--unmodelled-generators "
                            "current)") +
                     ": " + list + (held.size() > 6 ? ", ..." : ""));
  }
  if (!without.empty()) {
    std::string list;
    for (std::size_t k = 0; k < without.size() && k < 8; ++k) list += "\n  " + without[k];
    if (without.size() > 8) list += "\n  ... and " + std::to_string(without.size() - 8) + " more";
    throw ModelError(std::to_string(without.size()) + " in-service generators have no machine model in the .dyr:" +
                     list + "\n→ add GENCLS/GENROU/GENSAL records, or pass --skip-unsupported (held as constant EMFs behind "
                     "their ZSORCE, or with --unmodelled-generators current as constant-current sources; "
                     "reported)");
  }

  // Loads.
  LoadConversion conversion = options.loads;
  if (!(conversion.breakpoint > 0.0)) conversion.breakpoint = rc.pqbrak;
  std::size_t loads = 0;
  for (const RawLoad& l : rc.loads) {
    if (l.status == 0 || net.index_of.count(l.bus) == 0) continue;
    PlacedComponent p;
    p.component = make_zip_load(l, rc.sbase, conversion, rc.path + ":" + std::to_string(l.line));
    p.bus = net.bus_index(l.bus);
    p.unit = "L:" + std::to_string(l.bus) + ":" + l.id;
    in.components.push_back(std::move(p));
    ++loads;
  }
  char text[200];
  std::snprintf(text, sizeof text,
                "  %zu loads: %g %% of P and %g %% of Q to constant current, %g %% and %g %% to constant admittance; "
                "constant power and current below %g p.u. as admittance",
                loads, 100 * conversion.p_to_current, 100 * conversion.q_to_current, 100 * conversion.p_to_admittance,
                100 * conversion.q_to_admittance, conversion.breakpoint);
  report.push_back(text);
  in.voltage = op.voltage;
  in.network = std::move(net);
  in.disturbances = options.disturbances;
  return out;
}

}  // namespace lsdae::psse
