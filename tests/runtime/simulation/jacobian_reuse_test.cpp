// tests/runtime/simulation/jacobian_reuse_test.cpp -- the saved Jacobian
// re-formed for IDA's new cj (runtime/simulation/ida/jacobian_reuse.h,
// kernels/compressed_jacobian.h: CompressedJacobian::reform): the rule, and
// runs of semi-explicit FMUs with and without it.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "lsdae/error.h"
#include "lsdae/simulation.h"
#include "sampled_run.h"
#include "simulation/ida/jacobian_reuse.h"

namespace lsdae {
namespace {

using simulation::JacobianReuse;

TEST(JacobianReuseRule, FreshAtRestartsAfterFailuresAndWhenOld) {
  JacobianReuse r;
  EXPECT_FALSE(r.reform_now(false, 5, 0)) << "nothing saved";
  r.started();
  EXPECT_FALSE(r.reform_now(true, 0, 0)) << "IDA (re)started: nst = 0";
  EXPECT_TRUE(r.reform_now(true, 3, 0));
  EXPECT_TRUE(r.reformed());
  r.setup_requested(true);  // the Newton solver failed with it: jbad
  EXPECT_FALSE(r.reformed());
  EXPECT_FALSE(r.reform_now(true, 3, 0)) << "jbad: fresh";
  EXPECT_TRUE(r.reform_now(true, 4, 0)) << "jbad is for one setup only";
  EXPECT_FALSE(r.reform_now(true, 4, 1)) << "a step failed its nonlinear solve since the last setup";
  EXPECT_TRUE(r.reform_now(true, 5, 1));
  EXPECT_TRUE(r.reform_now(true, 4 + JacobianReuse::kMaxAge - 1, 1));
  EXPECT_FALSE(r.reform_now(true, 4 + JacobianReuse::kMaxAge, 1)) << "kMaxAge steps old";
  EXPECT_TRUE(r.reform_now(true, 5 + JacobianReuse::kMaxAge, 1));
  // A restart: the same decisions as a new object's, whatever came before.
  r.started();
  JacobianReuse fresh;
  for (const auto& [steps, failures] :
       std::vector<std::pair<long, long>>{{0, 0}, {0, 0}, {1, 0}, {2, 1}, {3, 1}, {25, 1}})
    EXPECT_EQ(r.reform_now(true, steps, failures), fresh.reform_now(true, steps, failures)) << steps;
}

TEST(JacobianReuseRule, BeforeTheFirstStepOnlyTheFirstSetupAfterAStartIsFresh) {
  JacobianReuse r;
  r.started();
  EXPECT_FALSE(r.reform_now(true, 0, 0)) << "the first setup after a start, even with a matrix saved before it";
  EXPECT_TRUE(r.reform_now(true, 0, 0)) << "IDA cut its first step: the matrix evaluated after the start, re-formed";
  EXPECT_TRUE(r.reform_now(true, 1, 0));
  r.started();  // an event: IDAReInit
  EXPECT_FALSE(r.reform_now(true, 0, 0)) << "a new start evaluates afresh again";
  EXPECT_TRUE(r.reform_now(true, 0, 0));
  r.setup_requested(true);
  EXPECT_FALSE(r.reform_now(true, 0, 0)) << "jbad before the first step: fresh";
}

TEST(JacobianReuseRule, EverySetupOfIdaCalcIcIsFresh) {
  JacobianReuse r;
  r.started();
  r.set_in_initial_conditions(true);
  EXPECT_FALSE(r.reform_now(true, 0, 0));
  EXPECT_FALSE(r.reform_now(true, 0, 0)) << "IDACalcIC asks again after a failed iteration: a new matrix";
  r.set_in_initial_conditions(false);
  EXPECT_TRUE(r.reform_now(true, 0, 0)) << "the first step re-forms the one IDACalcIC evaluated";
}

TEST(JacobianReuseRule, AFreshSetupAtTheSavedMatrixsPointTakesIt) {
  JacobianReuse r;
  r.started();
  r.set_in_initial_conditions(true);
  EXPECT_FALSE(r.reform_now(true, 0, 0, false)) << "the first setup of IDACalcIC";
  EXPECT_TRUE(r.reform_now(true, 0, 0, true)) << "its second at the same point and cj: the same matrix";
  EXPECT_FALSE(r.reformed()) << "which is current (jcur)";
  EXPECT_FALSE(r.reform_now(false, 0, 0, true)) << "nothing saved";
  r.set_in_initial_conditions(false);
  EXPECT_TRUE(r.reform_now(true, 0, 0, false));
  EXPECT_TRUE(r.reformed()) << "a re-form for a new cj stands for no fresh matrix";
}

TEST(JacobianReuseRule, AsksWhetherSavedHereOnlyWhereItDecides) {
  JacobianReuse r;
  int asked = 0;
  const auto here = [&asked] {
    ++asked;
    return true;
  };
  r.started();
  r.set_in_initial_conditions(true);  // every setup fresh
  EXPECT_FALSE(r.reform_now(false, 0, 0, here)) << "nothing saved";
  EXPECT_EQ(asked, 0);
  EXPECT_TRUE(r.reform_now(true, 0, 0, here)) << "fresh, at the saved matrix's point: taken";
  EXPECT_EQ(asked, 1);
  r.set_in_initial_conditions(false);
  EXPECT_TRUE(r.reform_now(true, 1, 0, here)) << "a re-form";
  EXPECT_TRUE(r.reformed());
  EXPECT_EQ(asked, 1) << "a re-form takes the saved matrix whatever the point";
}

test::SampledRun run_with_reuse(const std::string& fmu, bool reuse, int rows) {
  SimulationOptions options;
  options.jacobian_reuse = reuse;
  return test::run_sampled(fmu, options, rows);
}

class JacobianReuseRuns : public ::testing::TestWithParam<std::string> {};

// Semi-explicit FMUs (∂G/∂y' = 1 at each state row's own ẋ): setups re-form,
// fewer Jacobians are evaluated, every setup is one or the other, and the
// results agree with fresh Jacobians at every setup to the tolerance's order.
TEST_P(JacobianReuseRuns, ReformsAndAgreesWithFreshJacobians) {
  const test::SampledRun on = run_with_reuse(GetParam(), true, 20), off = run_with_reuse(GetParam(), false, 20);
  EXPECT_EQ(off.stats.jacobian_reforms, 0);
  EXPECT_EQ(off.stats.jacobian_evaluations, off.stats.linear_solver_setups) << "IDA alone: fresh at every setup";
  EXPECT_GT(on.stats.jacobian_reforms, 0) << GetParam();
  EXPECT_LT(on.stats.jacobian_evaluations, off.stats.jacobian_evaluations);
  EXPECT_EQ(on.stats.jacobian_evaluations + on.stats.jacobian_reforms, on.stats.linear_solver_setups)
      << "every setup evaluates or re-forms";
  ASSERT_EQ(on.values.size(), off.values.size());
  for (std::size_t k = 0; k < on.values.size(); ++k)
    EXPECT_NEAR(on.values[k], off.values[k], 1e-3 * (1.0 + std::fabs(off.values[k]))) << GetParam() << " value " << k;
}

INSTANTIATE_TEST_SUITE_P(SemiExplicit, JacobianReuseRuns,
                         ::testing::Values("PowerGrid_case39_semi_explicit", "BouncingBall_ode"));

// IDA's cj band (--newton-dcj) set in SimulationOptions directly, past the
// options table's check: the integrator refuses it in the house's shape.
TEST(NewtonDcj, OutOfRangeIsAUsageError) {
  SimulationOptions options;
  options.newton_dcj = 1.0;
  try {
    test::run_sampled("BouncingBall_ode", options, 2);
    ADD_FAILURE() << "newton_dcj = 1 was taken";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::usage);
    EXPECT_NE(std::string(e.what()).find("(newton_dcj) 1 is out of range: it must be greater than 0 and less than 1 → "),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace lsdae
