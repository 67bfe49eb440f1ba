// tests/models/kit_fmi2_description_test.cpp -- the kit's FMI 2.0
// modelDescription.xml (models/kit/xml_writer_fmi2.cpp) and the describer's
// checks of the fmi=2 keys, on small models declared here (states declared
// after their outputs, an alias, a parameter dependency, constraints), without
// building an FMU.
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <stdexcept>
#include <string>

#include "kit/description.h"
#include "kit/xml_writer.h"

namespace lsdae::kit {
namespace {

// vr 1 = k (parameter), 2 = y (output, alias of v), 3 = v (state), 4 = der(v),
// 5 = p (state), 6 = der(p).  der(v) = -k p, der(p) = v.
class Spring final : public Model {
 public:
  explicit Spring(bool parameter_dependency = false, bool constraints = false, bool alias_with_start = false)
      : parameter_dependency_(parameter_dependency), constraints_(constraints), alias_with_start_(alias_with_start) {}
  void declare(Builder& b) override {
    b.model_name("Spring", "harmonic oscillator");
    b.form(Form::ode);
    const ValueRef k = b.parameter("k", 4.0);
    Variable y;
    y.name = "y";
    y.causality = Causality::output;
    y.initial = alias_with_start_ ? Initial::exact : Initial::calculated;
    if (alias_with_start_) y.start = 0.0;
    const ValueRef y_vr = b.add(y);
    const ValueRef v = b.state("v", 0.0);
    const ValueRef dv = b.derivative(v);
    const ValueRef p = b.state("p", 1.0);
    const ValueRef dp = b.derivative(p);
    b.alias(y_vr, v);
    std::vector<Dependency> dv_deps = {{p, DepKind::fixed}};
    if (parameter_dependency_) dv_deps.push_back({k, DepKind::constant});
    b.ode_dependencies(dv, dv_deps);
    b.ode_dependencies(dp, {{v, DepKind::constant}});
    b.ode_dependencies(y_vr, {{v, DepKind::constant}});
    if (constraints_) b.constraints(1, true);
  }
  void compute(Context&) override {}

 private:
  bool parameter_dependency_, constraints_, alias_with_start_;
};

std::string xml2(Spring model, std::map<std::string, std::string> values) {
  values["fmi"] = "2";
  const Description d = describe(model, Config(values));
  return model_description_xml_fmi2(d, "Spring");
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(KitFmi2Description, IndicesAliasesAndStructure) {
  const std::string xml = xml2(Spring(), {{"form", "ode"}});
  EXPECT_NE(xml.find(R"(fmiVersion="2.0")"), std::string::npos) << xml;
  // Declared order: time 1, k 2, y 3, v 4, der(v) 5, p 6, der(p) 7.
  EXPECT_NE(xml.find(R"(<ScalarVariable name="y" valueReference="3" causality="output")"), std::string::npos)
      << "the alias y carries v's value reference\n" << xml;
  EXPECT_NE(xml.find(R"(<Real derivative="4"/>)"), std::string::npos) << xml;
  EXPECT_NE(xml.find(R"(<Unknown index="5" dependencies="6" dependenciesKind="fixed"/>)"), std::string::npos) << xml;
  EXPECT_NE(xml.find(R"(<Unknown index="3" dependencies="4" dependenciesKind="constant"/>)"), std::string::npos)
      << xml;
  EXPECT_EQ(xml.find("maxNumberOfConstraints"), std::string::npos) << xml;
  EXPECT_EQ(xml.find("providesConstraints"), std::string::npos) << xml;
  // Reversed: time 7, k 6, y 5, v 4, der(v) 3, p 2, der(p) 1.
  const std::string reversed = xml2(Spring(), {{"form", "ode"}, {"variable_order", "reversed"}});
  EXPECT_NE(reversed.find(R"(<Real derivative="2"/>)"), std::string::npos) << reversed;
  EXPECT_NE(reversed.find(R"(<Unknown index="3" dependencies="2" dependenciesKind="fixed"/>)"), std::string::npos)
      << reversed;
  EXPECT_LT(reversed.find(R"x(name="der(p)")x"), reversed.find(R"(name="time")"));
  // InitialUnknowns sorted by index: der(p) 1, der(v) 3, y 5.
  EXPECT_NE(reversed.find("<InitialUnknowns>\n      <Unknown index=\"1\"/>\n      <Unknown index=\"3\"/>\n"
                          "      <Unknown index=\"5\"/>\n    </InitialUnknowns>"),
            std::string::npos)
      << reversed;
}

TEST(KitFmi2Description, RefusesWhatFmi2CannotSay) {
  EXPECT_NE(error_of([] { xml2(Spring(true), {{"form", "ode"}}); })
                .find("\"der(v)\" depends on \"k\", which is no continuous state, input or independent variable"),
            std::string::npos);
  EXPECT_NE(error_of([] { xml2(Spring(false, false, true), {{"form", "ode"}}); }).find("alias(\"y\", \"v\")"),
            std::string::npos);
  Spring spring;
  EXPECT_NE(error_of([&] { describe(spring, Config(std::map<std::string, std::string>{{"fmi", "4"}})); }).find("\"fmi\" is \"4\"; allowed values: 2, 3"),
            std::string::npos);
}

// A DAE model: the manifest cannot go into an FMI 2.0 FMU.
class Dae final : public Model {
 public:
  void declare(Builder& b) override {
    b.model_name("Dae", "x' = z, 0 = z + x");
    b.form(Form::semi_explicit);
    const ValueRef x = b.state("x", 1.0);
    const ValueRef dx = b.derivative(x);
    const ValueRef z = b.algebraic("z", 0.0);
    const ValueRef r = b.residual_variable("r");
    b.dae_dependencies(dx, {{z, DepKind::constant}});
    b.residual_group({{{r, 0, {{z, DepKind::constant}, {x, DepKind::constant}}}}});
  }
  void compute(Context&) override {}
};

TEST(KitFmi2Description, AManifestCannotBeFmi2) {
  Dae dae;
  const std::string e = error_of([&] { describe(dae, Config(std::map<std::string, std::string>{{"fmi", "2"}, {"manifest", "A"}})); });
  EXPECT_NE(e.find("fmi=2 with manifest=A: FMI 2.0 Model Exchange has no DAE mode"), std::string::npos) << e;
  EXPECT_NE(e.find("build the model's ODE form (form=ode manifest=none) for FMI 2.0"), std::string::npos) << e;
}

TEST(KitFmi2Description, ConstraintSwitches) {
  const std::string all = xml2(Spring(false, true), {{"form", "ode"}});
  EXPECT_NE(all.find(R"(maxNumberOfConstraints="1")"), std::string::npos) << all;
  EXPECT_NE(all.find(R"(providesConstraints="withJacobian" providesProjection="true" providesProjectionStep="true")"),
            std::string::npos)
      << all;
  const std::string values =
      xml2(Spring(false, true),
           {{"form", "ode"}, {"provides_constraints", "true"}, {"provides_projection_step", "false"}});
  EXPECT_NE(values.find(R"(providesConstraints="true" providesProjection="true" providesProjectionStep="false")"),
            std::string::npos)
      << values;
  const std::string none = xml2(Spring(false, true), {{"form", "ode"},
                                                      {"provides_constraints", "false"},
                                                      {"provides_projection", "false"},
                                                      {"provides_projection_step", "false"}});
  EXPECT_EQ(none.find("Constraints"), std::string::npos) << none;
  // Asking for more than the model has, or for the extension in FMI 3.0.
  EXPECT_NE(error_of([] { xml2(Spring(), {{"form", "ode"}, {"provides_constraints", "true"}}); })
                .find("provides_constraints=true but the model declares no constraints"),
            std::string::npos);
  EXPECT_NE(error_of([] { xml2(Spring(), {{"form", "ode"}, {"provides_projection", "true"}}); })
                .find("provides_projection=true needs constraints declared with a Jacobian"),
            std::string::npos);
  Spring spring(false, true);
  EXPECT_NE(error_of([&] { describe(spring, Config(std::map<std::string, std::string>{{"provides_projection", "false"}})); })
                .find("key \"provides_projection\" needs fmi=2"),
            std::string::npos);
  EXPECT_NE(error_of([] { xml2(Spring(false, true), {{"form", "ode"}, {"provides_constraints", "yes"}}); })
                .find("allowed values: false, true, withJacobian"),
            std::string::npos);
}

}  // namespace
}  // namespace lsdae::kit
