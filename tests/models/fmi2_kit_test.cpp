// tests/models/fmi2_kit_test.cpp -- the kit's FMI 2.0 output, for every
// FMI 2.0 variant in build/fmus/catalog_fmi2.tsv, driven through the fmi2
// functions directly (fmi2_harness.h):
//   * modelDescription.xml 2.0 is consistent: 1-based indices that point at
//     the right variables, Derivatives in state order, Outputs complete,
//     InitialUnknowns sorted, dependencies naming states/inputs/time only,
//     aliases only where allowed;
//   * fmi2Instantiate checks the guid, the FMU type and the FMI version;
//   * the 2.0 state machine, with fmi2 function names in every message;
//   * the 2.0 build computes what the 3.0 build of the same model computes
//     (derivatives, outputs, event indicators, next event time, directional
//     derivatives, dependencies), bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>

#include "fmi2_harness.h"
#include "fmu_fixture.h"

namespace lsdae::test {
namespace {

namespace f2 = lsdae::test::fmi2;

const std::vector<CatalogEntry>& catalog2() {
  static const std::vector<CatalogEntry> c = f2::read_catalog_fmi2();
  return c;
}
const CatalogEntry& entry3(const std::string& name) {
  static const std::vector<CatalogEntry> c = read_catalog();
  for (const auto& e : c)
    if (e.name == name) return e;
  throw std::runtime_error("no FMU " + name + " in catalog.tsv");
}
const CatalogEntry& entry2(const std::string& name) {
  for (const auto& e : catalog2())
    if (e.name == name) return e;
  throw std::runtime_error("no FMU " + name + " in catalog_fmi2.tsv");
}

// The FMI 3.0 build of each 2.0 variant's model (same config but fmi and layout).
std::string counterpart(const std::string& name) {
  static const std::map<std::string, std::string> table = {
      {"HelloWorld_fmi2_ode", "HelloWorld_ode"},
      {"BouncingBall_fmi2", "BouncingBall_ode"},
      {"TimeEvent_fmi2", "TimeEvent_ode"},
      {"TransmissionLine_fmi2_ode_10", "TransmissionLine_ode_10"},
      {"TransmissionLine_fmi2_ode_80", "TransmissionLine_ode_80"},
      {"NajafiPendulum_fmi2", "NajafiPendulum_ode"},
      {"NajafiPendulum_fmi2_energy", "NajafiPendulum_ode"},
      {"NajafiPendulum_fmi2_plain", "NajafiPendulum_ode"},
      {"NajafiPendulum_fmi2_values_only", "NajafiPendulum_ode"},
      {"NajafiPendulum_fmi2_projection_step", "NajafiPendulum_ode"},
      {"NajafiPendulum_fmi2_no_projection", "NajafiPendulum_ode"},
      {"SlidingMass_fmi2", "SlidingMass"},
  };
  auto it = table.find(name);
  if (it == table.end()) throw std::runtime_error(name + ": add its FMI 3.0 counterpart to the test's table");
  return it->second;
}

TEST(Fmi2Catalog, HasTheRequiredVariants) {
  std::set<std::string> names;
  for (const auto& e : catalog2()) names.insert(e.name);
  for (const char* required : {"HelloWorld_fmi2_ode", "BouncingBall_fmi2", "TimeEvent_fmi2",
                               "TransmissionLine_fmi2_ode_10", "TransmissionLine_fmi2_ode_80", "NajafiPendulum_fmi2",
                               "NajafiPendulum_fmi2_energy"})
    EXPECT_EQ(names.count(required), 1u) << required;
}

class Fmi2Variant : public ::testing::TestWithParam<CatalogEntry> {
 protected:
  void SetUp() override {
    d_ = f2::parse(GetParam().stage_dir);
    f_ = f2::load(GetParam().stage_dir, d_.model_identifier);
  }
  void TearDown() override { f2::unload(f_); }
  f2::Description d_;
  f2::Functions f_;
  f2::Log log_;
};

TEST_P(Fmi2Variant, ModelDescriptionIsConsistent) {
  const f2::Description& d = d_;
  EXPECT_EQ(d.fmi_version, "2.0");
  EXPECT_FALSE(d.guid.empty());
  EXPECT_EQ(d.model_identifier, GetParam().identifier);
  EXPECT_TRUE(std::filesystem::exists(GetParam().stage_dir + "/binaries/linux64/" + d.model_identifier + ".so"));
  EXPECT_STREQ(f_.get_version(), "2.0");
  EXPECT_STREQ(f_.get_types_platform(), "default");

  const std::vector<std::size_t> states = d.state_indices();
  const std::set<std::size_t> state_set(states.begin(), states.end());
  EXPECT_EQ(state_set.size(), states.size()) << "a state listed twice";
  std::size_t with_derivative = 0;
  for (const f2::Variable& v : d.variables) {
    if (!v.derivative) continue;
    ++with_derivative;
    const f2::Variable& x = d.at(*v.derivative);
    EXPECT_EQ(v.type, "Real") << v.name;
    EXPECT_EQ(x.type, "Real") << v.name << " -> " << x.name;
    EXPECT_EQ(x.variability, "continuous") << x.name;
    EXPECT_EQ(v.name, "der(" + x.name + ")") << "derivative index of " << v.name << " points at " << x.name;
  }
  EXPECT_EQ(with_derivative, d.derivatives.size()) << "every derivative is listed in <Derivatives>";
  for (const f2::Unknown& u : d.derivatives) EXPECT_TRUE(d.at(u.index).derivative) << d.at(u.index).name;

  std::set<std::size_t> outputs, listed_outputs;
  for (const f2::Variable& v : d.variables)
    if (v.causality == "output") outputs.insert(v.index);
  for (const f2::Unknown& u : d.outputs) listed_outputs.insert(u.index);
  EXPECT_EQ(outputs, listed_outputs);

  std::vector<std::size_t> initial;
  for (const f2::Unknown& u : d.initial_unknowns) initial.push_back(u.index);
  EXPECT_TRUE(std::is_sorted(initial.begin(), initial.end())) << "InitialUnknowns must be ordered by index";
  EXPECT_EQ(std::set<std::size_t>(initial.begin(), initial.end()).size(), initial.size());
  for (const f2::Unknown& u : d.derivatives)
    EXPECT_TRUE(std::binary_search(initial.begin(), initial.end(), u.index)) << d.at(u.index).name;
  for (const f2::Variable& v : d.variables)
    if ((v.causality == "output" && v.initial != "exact") || v.causality == "calculatedParameter") {
      EXPECT_TRUE(std::binary_search(initial.begin(), initial.end(), v.index)) << v.name;
    }

  const std::set<std::string> kinds = {"dependent", "constant", "fixed", "tunable", "discrete"};
  for (const auto* list : {&d.outputs, &d.derivatives})
    for (const f2::Unknown& u : *list) {
      EXPECT_EQ(u.dependencies.size(), u.kinds.size()) << d.at(u.index).name;
      for (std::size_t k : u.dependencies) {
        const f2::Variable& known = d.at(k);
        EXPECT_TRUE(state_set.count(k) != 0 || known.causality == "input" || known.causality == "independent")
            << d.at(u.index).name << " depends on " << known.name;
      }
      for (const std::string& kind : u.kinds) EXPECT_EQ(kinds.count(kind), 1u) << kind;
    }

  // Value references: shared only by an alias pair (same type, one start at most).
  std::map<fmi2ValueReference, std::vector<const f2::Variable*>> by_vr;
  for (const f2::Variable& v : d.variables) by_vr[v.vr].push_back(&v);
  for (const auto& [vr, vars] : by_vr) {
    if (vars.size() == 1) continue;
    int starts = 0;
    for (const f2::Variable* v : vars) {
      EXPECT_EQ(v->type, vars.front()->type) << "alias " << v->name;
      starts += v->start ? 1 : 0;
    }
    EXPECT_LE(starts, 1) << "value reference " << vr;
  }
}

TEST_P(Fmi2Variant, InstantiateChecksGuidTypeAndVersion) {
  fmi2CallbackFunctions callbacks{};
  callbacks.logger = &f2::Log::logger;
  callbacks.componentEnvironment = &log_;
  const std::string uri = f2::resource_uri(GetParam().stage_dir);
  EXPECT_EQ(f_.instantiate("a", fmi2ModelExchange, "{wrong-guid}", uri.c_str(), &callbacks, fmi2False, fmi2False),
            nullptr);
  ASSERT_FALSE(log_.messages.empty());
  EXPECT_NE(log_.messages.back().find("guid \"{wrong-guid}\" does not match"), std::string::npos) << log_.all();
  EXPECT_EQ(log_.messages.back().find("fmi3"), std::string::npos) << log_.all();
  EXPECT_EQ(f_.instantiate("a", fmi2CoSimulation, d_.guid.c_str(), uri.c_str(), &callbacks, fmi2False, fmi2False),
            nullptr);
  EXPECT_NE(log_.messages.back().find("Model Exchange only"), std::string::npos) << log_.all();
  // The same binary with the FMI 3.0 variant's resources and token: refused by fmi2Instantiate.
  const CatalogEntry& e3 = entry3(counterpart(GetParam().name));
  const ParsedFmu fmu3 = parse_fmu(e3.stage_dir);
  EXPECT_EQ(f_.instantiate("a", fmi2ModelExchange, fmu3.token.c_str(), f2::resource_uri(e3.stage_dir).c_str(),
                           &callbacks, fmi2False, fmi2False),
            nullptr);
  EXPECT_NE(log_.messages.back().find("is FMI 3; load it through that version's functions"), std::string::npos)
      << log_.all();
  fmi2Component c =
      f_.instantiate("a", fmi2ModelExchange, d_.guid.c_str(), uri.c_str(), &callbacks, fmi2False, fmi2False);
  ASSERT_NE(c, nullptr) << log_.all();
  f_.free_instance(c);
}

TEST_P(Fmi2Variant, StateMachine) {
  fmi2CallbackFunctions callbacks{};
  callbacks.logger = &f2::Log::logger;
  callbacks.componentEnvironment = &log_;
  const std::string uri = f2::resource_uri(GetParam().stage_dir);
  fmi2Component c =
      f_.instantiate("sm", fmi2ModelExchange, d_.guid.c_str(), uri.c_str(), &callbacks, fmi2False, fmi2False);
  ASSERT_NE(c, nullptr) << log_.all();
  EXPECT_EQ(f_.enter_continuous_time(c), fmi2Error);
  EXPECT_NE(log_.messages.back().find("fmi2EnterContinuousTimeMode: not allowed in Instantiated"), std::string::npos)
      << log_.all();
  ASSERT_EQ(f_.setup_experiment(c, fmi2True, 1e-6, 0.0, fmi2False, 0.0), fmi2OK);
  ASSERT_EQ(f_.enter_initialization(c), fmi2OK);
  EXPECT_EQ(f_.setup_experiment(c, fmi2False, 0.0, 0.0, fmi2False, 0.0), fmi2Error);
  ASSERT_EQ(f_.exit_initialization(c), fmi2OK);
  fmi2EventInfo info{};
  ASSERT_EQ(f_.new_discrete_states(c, &info), fmi2OK);
  EXPECT_EQ(info.newDiscreteStatesNeeded, fmi2False);
  EXPECT_EQ(info.terminateSimulation, fmi2False);
  ASSERT_EQ(f_.enter_continuous_time(c), fmi2OK);
  const std::size_t n = d_.derivatives.size();
  std::vector<double> x(n), dx(n), nominals(n);
  ASSERT_EQ(f_.get_states(c, x.data(), n), fmi2OK);
  ASSERT_EQ(f_.get_derivatives(c, dx.data(), n), fmi2OK);
  ASSERT_EQ(f_.get_nominals(c, nominals.data(), n), fmi2OK);
  EXPECT_EQ(f_.get_derivatives(c, dx.data(), n + 1), fmi2Error);
  EXPECT_NE(log_.messages.back().find("fmi2GetDerivatives: got"), std::string::npos) << log_.all();
  fmi2Boolean enter = fmi2True, terminate = fmi2True;
  ASSERT_EQ(f_.completed_integrator_step(c, fmi2True, &enter, &terminate), fmi2OK);
  EXPECT_EQ(enter, fmi2False);
  EXPECT_EQ(terminate, fmi2False);
  ASSERT_EQ(f_.set_time(c, 0.5), fmi2OK);
  ASSERT_EQ(f_.enter_event(c), fmi2OK);
  ASSERT_EQ(f_.new_discrete_states(c, &info), fmi2OK);
  ASSERT_EQ(f_.enter_continuous_time(c), fmi2OK);
  // A value reference no variable has: an error naming the fmi2 function.
  const fmi2ValueReference nowhere = 0x7ffffff0u;
  double value = 0;
  EXPECT_EQ(f_.get_real(c, &nowhere, 1, &value), fmi2Error);
  EXPECT_NE(log_.messages.back().find("fmi2GetReal"), std::string::npos) << log_.all();
  EXPECT_EQ(log_.messages.back().find("fmi3"), std::string::npos) << log_.all();
  fmi2Integer integer = 0;
  EXPECT_EQ(f_.get_integer(c, nullptr, 0, &integer), fmi2OK);
  EXPECT_EQ(f_.get_real(c, nullptr, 0, nullptr), fmi2OK);
  EXPECT_EQ(f_.get_integer(c, &nowhere, 1, &integer), fmi2Error);
  EXPECT_EQ(f_.do_step(c, 0.0, 0.1, fmi2True), fmi2Error);
  EXPECT_NE(log_.messages.back().find("Model Exchange only"), std::string::npos) << log_.all();
  fmi2FMUstate state = nullptr;
  if (read_model_config(GetParam().stage_dir).count("fmu_state") == 0) {  // the state functions refuse
    EXPECT_EQ(f_.get_fmu_state(c, &state), fmi2Error);
    EXPECT_NE(log_.messages.back().find("fmi2GetFMUstate: canGetAndSetFMUstate is false"), std::string::npos)
        << log_.all();
  }
  ASSERT_EQ(f_.terminate(c), fmi2OK);
  EXPECT_EQ(f_.enter_event(c), fmi2Error);
  ASSERT_EQ(f_.reset(c), fmi2OK);
  ASSERT_EQ(f_.setup_experiment(c, fmi2False, 0.0, 0.0, fmi2False, 0.0), fmi2OK);
  ASSERT_EQ(f_.enter_initialization(c), fmi2OK);
  ASSERT_EQ(f_.exit_initialization(c), fmi2OK);
  std::vector<double> x_again(n);
  ASSERT_EQ(f_.get_states(c, x_again.data(), n), fmi2OK);
  EXPECT_EQ(x_again, x) << "fmi2Reset restores the start values";
  f_.free_instance(c);
}

// The 2.0 and the 3.0 build of one model agree bit for bit.
TEST_P(Fmi2Variant, ComputesWhatTheFmi3BuildComputes) {
  const CatalogEntry& e3 = entry3(counterpart(GetParam().name));
  const ParsedFmu fmu3 = parse_fmu(e3.stage_dir);
  Fmi3Functions f3 = load_binary(e3.stage_dir, fmu3.model_identifier);
  LogSink log3;
  const std::string resources3 = e3.stage_dir + "/resources/";
  fmi3Instance i3 =
      f3.instantiate("three", fmu3.token.c_str(), resources3.c_str(), false, false, &log3, &LogSink::callback);
  ASSERT_NE(i3, nullptr);
  ASSERT_EQ(f3.enter_initialization(i3, false, 0.0, 0.0, false, 0.0), fmi3OK);
  ASSERT_EQ(f3.exit_initialization(i3), fmi3OK);
  fmi3Boolean need = true, term = false, nominals = false, values = false, next_defined = false;
  double next_time = 0;
  ASSERT_EQ(f3.update_discrete_states(i3, &need, &term, &nominals, &values, &next_defined, &next_time), fmi3OK);
  ASSERT_EQ(f3.enter_continuous_time(i3), fmi3OK);
  // Zero value references (NULL list) is a valid, empty request in both
  // versions (regression: it was an error when the list pointer was NULL).
  EXPECT_EQ(f3.get_float64(i3, nullptr, 0, nullptr, 0), fmi3OK);

  f2::Session two(f_, d_, GetParam().stage_dir, log_);
  EXPECT_EQ(two.first_event_info().nextEventTimeDefined != fmi2False, next_defined);
  if (next_defined) {
    EXPECT_EQ(two.first_event_info().nextEventTime, next_time);
  }

  // State and derivative names in each build's order.
  const std::vector<fmi3ValueReference> states3 = fmu3.states(), derivatives3 = fmu3.derivatives();
  const std::vector<std::size_t> states2 = d_.state_indices();
  ASSERT_EQ(states2.size(), states3.size());
  const std::size_t n = states2.size();
  std::map<std::string, std::size_t> position3;
  for (std::size_t i = 0; i < n; ++i) position3[fmu3.var(states3[i]).name] = i;
  std::vector<std::size_t> to3(n);
  for (std::size_t i = 0; i < n; ++i) to3[i] = position3.at(d_.at(states2[i]).name);

  std::size_t events3 = 0;
  for (const auto& u : fmu3.core_event_indicators) (void)u, ++events3;
  ASSERT_EQ(d_.number_of_event_indicators, events3);

  std::vector<double> x3(n), x2(n), dx3(n), dx2(n), z3(events3), z2(events3);
  ASSERT_EQ(f3.get_states(i3, x3.data(), n), fmi3OK);
  for (int point = 0; point < 6; ++point) {
    // Start values, then points moved off them deterministically.
    std::vector<double> x(n);
    for (std::size_t i = 0; i < n; ++i)
      x[i] = x3[i] + (point == 0 ? 0.0 : 0.3 * point * std::sin(1.7 * static_cast<double>(i) + point));
    const double t = 0.37 * point;
    for (std::size_t i = 0; i < n; ++i) x2[i] = x[to3[i]];
    ASSERT_EQ(f3.set_time(i3, t), fmi3OK);
    ASSERT_EQ(f3.set_states(i3, x.data(), n), fmi3OK);
    ASSERT_EQ(f_.set_time(two.c(), t), fmi2OK);
    ASSERT_EQ(f_.set_states(two.c(), x2.data(), n), fmi2OK);
    ASSERT_EQ(f3.get_derivatives(i3, dx3.data(), n), fmi3OK);
    ASSERT_EQ(f_.get_derivatives(two.c(), dx2.data(), n), fmi2OK);
    for (std::size_t i = 0; i < n; ++i)
      EXPECT_EQ(dx2[i], dx3[to3[i]]) << "der(" << d_.at(states2[i]).name << ") at point " << point;
    if (events3 != 0) {
      ASSERT_EQ(f3.get_event_indicators(i3, z3.data(), events3), fmi3OK);
      ASSERT_EQ(f_.get_event_indicators(two.c(), z2.data(), events3), fmi2OK);
      EXPECT_EQ(z2, z3) << "event indicators at point " << point;
    }
    for (const f2::Unknown& u : d_.outputs) {
      const f2::Variable& v = d_.at(u.index);
      double y2 = 0, y3 = 0;
      const fmi3ValueReference vr3 = fmu3.by_name.at(v.name);
      ASSERT_EQ(f_.get_real(two.c(), &v.vr, 1, &y2), fmi2OK);
      ASSERT_EQ(f3.get_float64(i3, &vr3, 1, &y3, 1), fmi3OK);
      EXPECT_EQ(y2, y3) << v.name << " at point " << point;
    }
    if (d_.provides_directional && fmu3.provides_directional) {
      std::vector<fmi2ValueReference> unknowns2;
      for (const f2::Unknown& u : d_.derivatives) unknowns2.push_back(d_.at(u.index).vr);
      for (std::size_t j = 0; j < n; ++j) {
        const double seed = 1.0;
        const fmi2ValueReference known2 = d_.at(states2[j]).vr;
        const fmi3ValueReference known3 = states3[to3[j]];
        std::vector<double> s2(n), s3(n);
        ASSERT_EQ(f_.get_directional_derivative(two.c(), unknowns2.data(), n, &known2, 1, &seed, s2.data()), fmi2OK)
            << log_.all();
        ASSERT_EQ(f3.get_directional_derivative(i3, derivatives3.data(), n, &known3, 1, &seed, 1, s3.data(), n),
                  fmi3OK);
        for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(s2[i], s3[to3[i]]) << "column " << j << " row " << i;
      }
    }
  }
  f3.free_instance(i3);
  unload_binary(f3);
}

// The dependencies of the 2.0 file name the same knowns with the same kinds
// as the 3.0 file (whose dependencies the corpus tests check against the model).
TEST_P(Fmi2Variant, DependenciesMatchTheFmi3Build) {
  const ParsedFmu fmu3 = parse_fmu(entry3(counterpart(GetParam().name)).stage_dir);
  std::map<std::string, std::vector<std::pair<std::string, std::string>>> deps3;
  std::set<std::string> without3;
  for (const auto* list : {&fmu3.core_outputs, &fmu3.core_derivatives})
    for (const XmlUnknown& u : *list) {
      if (!u.has_dependencies) {
        without3.insert(fmu3.var(u.vr).name);
        continue;
      }
      auto& out = deps3[fmu3.var(u.vr).name];
      for (std::size_t k = 0; k < u.dependencies.size(); ++k)
        out.emplace_back(fmu3.var(u.dependencies[k]).name, u.kinds[k]);
    }
  for (const auto* list : {&d_.outputs, &d_.derivatives})
    for (const f2::Unknown& u : *list) {
      const std::string name = d_.at(u.index).name;
      if (!u.has_dependencies) {
        EXPECT_EQ(without3.count(name), 1u) << name;
        continue;
      }
      std::vector<std::pair<std::string, std::string>> deps2;
      for (std::size_t k = 0; k < u.dependencies.size(); ++k)
        deps2.emplace_back(d_.at(u.dependencies[k]).name, u.kinds[k]);
      ASSERT_EQ(deps3.count(name), 1u) << name;
      EXPECT_EQ(deps2, deps3.at(name)) << name;
    }
}

INSTANTIATE_TEST_SUITE_P(Models, Fmi2Variant, ::testing::ValuesIn(catalog2()),
                         [](const ::testing::TestParamInfo<CatalogEntry>& param) { return param.param.name; });

// TimeEvent_fmi2: ModelVariables reversed, and the output y an alias of the state x.
TEST(Fmi2Layout, ReversedOrderAndAnAliasOutput) {
  const CatalogEntry& e = entry2("TimeEvent_fmi2");
  const f2::Description d = f2::parse(e.stage_dir);
  EXPECT_EQ(d.variables.back().name, "time") << "variable_order=reversed lists time last";
  EXPECT_EQ(d.variables.back().index, d.variables.size());
  const f2::Variable& x = d.named("x");
  const f2::Variable& y = d.named("y");
  EXPECT_EQ(y.vr, x.vr) << "y is an alias of x";
  EXPECT_EQ(y.causality, "output");
  EXPECT_FALSE(y.start);
  EXPECT_TRUE(x.start);
  f2::Functions f = f2::load(e.stage_dir, d.model_identifier);
  f2::Log log;
  {
    f2::Session s(f, d, e.stage_dir, log);
    const double state = 0.625;
    ASSERT_EQ(f.set_states(s.c(), &state, 1), fmi2OK);
    double value = 0;
    ASSERT_EQ(f.get_real(s.c(), &y.vr, 1, &value), fmi2OK);
    EXPECT_EQ(value, state);
  }
  f2::unload(f);
}

// HelloWorld_fmi2_ode is built with fmu_state=serialize: the FMI 2.0 names of
// the kit's FMU state (models/kit/instance_state.cpp), a state set back or
// read from bytes reproduces the derivatives bit for bit, and the start time
// of fmi2SetupExperiment travels with it.
TEST(Fmi2State, GetSetSerializeReproduceTheDerivativesBitwise) {
  const CatalogEntry& e = entry2("HelloWorld_fmi2_ode");
  const f2::Description d = f2::parse(e.stage_dir);
  f2::Functions f = f2::load(e.stage_dir, d.model_identifier);
  f2::Log log;
  {
    f2::Session s(f, d, e.stage_dir, log);
    const std::size_t n = d.state_indices().size();
    std::vector<double> x(n), dx(n), dx_after(n), moved(n, 3.5);
    ASSERT_EQ(f.set_time(s.c(), 0.25), fmi2OK);
    ASSERT_EQ(f.get_states(s.c(), x.data(), n), fmi2OK);
    for (std::size_t k = 0; k < n; ++k) x[k] += 0.125 * static_cast<double>(k + 1);
    ASSERT_EQ(f.set_states(s.c(), x.data(), n), fmi2OK);
    ASSERT_EQ(f.get_derivatives(s.c(), dx.data(), n), fmi2OK);
    fmi2FMUstate state = nullptr;
    ASSERT_EQ(f.get_fmu_state(s.c(), &state), fmi2OK) << log.all();
    ASSERT_EQ(f.set_states(s.c(), moved.data(), n), fmi2OK);
    ASSERT_EQ(f.set_time(s.c(), 0.75), fmi2OK);
    ASSERT_EQ(f.set_fmu_state(s.c(), state), fmi2OK) << log.all();
    ASSERT_EQ(f.get_derivatives(s.c(), dx_after.data(), n), fmi2OK);
    EXPECT_EQ(0, std::memcmp(dx.data(), dx_after.data(), n * sizeof(double)));

    size_t size = 0;
    ASSERT_EQ(f.serialized_fmu_state_size(s.c(), state, &size), fmi2OK) << log.all();
    std::vector<fmi2Byte> bytes(size);
    ASSERT_EQ(f.serialize_fmu_state(s.c(), state, bytes.data(), size), fmi2OK) << log.all();
    ASSERT_EQ(f.free_fmu_state(s.c(), &state), fmi2OK);
    ASSERT_EQ(f.set_states(s.c(), moved.data(), n), fmi2OK);
    ASSERT_EQ(f.deserialize_fmu_state(s.c(), bytes.data(), size, &state), fmi2OK) << log.all();
    ASSERT_EQ(f.set_fmu_state(s.c(), state), fmi2OK) << log.all();
    std::fill(dx_after.begin(), dx_after.end(), 0.0);
    ASSERT_EQ(f.get_derivatives(s.c(), dx_after.data(), n), fmi2OK);
    EXPECT_EQ(0, std::memcmp(dx.data(), dx_after.data(), n * sizeof(double)));
    // Messages name the 2.0 functions.
    EXPECT_EQ(f.deserialize_fmu_state(s.c(), bytes.data(), size - 1, &state), fmi2Error);
    EXPECT_NE(log.messages.back().find("fmi2DeSerializeFMUstate: the bytes end inside"), std::string::npos)
        << log.all();
    EXPECT_EQ(log.messages.back().find("fmi3"), std::string::npos) << log.all();
    ASSERT_EQ(f.free_fmu_state(s.c(), &state), fmi2OK);
  }
  f2::unload(f);
}

// BouncingBall_fmi2: value references scattered, not 0..n-1.
TEST(Fmi2Layout, ScatteredValueReferences) {
  const f2::Description d = f2::parse(entry2("BouncingBall_fmi2").stage_dir);
  bool any_differs = false;
  for (const f2::Variable& v : d.variables) any_differs |= v.vr != v.index - 1;
  EXPECT_TRUE(any_differs);
}

}  // namespace
}  // namespace lsdae::test
