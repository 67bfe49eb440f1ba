// tests/runtime/fmu/fmu_test.cpp -- runtime/fmu/fmu.cpp: every model FMU of the
// corpus opens, validates clean, loads and instantiates; summaries count right.
#include "lsdae/fmu.h"

#include <gtest/gtest.h>

#include "catalog.h"
#include "lsdae/error.h"

namespace lsdae {
namespace {

class EveryModelFmu : public ::testing::TestWithParam<test::CatalogFmu> {};

TEST_P(EveryModelFmu, OpensValidatesCleanAndInstantiates) {
  auto fmu = Fmu::open(GetParam().fmu_path);
  for (const auto& d : fmu->diagnostics().items()) ADD_FAILURE() << d.format();
  EXPECT_EQ(fmu->model_description().model_exchange->model_identifier, GetParam().identifier);
  std::filesystem::path unpacked = fmu->unpacked_dir();
  EXPECT_TRUE(std::filesystem::exists(unpacked / "modelDescription.xml"));
  {
    auto instance = fmu->instantiate("a");
    if (fmu->manifest().present()) instance->enable_dae_mode();
    EXPECT_EQ(instance->number_of_continuous_states(), fmu->states().size());
  }
  EXPECT_EQ(fmu->live_instances(), 0u);
  fmu.reset();
  EXPECT_FALSE(std::filesystem::exists(unpacked)) << "the extraction folder outlived the Fmu";
}

INSTANTIATE_TEST_SUITE_P(Corpus, EveryModelFmu, ::testing::ValuesIn(test::catalog()),
                         [](const auto& param_info) { return param_info.param.name; });

TEST(FmuSummary, CountsTheTransmissionLine) {
  auto fmu = Fmu::open(test::fmu_path("TransmissionLine_dae_shapeB_80"));
  FmuSummary s = fmu->summary();
  const std::size_t n = 80;
  EXPECT_EQ(s.shape, ManifestShape::alpha_1_0_0);
  EXPECT_EQ(s.form, DaeForm::fully_implicit);
  EXPECT_EQ(s.states, 2 * n + 2);
  EXPECT_EQ(s.algebraic, 3 * n + 1);
  EXPECT_EQ(s.residual_groups, 5 * n + 3);
  EXPECT_EQ(s.dae_dependency_nonzeros, 13 * n + 7);
}

TEST(FmuSummary, CountsFormulationsPerIndex) {
  auto fmu = Fmu::open(test::fmu_path("Pendulum_dae_shapeA"));
  FmuSummary s = fmu->summary();
  EXPECT_EQ(s.form, DaeForm::fully_implicit);
  EXPECT_EQ(s.residual_groups, 5u);
  EXPECT_EQ(s.formulations, 7u);
  EXPECT_EQ(s.formulations_per_index, (std::map<int, std::size_t>{{0, 4}, {1, 1}, {2, 1}, {3, 1}}));
  EXPECT_FALSE(s.has_dae_switch);
  EXPECT_EQ(s.capabilities, std::vector<std::string>{"providesDirectionalDerivatives"});
}

TEST(Fmu, OpensAnUnpackedFolderInPlace) {
  std::string dir = std::string(LSDAE_FMU_DIR) + "/HelloWorld_ode";
  {
    auto fmu = Fmu::open(dir);
    EXPECT_EQ(fmu->unpacked_dir(), dir);
    EXPECT_EQ(fmu->form(), DaeForm::ode);
  }
  EXPECT_TRUE(std::filesystem::exists(dir + "/modelDescription.xml")) << "an opened folder is never removed";
}

TEST(Fmu, RefusesInvalidFmusWithEveryError) {
  test::EditableFmu edit("HelloWorld_semi_explicit_shapeA", "invalid");
  edit.replace_in_model_description("derivative=\"1\"", "derivative=\"77\"");
  try {
    Fmu::open(edit.dir());
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::invalid);
    EXPECT_NE(std::string(e.what()).find("has derivative=\"77\", but no variable has valueReference 77"),
              std::string::npos) << e.what();
  }
  OpenOptions lenient;
  lenient.reject_invalid = false;
  auto fmu = Fmu::open(edit.dir(), lenient);
  EXPECT_TRUE(fmu->diagnostics().has_errors());
}

TEST(Fmu, MissingFileIsAUsageError) {
  try {
    Fmu::open("/no/such/model.fmu");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::usage);
    EXPECT_STREQ(e.what(), "/no/such/model.fmu: no such file → check the path");
  }
}

}  // namespace
}  // namespace lsdae
