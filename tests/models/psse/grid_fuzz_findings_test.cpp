// tests/models/psse/grid_fuzz_findings_test.cpp -- regression tests for what
// lsdae_fuzz_grids (models/fuzz/, docs/fuzzing.md "Grid files") found in the
// PSS/E readers and the case builder: each input here escaped the contract
// (TextError for malformed files, ModelError for data the simulation cannot
// take) before its fix. The cases are the OMIB case of
// ../shared/data/grids/psse/Test01 edited as the fuzzer's inputs were.
#include <gtest/gtest.h>

#include <string>

#include "gridcore/newton_power_flow.h"
#include "file_text.h"
#include "psse/case/case_builder.h"
#include "psse/core/parameters.h"
#include "psse/io/dyr_reader.h"
#include "psse/io/psse_text.h"
#include "psse/io/raw_reader.h"

namespace lsdae::psse {
namespace {

const std::string kData = LSDAE_PSSE_DATA_DIR;

using test::file_text;

// OMIB.raw with `from` replaced by `to` (each once).
std::string omib_with(const std::string& from, const std::string& to) {
  std::string text = file_text(kData + "/Test01/OMIB.raw");
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

BuiltCase build(const std::string& raw_text) {
  return build_case(parse_raw(raw_text, "case.raw"), parse_dyr(file_text(kData + "/Test01/OMIB.dyr"), "case.dyr"),
                    CaseOptions{});
}

// Found 2026-11-30: with every bus a swing bus the power flow has no unknown,
// and KLU refused to analyze the empty Jacobian (std::runtime_error "klu:
// klu_analyze failed with KLU_INVALID (n = 0)" out of build_case).
TEST(GridFuzzFindings, EveryBusASwingBusIsSolvedWithoutSteps) {
  const std::string raw = omib_with("   102,'BUS 2', 230.0000,2,", "   102,'BUS 2', 230.0000,3,");
  BuiltCase c = build(raw);
  EXPECT_TRUE(c.operating_point.converged);
  EXPECT_FALSE(c.operating_point.singular);
  EXPECT_EQ(c.operating_point.iterations, 0);
}

// Found 2026-11-30: a bus that no in-service branch ties to the swing bus makes
// the Jacobian singular; KLU's std::runtime_error ("klu: klu_factor failed with
// KLU_SINGULAR (n = 25)") escaped build_case, and lsdae-grid printed it alone
// (no file, no advice). Now solve_newton returns converged = false, singular,
// and build_case refuses the case with a ModelError naming the file.
TEST(GridFuzzFindings, ABusWithoutBranchIsASingularPowerFlowNamedInAModelError) {
  std::string raw = file_text(kData + "/Test01/OMIB.raw");
  for (const char* circuit : {"'1 '", "'2 '"}) {
    const auto at = raw.find("   101,    102," + std::string(circuit));
    ASSERT_NE(at, std::string::npos);
    raw.replace(at, raw.find('\n', at) - at, "   101,    102," + std::string(circuit) +
                                                 ", 0.0, 0.1, 0.0, 100.0, 100.0, 100.0, 0.0, 0.0, 0.0, 0.0, 0");
  }
  try {
    build(raw);
    FAIL() << "a case whose branches are all out of service was built";
  } catch (const ModelError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind("case.raw: ", 0), 0u) << message;
    EXPECT_NE(message.find("singular"), std::string::npos) << message;
    EXPECT_NE(message.find("→"), std::string::npos) << message;
  }
}

// The same two facts at the solver (gridcore), which the MATPOWER power flow
// shares: no unknown is a converged solve; a singular Jacobian is reported,
// not thrown.
TEST(GridFuzzFindings, NewtonWithoutUnknownsOrWithASingularJacobianDoesNotThrow) {
  grid::ComplexCsr y;
  y.n = 2;
  y.row_start = {0, 1, 2};
  y.column = {0, 1};
  y.value = {grid::Complex(0, -10), grid::Complex(0, 0)};  // bus 1 tied to nothing: a zero row
  const std::vector<grid::Complex> scheduled = {grid::Complex(), grid::Complex(0.5, 0)};
  grid::NewtonResult all_slack;
  EXPECT_NO_THROW(all_slack = grid::solve_newton(y, {grid::BusRole::slack, grid::BusRole::slack}, scheduled,
                                                 {1.0, 1.0}, {0.0, 0.0}, grid::NewtonOptions{}));
  EXPECT_TRUE(all_slack.converged);
  grid::NewtonResult singular;
  EXPECT_NO_THROW(singular = grid::solve_newton(y, {grid::BusRole::slack, grid::BusRole::pq}, scheduled, {1.0, 1.0},
                                                {0.0, 0.0}, grid::NewtonOptions{}));
  EXPECT_FALSE(singular.converged);
  EXPECT_TRUE(singular.singular);
  EXPECT_EQ(singular.voltage.size(), 2u);
}

}  // namespace
}  // namespace lsdae::psse
