// models/kit/description.cpp -- the recording Builder and the checks that make
// a declared model a valid FMI 3.0 / FMI-LS-DAE description.
#include "kit/description.h"
#include "kit/claims.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>

namespace lsdae::kit {

namespace {

class RecordingBuilder final : public Builder {
 public:
  RecordingBuilder(Description& d) : d_(d) {
    Variable time;
    time.name = "time";
    time.description = "Simulation time";
    time.causality = Causality::independent;
    time.unit = "s";
    time.value_reference = 0;
    d_.variables.push_back(std::move(time));
  }

  void model_name(const std::string& name, const std::string& description) override {
    d_.model_name = name;
    d_.description = description;
  }
  void default_experiment(const DefaultExperiment& e) override { d_.experiment = e; }
  void form(Form f) override { d_.form = f; }
  void log_category(const std::string& name, const std::string& description) override {
    static const char* const kKit[] = {"logEvents", "logStatusWarning", "logStatusError"};
    bool taken = false;
    for (const char* k : kKit) taken = taken || name == k;
    for (const auto& c : d_.log_categories) taken = taken || c.first == name;
    if (name.empty() || taken)
      throw std::invalid_argument("declare: log category \"" + name + "\" is empty or declared twice");
    d_.log_categories.emplace_back(name, description);
  }

  void expect_variables(std::size_t count) override {
    if (expected_ || d_.variables.size() != 1)
      throw std::invalid_argument("declare: expect_variables() after the first variable or twice");
    expected_ = count;
    // + the DAE enable switch describe() may add after declare().
    d_.variables.reserve(d_.variables.size() + count + 1);
  }
  // Throws when expect_variables() announced another count than declare() added.
  void check_expected() const {
    const std::size_t declared = d_.variables.size() - 1;  // without time
    if (expected_ && *expected_ != declared)
      throw std::invalid_argument("declare: expect_variables(" + std::to_string(*expected_) + ") but " +
                                  std::to_string(declared) + " variables were declared");
  }

  ValueRef add(Variable v) override {
    if (v.name.empty()) throw std::invalid_argument("declare: a variable has an empty name");
    if (!names_.insert(v.name).second)
      throw std::invalid_argument("declare: variable \"" + v.name + "\" is declared twice");
    v.value_reference = static_cast<ValueRef>(d_.variables.size());
    if (v.algebraic) d_.algebraic.push_back(v.value_reference);
    if (v.causality == Causality::output) d_.outputs.push_back(v.value_reference);
    if (v.type == VarType::clock) d_.clocks.push_back(v.value_reference);
    if (v.previous != kNoValueRef) d_.clocked_states.push_back(v.value_reference);
    d_.variables.push_back(std::move(v));
    return d_.variables.back().value_reference;
  }

  ValueRef derivative(ValueRef state) override {
    check_vr(state, "derivative");
    const Variable& x = d_.variables[state];
    // A state is a local, or an output (as exporters write an output that is a state).
    if ((x.causality != Causality::local && x.causality != Causality::output) || x.derivative_of != kNoValueRef ||
        x.type != VarType::float64)
      throw std::invalid_argument("declare: derivative(\"" + x.name + "\"): not a local or output Float64 state");
    Variable v;
    v.name = "der(" + x.name + ")";
    v.initial = Initial::calculated;
    v.derivative_of = state;
    v.unit = x.unit.empty() ? "" : x.unit + "/s";
    return add(std::move(v));
  }

  void residual_group(ResidualGroup g) override {
    if (g.formulations.empty()) throw std::invalid_argument("declare: an empty residual group");
    d_.residual_groups.push_back(std::move(g));
  }
  void dae_dependencies(ValueRef unknown, std::vector<Dependency> deps) override {
    check_vr(unknown, "dae_dependencies");
    d_.dae_dependencies[unknown] = std::move(deps);
  }
  void ode_dependencies(ValueRef unknown, std::vector<Dependency> deps) override {
    check_vr(unknown, "ode_dependencies");
    d_.ode_dependencies[unknown] = std::move(deps);
  }
  void event_indicator(ValueRef variable) override {
    check_vr(variable, "event_indicator");
    d_.event_indicators.push_back(variable);
  }
  void state_order(std::vector<ValueRef> derivatives) override { state_order_ = std::move(derivatives); }
  void output_order(std::vector<ValueRef> outputs) override { output_order_ = std::move(outputs); }
  void provides_partials() override { d_.provides_partials = true; }
  void alias(ValueRef alias, ValueRef original) override {
    check_vr(alias, "alias");
    check_vr(original, "alias");
    if (alias == original || !d_.aliases.emplace(alias, original).second)
      throw std::invalid_argument("declare: alias(\"" + d_.variables[alias].name + "\", \"" +
                                  d_.variables[original].name + "\"): declared twice or of itself");
  }
  void constraints(std::size_t max_count, bool jacobian) override {
    if (max_count == 0) throw std::invalid_argument("declare: constraints(0, ...): declare at least one constraint");
    d_.max_constraints = max_count;
    d_.constraint_jacobian = jacobian;
  }
  void has_time_events() override { d_.has_time_events = true; }
  const Config& config() const override { return d_.config; }

  std::vector<ValueRef> state_order_, output_order_;  // empty: declaration order

 private:
  void check_vr(ValueRef vr, const char* where) const {
    if (vr >= d_.variables.size())
      throw std::invalid_argument(std::string("declare: ") + where + ": value reference " +
                                  std::to_string(vr) + " was not handed out by the builder");
  }
  Description& d_;
  std::set<std::string> names_{"time"};
  std::optional<std::size_t> expected_;
};

std::uint64_t fnv1a(const std::string& text) {
  std::uint64_t h = 1469598103934665603ull;
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

void check_dependencies(const Description& d, const std::vector<Dependency>& deps, const std::string& owner) {
  std::set<ValueRef> seen;
  for (const Dependency& dep : deps) {
    if (dep.known >= d.variables.size())
      throw std::invalid_argument("declare: dependencies of \"" + owner + "\" name value reference " +
                                  std::to_string(dep.known) + ", which does not exist");
    if (!seen.insert(dep.known).second)
      throw std::invalid_argument("declare: dependencies of \"" + owner + "\" list \"" +
                                  d.variables[dep.known].name + "\" twice");
  }
}

const char* interval_name(IntervalVariability i) {
  switch (i) {
    case IntervalVariability::constant: return "constant";
    case IntervalVariability::fixed: return "fixed";
    case IntervalVariability::tunable: return "tunable";
    case IntervalVariability::changing: return "changing";
    case IntervalVariability::countdown: return "countdown";
    case IntervalVariability::triggered: return "triggered";
  }
  return "?";
}

// The attributes of one Clock (FMI 3.0 2.2.9 and the ClockType attributes).
void check_clock(const Variable& v) {
  const ClockProperties& p = v.clock;
  const std::string where = "declare: clock \"" + v.name + "\" (" + interval_name(p.interval_variability) + ")";
  auto fail = [&](const std::string& rule) { throw std::invalid_argument(where + ": " + rule); };
  const IntervalVariability iv = p.interval_variability;
  const bool periodic = iv == IntervalVariability::constant || iv == IntervalVariability::fixed ||
                        iv == IntervalVariability::tunable;
  if (v.causality == Causality::output) {
    if (iv != IntervalVariability::triggered) fail("an output clock must be triggered");
    if (p.can_be_deactivated) fail("an output clock has no canBeDeactivated");
  } else if (v.causality != Causality::input) {
    fail("the kit declares input and output clocks only");
  }
  if (v.variability != Variability::discrete || !v.clocks.empty() || v.previous != kNoValueRef || v.start)
    fail("a clock is discrete, without clocks, previous or start");
  if (iv == IntervalVariability::constant && !p.interval_decimal) fail("a constant clock needs interval_decimal");
  if (!periodic && (p.interval_decimal || p.shift_decimal))
    fail("interval_decimal and shift_decimal belong to periodic clocks (constant, fixed, tunable)");
  if (p.interval_decimal && !(*p.interval_decimal > 0.0 && std::isfinite(*p.interval_decimal)))
    fail("interval_decimal must be a finite number > 0");
  if (p.shift_decimal && (!p.interval_decimal || !(*p.shift_decimal >= 0.0 && std::isfinite(*p.shift_decimal))))
    fail("shift_decimal needs interval_decimal and must be >= 0");
  const bool fraction = p.resolution || p.interval_counter || p.shift_counter;
  if (fraction && (!p.supports_fraction || !periodic || !p.resolution || !p.interval_counter || !p.interval_decimal ||
                   *p.resolution == 0 || *p.interval_counter == 0))
    fail("resolution, interval_counter and shift_counter need supports_fraction, a periodic clock with "
         "interval_decimal, a resolution > 0 and an interval_counter > 0");
  if (p.supports_fraction && !fraction) fail("supports_fraction needs resolution and interval_counter");
  if (fraction) {
    const double interval = static_cast<double>(*p.interval_counter) / static_cast<double>(*p.resolution);
    const double shift = static_cast<double>(p.shift_counter.value_or(0)) / static_cast<double>(*p.resolution);
    if (interval != *p.interval_decimal || shift != p.shift_decimal.value_or(0.0))
      fail("interval_decimal and shift_decimal must equal interval_counter/resolution and shift_counter/resolution");
  }
}

// Clocks, clocked variables and clocked states.
void check_clocks(const Description& d) {
  if (d.fmi_version != 3)
    for (const Variable& v : d.variables)
      if (v.type == VarType::int32)
        throw std::invalid_argument("model configuration: fmi=2, but \"" + v.name +
                                    "\" is an Int32, which the kit writes for FMI 3.0 only; build it as FMI 3.0");
  if (d.clocks.empty()) {
    for (const Variable& v : d.variables)
      if (!v.clocks.empty())
        throw std::invalid_argument("declare: \"" + v.name + "\" is clocked but the model declares no clock");
    return;
  }
  if (d.fmi_version != 3)
    throw std::invalid_argument("model configuration: fmi=2, but the model declares clocks, which FMI 2.0 does not "
                                "have; build it as FMI 3.0");
  std::set<ValueRef> previous_seen;
  for (const Variable& v : d.variables) {
    if (v.type == VarType::clock) check_clock(v);
    for (ValueRef c : v.clocks)
      if (c >= d.variables.size() || d.variables[c].type != VarType::clock)
        throw std::invalid_argument("declare: \"" + v.name + "\" lists clock " + std::to_string(c) +
                                    ", which is not a Clock");
    if (!v.clocks.empty() && v.variability != Variability::discrete && v.variability != Variability::tunable)
      throw std::invalid_argument("declare: clocked variable \"" + v.name + "\" must be discrete or tunable");
    if (v.previous == kNoValueRef) continue;
    const bool bad = v.previous >= d.variables.size() || v.previous == v.value_reference || v.clocks.empty() ||
                     v.variability != Variability::discrete || !previous_seen.insert(v.previous).second;
    if (bad || d.variables[v.previous].type != v.type ||
        d.variables[v.previous].variability != Variability::discrete ||
        d.variables[v.previous].causality == Causality::input)
      throw std::invalid_argument("declare: clocked state \"" + v.name +
                                  "\": previous must name another discrete variable of the same type, not an "
                                  "input, used by no other state, and the state must be clocked and discrete");
  }
}

}  // namespace

bool Description::settable_in_dae_mode(ValueRef vr) const {
  if (vr >= variables.size()) return false;
  const Variable& v = variables[vr];
  if (v.algebraic) return true;
  return form == Form::fully_implicit && v.derivative_of != kNoValueRef;
}

Description describe(Model& model, const Config& config) {
  Description d;
  d.config = config;
  const std::string shape = config.get_string("manifest", "none");
  if (shape == "none") d.manifest = ManifestShape::none;
  else if (shape == "A") d.manifest = ManifestShape::A;
  else if (shape == "B") d.manifest = ManifestShape::B;
  else
    throw std::invalid_argument("model configuration: key \"manifest\" is \"" + shape +
                                "\"; allowed values: none, A, B");
  const std::string implicit_form = config.get_string("implicit_form", "derivatives");
  if (implicit_form != "derivatives" && implicit_form != "openmodelica")
    throw std::invalid_argument("model configuration: key \"implicit_form\" is \"" + implicit_form +
                                "\"; allowed values: derivatives, openmodelica");
  d.openmodelica_form = implicit_form == "openmodelica";
  RecordingBuilder builder(d);
  model.declare(builder);
  builder.check_expected();

  // Collect the state/derivative pairs in declaration order of the derivatives.
  for (const Variable& v : d.variables) {
    if (v.derivative_of == kNoValueRef) continue;
    d.states.push_back(v.derivative_of);
    d.derivatives.push_back(v.value_reference);
  }
  std::set<ValueRef> state_set(d.states.begin(), d.states.end());
  if (state_set.size() != d.states.size()) throw std::invalid_argument("declare: a state has two derivatives");
  // An explicit order of the derivatives / outputs (Builder::state_order, output_order).
  auto reorder = [](std::vector<ValueRef>& list, const std::vector<ValueRef>& order, const char* what) {
    if (order.empty()) return;
    if (std::set<ValueRef>(order.begin(), order.end()) != std::set<ValueRef>(list.begin(), list.end()) ||
        order.size() != list.size())
      throw std::invalid_argument(std::string("declare: ") + what + " must list every declared one exactly once");
    list = order;
  };
  reorder(d.derivatives, builder.state_order_, "state_order");
  d.states.clear();
  for (ValueRef der : d.derivatives) d.states.push_back(d.variables[der].derivative_of);
  reorder(d.outputs, builder.output_order_, "output_order");

  // The DAE enable switch: required by shape B, optional for shape A.
  const bool want_switch = d.manifest == ManifestShape::B ||
                           (d.manifest == ManifestShape::A && config.get_string("enable_dae_switch", "false") == "true");
  if (want_switch) {
    Variable sw;
    sw.type = VarType::boolean;
    sw.name = "enableDAEMode";
    sw.description = "FMI-LS-DAE: true switches the FMU from ODE mode to DAE mode (set in Configuration Mode)";
    sw.causality = Causality::structural_parameter;
    sw.variability = Variability::fixed;
    sw.initial = Initial::exact;
    sw.start = 0.0;
    d.dae_switch = builder.add(std::move(sw));
  }

  // FMI version and, for 2.0, the constraint extension's exports.
  const std::string fmi = config.get_string("fmi", "3");
  if (fmi != "2" && fmi != "3")
    throw std::invalid_argument("model configuration: key \"fmi\" is \"" + fmi + "\"; allowed values: 2, 3");
  d.fmi_version = fmi == "2" ? 2 : 3;
  if (d.fmi_version == 2 && d.manifest != ManifestShape::none)
    throw std::invalid_argument("model configuration: fmi=2 with manifest=" + shape +
                                ": FMI 2.0 Model Exchange has no DAE mode, so an FMI 2.0 variant cannot carry an "
                                "LS-DAE manifest; build the model's ODE form (form=ode manifest=none) for FMI 2.0");
  // The constraint extension exists for FMI 2.0 only: an FMI 3.0 variant of
  // a model with constraints is the plain ODE (nothing exported).
  if (d.fmi_version != 2) {
    for (const char* key : {"provides_constraints", "provides_projection", "provides_projection_step"})
      if (config.values().count(key) != 0)
        throw std::invalid_argument(std::string("model configuration: key \"") + key +
                                    "\" needs fmi=2 (the constraint extension of Najafi et al. extends FMI 2.0)");
  } else {
    const bool jac = d.constraint_jacobian;
    const std::string have = d.max_constraints == 0 ? "false" : jac ? "withJacobian" : "true";
    const std::string want = config.get_string("provides_constraints", have);
    const int rank_have = have == "false" ? 0 : have == "true" ? 1 : 2;
    const int rank_want = want == "false" ? 0 : want == "true" ? 1 : want == "withJacobian" ? 2 : -1;
    if (rank_want < 0)
      throw std::invalid_argument("model configuration: key \"provides_constraints\" is \"" + want +
                                  "\"; allowed values: false, true, withJacobian");
    if (rank_want > rank_have)
      throw std::invalid_argument("model configuration: provides_constraints=" + want + " but the model declares " +
                                  (rank_have == 0 ? "no constraints" : "constraints without a Jacobian"));
    d.provides_constraints = rank_want == 0   ? Description::Constraints::none
                             : rank_want == 1 ? Description::Constraints::values
                                              : Description::Constraints::with_jacobian;
    auto flag = [&](const std::string& key) {
      const bool can = d.max_constraints != 0 && jac;  // the projection needs the model's Jacobian
      const std::string value = config.get_string(key, can ? "true" : "false");
      if (value != "true" && value != "false")
        throw std::invalid_argument("model configuration: key \"" + key + "\" is \"" + value +
                                    "\"; allowed values: true, false");
      if (value == "true" && !can)
        throw std::invalid_argument("model configuration: " + key +
                                    "=true needs constraints declared with a Jacobian (Builder::constraints)");
      return value == "true";
    };
    d.provides_projection = flag("provides_projection");
    d.provides_projection_step = flag("provides_projection_step");
  }
  for (const auto& [alias, original] : d.aliases) {
    const Variable& a = d.variables[alias];
    const Variable& o = d.variables[original];
    if (a.type != VarType::float64 || o.type != VarType::float64 || a.derivative_of != kNoValueRef ||
        o.derivative_of != kNoValueRef || state_set.count(alias) != 0 || d.aliases.count(original) != 0 ||
        a.start.has_value())
      throw std::invalid_argument("declare: alias(\"" + a.name + "\", \"" + o.name +
                                  "\"): both must be Float64, neither a derivative, the alias no state, without a "
                                  "start value, and the original no alias itself");
  }

  // Layout variations (description.h).
  auto optional_choice = [&](const std::string& key, const std::string& fallback, const std::string& other) {
    const std::string value = config.get_string(key, fallback);
    if (value != fallback && value != other)
      throw std::invalid_argument("model configuration: key \"" + key + "\" is \"" + value + "\"; allowed values: " +
                                  fallback + ", " + other);
    return value == other;
  };
  d.scattered_value_references = optional_choice("value_references", "dense", "scattered");
  optional_choice("variable_order", "declared", "reversed");
  if (optional_choice("manifest_outputs", "first", "last") && d.manifest != ManifestShape::A)
    throw std::invalid_argument("model configuration: manifest_outputs=last needs manifest=A (shape B fixes the order "
                                "of its ModelStructure)");
  if (d.scattered_value_references) {
    std::set<ValueRef> seen;
    for (const Variable& v : d.variables)
      if (!seen.insert(d.external_vr(v.value_reference)).second || d.external_vr(v.value_reference) == kNoValueRef)
        throw std::invalid_argument("value_references=scattered: no distinct value reference for \"" + v.name + "\"");
  }

  // Consistency checks.
  if (d.model_name.empty()) throw std::invalid_argument("declare: model_name() was not called");
  if (d.manifest == ManifestShape::none && d.form != Form::ode)
    throw std::invalid_argument("model configuration: form is a DAE form but manifest=none; choose manifest=A or B");
  if (d.manifest != ManifestShape::none && d.form == Form::ode)
    throw std::invalid_argument("model configuration: an ODE-form model cannot carry an LS-DAE manifest");
  if (d.openmodelica_form && (d.form != Form::fully_implicit || d.manifest != ManifestShape::B))
    throw std::invalid_argument("model configuration: implicit_form=openmodelica needs a fully implicit model and "
                                "manifest=B (OpenModelica's DAE export writes shape B)");
  if (d.manifest == ManifestShape::none && (!d.residual_groups.empty() || !d.algebraic.empty()))
    throw std::invalid_argument("declare: residuals or algebraic variables declared for an FMU without manifest");
  for (const ResidualGroup& g : d.residual_groups) {
    int previous = 1 << 30;
    for (const Formulation& f : g.formulations) {
      if (f.residual >= d.variables.size())
        throw std::invalid_argument("declare: residual group names value reference " + std::to_string(f.residual));
      const std::string& name = d.variables[f.residual].name;
      if (f.index != 0) {
        if (f.index >= previous)
          throw std::invalid_argument("declare: residual group of \"" + name +
                                      "\": formulation indices must decrease, got " + std::to_string(f.index) +
                                      " after " + std::to_string(previous));
        previous = f.index;
      }
      check_dependencies(d, f.dependencies, name);
    }
  }
  for (const auto& [vr, deps] : d.dae_dependencies) check_dependencies(d, deps, d.variables[vr].name);
  for (const auto& [vr, deps] : d.ode_dependencies) check_dependencies(d, deps, d.variables[vr].name);
  for (ValueRef e : d.event_indicators)
    if (d.variables[e].type != VarType::float64)
      throw std::invalid_argument("declare: event indicator \"" + d.variables[e].name + "\" is not a Float64");
  check_clocks(d);
  d.lenient_clocked_access = optional_choice("clocked_access", "strict", "lenient");
  d.abort_when_freed = optional_choice("free_fault", "none", "abort");
  if (d.lenient_clocked_access && d.clocks.empty())
    throw std::invalid_argument("model configuration: clocked_access=lenient, but the model declares no clock");
  const std::string fmu_state = config.get_string("fmu_state", "none");
  if (fmu_state == "none") d.fmu_state = Description::FmuState::none;
  else if (fmu_state == "get_set") d.fmu_state = Description::FmuState::get_set;
  else if (fmu_state == "serialize") d.fmu_state = Description::FmuState::serialize;
  else
    throw std::invalid_argument("model configuration: key \"fmu_state\" is \"" + fmu_state +
                                "\"; allowed values: none, get_set, serialize");
  // A variant without directional derivatives (as many exporters ship).
  if (optional_choice("provides_directional_derivatives", "true", "false")) d.provides_partials = false;
  d.directional_cost = config.get_int("directional_cost", 1);
  if (d.directional_cost < 1 || d.directional_cost > 1000000)
    throw std::invalid_argument("model configuration: key \"directional_cost\" is " + std::to_string(d.directional_cost) +
                                "; allowed: 1 to 1000000 (the partials computed that many times per call)");
  if (d.directional_cost > 1 && !d.provides_partials)
    throw std::invalid_argument("model configuration: directional_cost=" + std::to_string(d.directional_cost) +
                                ", but the model provides no directional derivatives");
  apply_claims(d);

  // Instantiation token: a digest of everything that fixes the variable layout.
  std::ostringstream digest;
  digest << format_config(config) << '|' << d.model_name;
  for (const Variable& v : d.variables)
    digest << '|' << v.name << ':' << static_cast<int>(v.type) << ':' << static_cast<int>(v.causality) << ':'
           << static_cast<int>(v.variability) << ':' << v.derivative_of;
  char token[64];
  std::snprintf(token, sizeof token, "{lsdae-%016llx}", static_cast<unsigned long long>(fnv1a(digest.str())));
  d.instantiation_token = token;
  return d;
}

std::string format_config(const Config& config) {
  std::string out;
  for (const auto& [key, value] : config.values()) out += key + "=" + value + "\n";
  return out;
}

Config parse_config(const std::string& text, const std::string& where) {
  std::map<std::string, std::string> values;
  std::istringstream in(text);
  std::string line;
  int line_number = 0;
  while (std::getline(in, line)) {
    ++line_number;
    if (line.empty() || line[0] == '#') continue;
    const auto eq = line.find('=');
    if (eq == std::string::npos || eq == 0)
      throw std::invalid_argument(where + ":" + std::to_string(line_number) + ": expected key=value, got \"" + line +
                                  "\"");
    values[line.substr(0, eq)] = line.substr(eq + 1);
  }
  return Config(std::move(values));
}

}  // namespace lsdae::kit
