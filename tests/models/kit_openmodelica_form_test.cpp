// tests/models/kit_openmodelica_form_test.cpp -- the kit's implicit_form=
// openmodelica variant (models/kit/description.h): a fully implicit model's
// manifest written as OpenModelica's DAE export writes it, checked on the XML
// the kit produces for a small model declared here:
//   der(x) = y - x   ->  r1 = der(x) - y + x   (dependencies der(x) c, y c, x c)
//   y = 2 x          ->  r2 = y - 2 x          (y c, x f)
//   z = x der(x)     ->  r3 = z - x der(x)     (z c, x dependent, der(x) dependent)
#include <gtest/gtest.h>

#include <stdexcept>

#include "kit/description.h"
#include "kit/xml_writer.h"

namespace lsdae::kit {
namespace {

class Small final : public Model {
 public:
  void declare(Builder& b) override {
    b.model_name("Small", "three residuals");
    b.form(Form::fully_implicit);
    const ValueRef x = b.state("x", 1.0);
    const ValueRef dx = b.derivative(x);
    const ValueRef y = b.algebraic("y", 0.0);
    const ValueRef z = b.algebraic("z", 0.0);
    const ValueRef r1 = b.residual_variable("r1"), r2 = b.residual_variable("r2"), r3 = b.residual_variable("r3");
    b.residual_group({{{r1, 0, {{dx, DepKind::constant}, {y, DepKind::constant}, {x, DepKind::constant}}}}});
    b.residual_group({{{r2, 0, {{y, DepKind::constant}, {x, DepKind::fixed}}}}});
    b.residual_group({{{r3, 0, {{z, DepKind::constant}, {x, DepKind::fixed}, {dx, DepKind::dependent}}}}});
  }
  void compute(Context&) override {}
};

std::string manifest_for(const std::map<std::string, std::string>& values) {
  Small model;
  Config config(values);
  return manifest_xml(describe(model, config));
}

TEST(KitOpenModelicaForm, StatesStandForTheirDerivativesAndNoContinuousStateDerivativeIsListed) {
  const std::string om = manifest_for({{"manifest", "B"}, {"implicit_form", "openmodelica"}});
  EXPECT_EQ(om.find("ContinuousStateDerivative"), std::string::npos) << om;
  EXPECT_NE(om.find("<fmiDAEManifest"), std::string::npos) << om;
  EXPECT_NE(om.find("<EnableDAEParameter"), std::string::npos) << om;
  // x = 1, der(x) = 2, y = 3, z = 4, r1..r3 = 5..7: der(x) becomes x, once, at its first place,
  // with the more general kind.
  EXPECT_NE(om.find(R"(<Residual valueReference="5" dependencies="1 3" dependenciesKind="constant constant"/>)"),
            std::string::npos) << om;
  EXPECT_NE(om.find(R"(<Residual valueReference="6" dependencies="3 1" dependenciesKind="constant fixed"/>)"),
            std::string::npos) << om;
  EXPECT_NE(om.find(R"(<Residual valueReference="7" dependencies="4 1" dependenciesKind="constant dependent"/>)"),
            std::string::npos) << om;

  // The default keeps naming der(x) and lists it as a ContinuousStateDerivative.
  const std::string standard = manifest_for({{"manifest", "B"}});
  EXPECT_NE(standard.find(R"(<ContinuousStateDerivative valueReference="2"/>)"), std::string::npos) << standard;
  EXPECT_NE(standard.find(R"(dependencies="2 3 1")"), std::string::npos) << standard;
}

TEST(KitOpenModelicaForm, OnlyForAFullyImplicitModelInShapeB) {
  try {
    manifest_for({{"manifest", "A"}, {"implicit_form", "openmodelica"}});
    ADD_FAILURE() << "shape A accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("implicit_form=openmodelica needs a fully implicit model and manifest=B"),
              std::string::npos)
        << e.what();
  }
  try {
    manifest_for({{"manifest", "B"}, {"implicit_form", "omc"}});
    ADD_FAILURE() << "an unknown value accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("\"implicit_form\" is \"omc\"; allowed values: derivatives, openmodelica"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace lsdae::kit
