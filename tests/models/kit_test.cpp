// tests/models/kit_test.cpp -- the FMU authoring kit's fmi3 behaviour, on the
// Hello World FMUs: several instances per process, the DAE enable switch, and
// fmi3Error with a message naming the function, the variable and the state
// for every invalid call.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "fmu_fixture.h"

namespace lsdae::test {
namespace {

const CatalogEntry& entry(const std::string& name) {
  static const std::vector<CatalogEntry> catalog = read_catalog();
  for (const auto& e : catalog)
    if (e.name == name) return e;
  throw std::runtime_error("no FMU " + name + " in the catalog");
}

class Kit : public ::testing::Test {
 protected:
  void open(const std::string& name) {
    entry_ = entry(name);
    fmu_ = parse_fmu(entry_.stage_dir);
    fns_ = load_binary(entry_.stage_dir, fmu_.model_identifier);
  }
  void TearDown() override {
    for (auto* i : instances_) fns_.free_instance(i);
    unload_binary(fns_);
  }
  fmi3Instance instantiate(const std::string& instance_name, const char* token = nullptr,
                           const char* resources = "") {
    const std::string res =
        resources == nullptr || std::string(resources).empty() ? entry_.stage_dir + "/resources/" : resources;
    fmi3Instance i = fns_.instantiate(instance_name.c_str(), token ? token : fmu_.token.c_str(),
                                      resources == nullptr ? nullptr : res.c_str(), false, false, &log_,
                                      &LogSink::callback);
    if (i) instances_.push_back(i);
    return i;
  }
  // Configuration Mode, the DAE switch on (the manifest's DAE mode), back.
  void enable_dae_mode(fmi3Instance i) {
    ASSERT_EQ(fns_.enter_configuration(i), fmi3OK);
    const bool on = true;
    const fmi3ValueReference sw = *fmu_.dae_switch;
    ASSERT_EQ(fns_.set_boolean(i, &sw, 1, &on, 1), fmi3OK);
    ASSERT_EQ(fns_.exit_configuration(i), fmi3OK);
  }
  void to_continuous_time(fmi3Instance i) {
    ASSERT_EQ(fns_.enter_initialization(i, false, 0, 0, false, 0), fmi3OK);
    ASSERT_EQ(fns_.exit_initialization(i), fmi3OK);
    ASSERT_EQ(fns_.enter_continuous_time(i), fmi3OK);
  }
  std::string last_message() const { return log_.messages.empty() ? "" : log_.messages.back(); }
  fmi3ValueReference vr(const std::string& name) const { return fmu_.by_name.at(name); }

  CatalogEntry entry_;
  ParsedFmu fmu_;
  Fmi3Functions fns_;
  LogSink log_;
  std::vector<fmi3Instance> instances_;
};

TEST_F(Kit, SeveralInstancesOfOneFmuAreIndependent) {
  open("HelloWorld_ode");
  fmi3Instance a = instantiate("a"), b = instantiate("b");
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  to_continuous_time(a);
  to_continuous_time(b);
  const double xa = 2.0, xb = -3.0;
  ASSERT_EQ(fns_.set_states(a, &xa, 1), fmi3OK);
  ASSERT_EQ(fns_.set_states(b, &xb, 1), fmi3OK);
  double da = 0, db = 0;
  ASSERT_EQ(fns_.get_derivatives(a, &da, 1), fmi3OK);
  ASSERT_EQ(fns_.get_derivatives(b, &db, 1), fmi3OK);
  EXPECT_DOUBLE_EQ(da, 1.4 * xa);
  EXPECT_DOUBLE_EQ(db, 1.4 * xb);
}

TEST_F(Kit, WrongInstantiationTokenIsRefused) {
  open("HelloWorld_ode");
  EXPECT_EQ(instantiate("x", "{not-the-token}"), nullptr);
  EXPECT_NE(last_message().find("instantiationToken \"{not-the-token}\" does not match"), std::string::npos)
      << last_message();
}

TEST_F(Kit, MissingResourcePathIsRefused) {
  open("HelloWorld_ode");
  EXPECT_EQ(instantiate("x", nullptr, nullptr), nullptr);
  EXPECT_NE(last_message().find("resourcePath is NULL"), std::string::npos) << last_message();
}

TEST_F(Kit, EmptyInstanceNameIsRefused) {
  open("HelloWorld_ode");
  EXPECT_EQ(instantiate(" "), nullptr);
  EXPECT_NE(last_message().find("instanceName must be a non-empty string"), std::string::npos) << last_message();
}

TEST_F(Kit, CallsInTheWrongStateReturnErrorAndSayWhy) {
  open("HelloWorld_ode");
  fmi3Instance i = instantiate("x");
  ASSERT_NE(i, nullptr);
  EXPECT_EQ(fns_.set_time(i, 1.0), fmi3Error);
  EXPECT_NE(last_message().find("fmi3SetTime: not allowed in Instantiated"), std::string::npos) << last_message();
  EXPECT_EQ(fns_.enter_continuous_time(i), fmi3Error);
  EXPECT_NE(last_message().find("fmi3EnterContinuousTimeMode: not allowed in Instantiated (allowed in Event Mode)"),
            std::string::npos)
      << last_message();
}

TEST_F(Kit, SettingACalculatedVariableIsAnError) {
  open("HelloWorld_ode");
  fmi3Instance i = instantiate("x");
  to_continuous_time(i);
  const fmi3ValueReference y = vr("y");
  const double value = 1.0;
  EXPECT_EQ(fns_.set_float64(i, &y, 1, &value, 1), fmi3Error);
  EXPECT_NE(last_message().find("variable \"y\" (value reference " + std::to_string(y) +
                                ") is calculated by the FMU and cannot be set"),
            std::string::npos)
      << last_message();
}

TEST_F(Kit, UnknownValueReferenceIsAnError) {
  open("HelloWorld_ode");
  fmi3Instance i = instantiate("x");
  to_continuous_time(i);
  const fmi3ValueReference bad = 9999;
  double value = 0;
  EXPECT_EQ(fns_.get_float64(i, &bad, 1, &value, 1), fmi3Error);
  EXPECT_NE(last_message().find("value reference 9999 does not exist"), std::string::npos) << last_message();
}

// value_references=scattered: the fmi3 functions take the numbers of modelDescription.xml,
// refuse the kit's own ones, and name the XML's numbers in their messages.
TEST_F(Kit, ScatteredValueReferencesAreTheOnesTheXmlShows) {
  open("UnusualOscillator_ode_scattered");
  fmi3Instance i = instantiate("x");
  to_continuous_time(i);
  const fmi3ValueReference p = vr("p"), sum = vr("sum"), time = vr("time");
  EXPECT_GT(time, 1000000u);
  double value = 0;
  ASSERT_EQ(fns_.get_float64(i, &p, 1, &value, 1), fmi3OK) << last_message();
  EXPECT_EQ(value, 1.0);  // its start
  const fmi3ValueReference kit_own = 3;
  EXPECT_EQ(fns_.get_float64(i, &kit_own, 1, &value, 1), fmi3Error);
  EXPECT_NE(last_message().find("fmi3GetFloat64: value reference 3 does not exist"), std::string::npos) << last_message();
  const double one = 1.0;
  EXPECT_EQ(fns_.set_float64(i, &sum, 1, &one, 1), fmi3Error);
  EXPECT_NE(last_message().find("variable \"sum\" (value reference " + std::to_string(sum) + ") is calculated"),
            std::string::npos)
      << last_message();
  const fmi3ValueReference both[] = {sum, p};
  double values[2] = {0, 0};
  ASSERT_EQ(fns_.get_float64(i, both, 2, values, 2), fmi3OK) << last_message();
  EXPECT_EQ(values[0], 2.0);  // x + p at the start
}

TEST_F(Kit, ScatteredValueReferencesInDirectionalDerivatives) {
  open("UnusualConstraint_dae_only_scattered");
  fmi3Instance i = instantiate("x");
  to_continuous_time(i);
  const fmi3ValueReference unknowns[] = {vr("r1"), vr("c0")}, knowns[] = {vr("der(x1)"), vr("x2")};
  const double seed[] = {1.0, 1.0};
  double sensitivity[2] = {0, 0};
  ASSERT_EQ(fns_.get_directional_derivative(i, unknowns, 2, knowns, 2, seed, 2, sensitivity, 2), fmi3OK)
      << last_message();
  EXPECT_EQ(sensitivity[0], 1.0);   // d r1 / d der(x1) = C1
  EXPECT_EQ(sensitivity[1], -2.0);  // d c0 / d x2 = -a
}

// The kit keeps the place of each asked unknown from one call to the next
// (instance.h): the same list again, another one, one that names an unknown
// twice, each gets every row's value at its own place.
TEST_F(Kit, DirectionalDerivativesAtTheirPlaceForEveryListOfUnknowns) {
  open("UnusualConstraint_dae_only_scattered");
  fmi3Instance i = instantiate("x");
  to_continuous_time(i);
  const fmi3ValueReference r1 = vr("r1"), c0 = vr("c0"), dx1 = vr("der(x1)"), x2 = vr("x2");
  auto dd = [&](std::vector<fmi3ValueReference> unknowns, std::vector<fmi3ValueReference> knowns,
                std::vector<double> seed) {
    std::vector<double> out(unknowns.size(), 99.0);
    EXPECT_EQ(fns_.get_directional_derivative(i, unknowns.data(), unknowns.size(), knowns.data(), knowns.size(),
                                              seed.data(), seed.size(), out.data(), out.size()),
              fmi3OK)
        << last_message();
    return out;
  };
  EXPECT_EQ(dd({r1, c0}, {dx1, x2}, {1.0, 1.0}), (std::vector<double>{1.0, -2.0}));
  EXPECT_EQ(dd({r1, c0}, {dx1, x2}, {1.0, 1.0}), (std::vector<double>{1.0, -2.0}));  // the same list again
  const double r1_x2 = dd({r1}, {x2}, {1.0})[0];
  EXPECT_EQ(dd({r1, c0}, {x2}, {1.0}), (std::vector<double>{r1_x2, -2.0}));
  EXPECT_EQ(dd({c0, r1, c0}, {dx1, x2}, {1.0, 1.0}), (std::vector<double>{-2.0, 1.0, -2.0}));  // c0 twice
  EXPECT_EQ(dd({c0, r1, c0}, {dx1, x2}, {1.0, 1.0}), (std::vector<double>{-2.0, 1.0, -2.0}));
  EXPECT_EQ(dd({c0}, {x2}, {3.0}), (std::vector<double>{-6.0}));
  EXPECT_EQ(dd({r1, c0}, {dx1}, {1.0})[0], 1.0);
  // A list that passed is not looked up again when it comes back; one that
  // differs from it only in a bad reference is, and refused.
  const fmi3ValueReference bad[] = {r1, 1000000}, knowns[] = {dx1};
  const double seed[] = {1.0};
  double out[2] = {0, 0};
  EXPECT_EQ(fns_.get_directional_derivative(i, bad, 2, knowns, 1, seed, 1, out, 2), fmi3Error);
  EXPECT_NE(last_message().find("value reference 1000000 does not exist"), std::string::npos) << last_message();
  EXPECT_EQ(dd({r1, c0}, {dx1}, {1.0})[0], 1.0);
}

TEST_F(Kit, DaeSwitchIsAStructuralParameter) {
  open("HelloWorld_semi_explicit_shapeB");
  ASSERT_TRUE(fmu_.dae_switch.has_value());
  fmi3Instance i = instantiate("x");
  const fmi3ValueReference sw = *fmu_.dae_switch;
  const bool on = true;
  EXPECT_EQ(fns_.set_boolean(i, &sw, 1, &on, 1), fmi3Error);
  EXPECT_NE(last_message().find("structural parameter: set it in Configuration Mode"), std::string::npos)
      << last_message();
}

TEST_F(Kit, OdeModeAndDaeModeComputeDifferentThings) {
  open("HelloWorld_semi_explicit_shapeB");
  const fmi3ValueReference y = vr("y");
  // ODE mode (the default): der(x) = 7x/5 whatever y holds; y cannot be set.
  fmi3Instance ode = instantiate("ode");
  to_continuous_time(ode);
  const double x = 2.0, y_value = 5.0;
  ASSERT_EQ(fns_.set_states(ode, &x, 1), fmi3OK);
  EXPECT_EQ(fns_.set_float64(ode, &y, 1, &y_value, 1), fmi3Error);
  double dx = 0;
  ASSERT_EQ(fns_.get_derivatives(ode, &dx, 1), fmi3OK);
  EXPECT_DOUBLE_EQ(dx, 1.4 * x);
  // DAE mode: der(x) = y as written by the importer.
  fmi3Instance dae = instantiate("dae");
  enable_dae_mode(dae);
  to_continuous_time(dae);
  ASSERT_EQ(fns_.set_states(dae, &x, 1), fmi3OK);
  ASSERT_EQ(fns_.set_float64(dae, &y, 1, &y_value, 1), fmi3OK);
  ASSERT_EQ(fns_.get_derivatives(dae, &dx, 1), fmi3OK);
  EXPECT_DOUBLE_EQ(dx, y_value);
}

TEST_F(Kit, DerivativesAreKnownsOnlyInTheFullyImplicitForm) {
  open("HelloWorld_fully_implicit_shapeA");
  fmi3Instance i = instantiate("x");
  to_continuous_time(i);
  const fmi3ValueReference der_x = vr("der(x)"), r1 = vr("r[1]"), y = vr("y");
  const double values[] = {3.0, 1.0};
  const fmi3ValueReference vrs[] = {der_x, y};
  ASSERT_EQ(fns_.set_float64(i, vrs, 2, values, 2), fmi3OK);
  double r = 0;
  ASSERT_EQ(fns_.get_float64(i, &r1, 1, &r, 1), fmi3OK);
  EXPECT_DOUBLE_EQ(r, 3.0 - 1.0);
}

// fmi3GetFloat64 of compute()'s knowns alone runs no compute() (instance.h,
// "Evaluation is lazy"): what is a known depends on the DAE switch, and a
// calculated value read afterwards is still that of the point set last.
TEST_F(Kit, KnownsAreReadAsSetAndCalculatedValuesStayCurrent) {
  open("HelloWorld_semi_explicit_shapeB");
  const fmi3ValueReference x = vr("x"), y = vr("y"), z = vr("z"), g1 = vr("g[1]");
  // ODE mode: y and z are calculated (y = 7x/5, z = -x/5), not knowns; a
  // read of x alone before them must not leave them stale.
  fmi3Instance ode = instantiate("ode");
  to_continuous_time(ode);
  double x_value = 2.0, out = 0;
  ASSERT_EQ(fns_.set_states(ode, &x_value, 1), fmi3OK);
  ASSERT_EQ(fns_.get_float64(ode, &x, 1, &out, 1), fmi3OK);
  EXPECT_EQ(out, 2.0);
  const fmi3ValueReference yz[] = {y, z};
  double yz_out[2] = {0, 0};
  ASSERT_EQ(fns_.get_float64(ode, yz, 2, yz_out, 2), fmi3OK);
  EXPECT_DOUBLE_EQ(yz_out[0], 1.4 * 2.0);
  EXPECT_DOUBLE_EQ(yz_out[1], -0.2 * 2.0);
  x_value = 3.0;
  ASSERT_EQ(fns_.set_states(ode, &x_value, 1), fmi3OK);
  ASSERT_EQ(fns_.get_float64(ode, &x, 1, &out, 1), fmi3OK);  // a known: no compute() yet
  ASSERT_EQ(fns_.get_float64(ode, &y, 1, &out, 1), fmi3OK);
  EXPECT_DOUBLE_EQ(out, 1.4 * 3.0);
  // DAE mode: y and z are knowns, read as set; the residual read after them
  // (alone, and with a known in the same call) is the new point's.
  fmi3Instance dae = instantiate("dae");
  enable_dae_mode(dae);
  to_continuous_time(dae);
  const double xyz[] = {1.0, 5.0, 0.5};
  const fmi3ValueReference yz_vrs[] = {y, z};
  ASSERT_EQ(fns_.set_states(dae, &xyz[0], 1), fmi3OK);
  ASSERT_EQ(fns_.set_float64(dae, yz_vrs, 2, &xyz[1], 2), fmi3OK);
  ASSERT_EQ(fns_.get_float64(dae, yz, 2, yz_out, 2), fmi3OK);
  EXPECT_EQ(yz_out[0], 5.0);
  EXPECT_EQ(yz_out[1], 0.5);
  ASSERT_EQ(fns_.get_float64(dae, &g1, 1, &out, 1), fmi3OK);
  EXPECT_DOUBLE_EQ(out, 5.0 + 2.0 * 0.5 - 1.0);
  const double y_new = 7.0;
  ASSERT_EQ(fns_.set_float64(dae, &y, 1, &y_new, 1), fmi3OK);
  ASSERT_EQ(fns_.get_float64(dae, &y, 1, &out, 1), fmi3OK);
  EXPECT_EQ(out, 7.0);
  const fmi3ValueReference mixed[] = {x, g1};
  double mixed_out[2] = {0, 0};
  ASSERT_EQ(fns_.get_float64(dae, mixed, 2, mixed_out, 2), fmi3OK);
  EXPECT_EQ(mixed_out[0], 1.0);
  EXPECT_DOUBLE_EQ(mixed_out[1], 7.0 + 2.0 * 0.5 - 1.0);
  double dx = 0;
  ASSERT_EQ(fns_.get_derivatives(dae, &dx, 1), fmi3OK);
  EXPECT_EQ(dx, 7.0);  // der(x) = y, calculated in the semi-explicit form
}

TEST_F(Kit, DirectionalDerivativeWithMismatchedSizesIsAnError) {
  open("HelloWorld_fully_implicit_shapeA");
  fmi3Instance i = instantiate("x");
  to_continuous_time(i);
  const fmi3ValueReference r1 = vr("r[1]"), y = vr("y");
  const double seed[] = {1.0, 1.0};
  double out = 0;
  const fmi3ValueReference knowns[] = {y, y};
  EXPECT_EQ(fns_.get_directional_derivative(i, &r1, 1, knowns, 2, seed, 1, &out, 1), fmi3Error);
  EXPECT_NE(last_message().find("nSeed must equal nKnowns"), std::string::npos) << last_message();
  ASSERT_EQ(fns_.get_directional_derivative(i, &r1, 1, knowns, 1, seed, 1, &out, 1), fmi3OK);
  EXPECT_DOUBLE_EQ(out, -1.0);
}

// A model's own log category (Builder::log_category; PsseGrid's logLimiters)
// is listed in <LogCategories> and is off until the importer names it in
// fmi3SetDebugLogging: loggingOn at instantiation alone does not turn it on.
// The LOAD case's fault at t = 1 moves its loads below their low-voltage
// breakpoint, limiter mode changes: logged only when asked.
TEST_F(Kit, ModelLogCategoryIsOffUntilTheImporterNamesIt) {
  open("PsseGrid_LOAD_fault_semi_explicit");
  std::ifstream xml(entry_.stage_dir + "/modelDescription.xml");
  bool listed = false;
  for (std::string line; std::getline(xml, line);)
    listed = listed || line.find("<Category name=\"logLimiters\"") != std::string::npos;
  EXPECT_TRUE(listed);
  auto limiter_lines = [&](bool name_category) {
    log_.messages.clear();
    const std::string res = entry_.stage_dir + "/resources/";
    fmi3Instance i = fns_.instantiate(name_category ? "named" : "unnamed", fmu_.token.c_str(), res.c_str(), false,
                                      /*loggingOn=*/true, &log_, &LogSink::callback);
    EXPECT_NE(i, nullptr);
    if (i == nullptr) return std::vector<std::string>{};
    instances_.push_back(i);
    const fmi3String categories[] = {"logLimiters"};
    if (name_category) {
      EXPECT_EQ(fns_.set_debug_logging(i, true, 1, categories), fmi3OK);
    }
    EXPECT_EQ(fns_.enter_initialization(i, false, 0, 0, false, 0), fmi3OK);
    EXPECT_EQ(fns_.exit_initialization(i), fmi3OK);
    fmi3Boolean need = false, term = false, nom = false, val = false, next_defined = false;
    fmi3Float64 next = 0;
    EXPECT_EQ(fns_.update_discrete_states(i, &need, &term, &nom, &val, &next_defined, &next), fmi3OK);
    EXPECT_EQ(fns_.enter_continuous_time(i), fmi3OK);
    EXPECT_TRUE(next_defined);
    EXPECT_EQ(fns_.set_time(i, next), fmi3OK);  // the fault
    EXPECT_EQ(fns_.enter_event(i), fmi3OK);
    EXPECT_EQ(fns_.update_discrete_states(i, &need, &term, &nom, &val, &next_defined, &next), fmi3OK);
    std::vector<std::string> lines;
    for (const std::string& m : log_.messages)
      if (m.find("[logLimiters]") != std::string::npos) lines.push_back(m);
    return lines;
  };
  EXPECT_TRUE(limiter_lines(false).empty());
  const std::vector<std::string> lines = limiter_lines(true);
  // The fault at bus 103 moves the loads at 102 and 103 (three) below 0.7 p.u.: a line each.
  ASSERT_EQ(lines.size(), 3u);
  bool bus103 = false;
  for (const std::string& line : lines)
    bus103 = bus103 || (line.find("t = 1 s: LOAD at bus 103 id '1'") != std::string::npos &&
                        line.find("limiter lv (load[103_1].lv) engaged: above -> below, indicator ") != std::string::npos);
  EXPECT_TRUE(bus103) << lines[0] << "\n" << lines[1] << "\n" << lines[2];
}

}  // namespace
}  // namespace lsdae::test
