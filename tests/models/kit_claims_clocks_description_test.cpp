// tests/models/kit_claims_clocks_description_test.cpp -- the describer's side
// of the kit's false claims (models/kit/claims.h) and clocks (model.h): what
// the XML says, and the declarations and keys it refuses, on small models
// declared here, without building an FMU.
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <string>

#include "kit/description.h"
#include "kit/xml_writer.h"

namespace lsdae::kit {
namespace {

// der(x) = -a x + y2 z (a parameter), residual g = x + z - 1 over z (algebraic).
class Lag final : public Model {
 public:
  void declare(Builder& b) override {
    b.model_name("Lag", "semi-explicit lag");
    b.form(Form::semi_explicit);
    b.provides_partials();
    const ValueRef a = b.parameter("a", 2.0);
    const ValueRef x = b.state("x", 1.0);
    const ValueRef dx = b.derivative(x);
    const ValueRef z = b.algebraic("z", 0.0);
    const ValueRef g = b.residual_variable("g");
    b.dae_dependencies(dx, {{x, DepKind::fixed}, {z, DepKind::dependent}});
    b.ode_dependencies(dx, {{x, DepKind::dependent}});
    b.residual_group({{{g, 1, {{x, DepKind::constant}, {z, DepKind::constant}}}}});
    (void)a;
  }
  void compute(Context&) override {}
};

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

Description lag(std::map<std::string, std::string> values) {
  values["manifest"] = "A";
  values["enable_dae_switch"] = "true";
  Lag model;
  return describe(model, Config(values));
}

TEST(KitClaims, AConstantClaimChangesTheKindInEveryListThatDeclaresTheEntry) {
  const Description d = lag({{"claim_constant", "der(x):x"}});
  const std::string manifest = manifest_xml(d);
  const std::string md = model_description_xml(d, "Lag");
  EXPECT_NE(manifest.find("<ContinuousStateDerivative valueReference=\"3\" dependencies=\"2 4\" dependenciesKind=\"constant "
                          "dependent\"/>"),
            std::string::npos)
      << manifest;
  EXPECT_NE(md.find("<ContinuousStateDerivative valueReference=\"3\" dependencies=\"2\" dependenciesKind=\"constant\"/>"),
            std::string::npos)
      << md;
  EXPECT_NE(error_of([] { lag({{"claim_constant", "g:z"}}); }).find("is declared constant already: the claim would be true"),
            std::string::npos);
  EXPECT_NE(error_of([] { lag({{"claim_constant", "der(x):a"}}); }).find("the model declares no such dependency"),
            std::string::npos);
  EXPECT_NE(error_of([] { lag({{"claim_constant", "der(x)"}}); }).find("is not UNKNOWN:KNOWN"), std::string::npos);
  EXPECT_NE(error_of([] { lag({{"claim_constant", "der(x):w"}}); }).find("names \"w\", which is no variable"),
            std::string::npos);
}

TEST(KitClaims, AHiddenDependencyIsLeftOutAndAPartialScaleIsRecorded) {
  const Description d = lag({{"claim_hidden", "g:z"}, {"claim_partial_scale", "der(x):*:-1"}});
  EXPECT_NE(manifest_xml(d).find("<Formulation valueReference=\"5\" index=\"1\" dependencies=\"2\" dependenciesKind=\"constant\"/>"),
            std::string::npos)
      << manifest_xml(d);
  ASSERT_EQ(d.partial_scales.size(), 1u);
  EXPECT_EQ(d.partial_scales[0].unknown, 3u);
  EXPECT_EQ(d.partial_scales[0].known, kNoValueRef);
  EXPECT_EQ(d.partial_scales[0].factor, -1.0);
  EXPECT_NE(error_of([] { lag({{"claim_partial_scale", "der(x):x:1"}}); }).find("a finite FACTOR other than 1"),
            std::string::npos);
  EXPECT_NE(error_of([] { lag({{"claim_partial_scale", "der(x):x:2"}, {"provides_directional_derivatives", "false"}}); })
                .find("claim_partial_scale needs directional derivatives"),
            std::string::npos);
  EXPECT_NE(model_description_xml(lag({{"provides_directional_derivatives", "false"}}), "Lag")
                .find("providesDirectionalDerivatives=\"false\""),
            std::string::npos);
}

// A counter on a clock of the given properties; `output_clock` adds a
// triggered output clock.
class Counter final : public Model {
 public:
  explicit Counter(ClockProperties p) : p_(p) {}
  void declare(Builder& b) override {
    b.model_name("Counter", "counter");
    b.form(Form::ode);
    const ValueRef tick = b.input_clock("tick", p_);
    const ClockedState n = b.clocked_state("n", 0.0, {tick}, VarType::int32);
    b.ode_dependencies(n.value, {{tick, DepKind::dependent}});
    const ValueRef x = b.state("x", 0.0);
    b.ode_dependencies(b.derivative(x), {});
  }
  void compute(Context&) override {}

 private:
  ClockProperties p_;
};

std::string counter_error(ClockProperties p, std::map<std::string, std::string> values = {}) {
  return error_of([&] {
    Counter model(p);
    describe(model, Config(values));
  });
}

TEST(KitClocks, TheXmlHasClocksClockedVariablesAndClockedStates) {
  ClockProperties p;
  p.interval_variability = IntervalVariability::constant;
  p.interval_decimal = 0.2;
  p.supports_fraction = true;
  p.resolution = 5;
  p.interval_counter = 1;
  Counter model(p);
  const Description d = describe(model, Config());
  const std::string md = model_description_xml(d, "Counter");
  EXPECT_NE(md.find("<Clock name=\"tick\" valueReference=\"1\" causality=\"input\" variability=\"discrete\" "
                    "intervalVariability=\"constant\" intervalDecimal=\"0.2\" supportsFraction=\"true\" "
                    "resolution=\"5\" intervalCounter=\"1\"/>"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("<Int32 name=\"n\" valueReference=\"3\" causality=\"output\" variability=\"discrete\" "
                    "initial=\"exact\" clocks=\"1\" previous=\"2\" start=\"0\"/>"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("<ClockedState valueReference=\"3\"/>"), std::string::npos) << md;
  EXPECT_EQ(md.find("<InitialUnknown valueReference=\"3\""), std::string::npos) << "clocked: no initial unknown";
}

TEST(KitClocks, ClockDeclarationsFMI3ForbidsAreRefused) {
  ClockProperties constant;
  constant.interval_variability = IntervalVariability::constant;
  EXPECT_NE(counter_error(constant).find("a constant clock needs interval_decimal"), std::string::npos);
  ClockProperties changing;
  changing.interval_variability = IntervalVariability::changing;
  changing.interval_decimal = 1.0;
  EXPECT_NE(counter_error(changing).find("interval_decimal and shift_decimal belong to periodic clocks"),
            std::string::npos);
  ClockProperties fraction = constant;
  fraction.interval_decimal = 0.3;
  fraction.supports_fraction = true;
  fraction.resolution = 5;
  fraction.interval_counter = 1;
  EXPECT_NE(counter_error(fraction).find("must equal interval_counter/resolution"), std::string::npos);
  constant.interval_decimal = 0.2;
  EXPECT_NE(counter_error(constant, {{"fmi", "2"}}).find("Int32"), std::string::npos);
  EXPECT_NE(counter_error(constant, {{"clocked_access", "sometimes"}}).find("allowed values: strict, lenient"),
            std::string::npos);
}


// Builder::expect_variables: the count announced is checked against what
// declare() adds (each helper one variable, the derivative one more).
class Announced final : public Model {
 public:
  Announced(long announce, bool late) : announce_(announce), late_(late) {}
  void declare(Builder& b) override {
    b.model_name("Announced", "announces its variable count");
    if (!late_ && announce_ >= 0) b.expect_variables(static_cast<std::size_t>(announce_));
    const ValueRef x = b.state("x", 1.0);
    if (late_) b.expect_variables(static_cast<std::size_t>(announce_));
    b.derivative(x);
    b.parameter("k", 2.0);
  }
  void compute(Context&) override {}

 private:
  long announce_;
  bool late_;
};

TEST(KitDescribe, AnAnnouncedVariableCountIsChecked) {
  Announced exact(3, false);
  const Description d = describe(exact, Config());
  EXPECT_EQ(d.variables.size(), 4u);  // time, x, der(x), k
  EXPECT_EQ(d.variables[2].name, "der(x)");
  Announced none(-1, false);
  EXPECT_EQ(describe(none, Config()).variables.size(), 4u);
  Announced low(2, false);
  EXPECT_EQ(error_of([&] { describe(low, Config()); }), "declare: expect_variables(2) but 3 variables were declared");
  Announced high(4, false);
  EXPECT_EQ(error_of([&] { describe(high, Config()); }), "declare: expect_variables(4) but 3 variables were declared");
  Announced late(3, true);
  EXPECT_EQ(error_of([&] { describe(late, Config()); }),
            "declare: expect_variables() after the first variable or twice");
}

}  // namespace
}  // namespace lsdae::kit
