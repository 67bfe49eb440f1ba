// tests/runtime/simulation/openmodelica_form_test.cpp -- OpenModelica's fully
// implicit DAE form (no ContinuousStateDerivative in the manifest; a state in a
// residual's dependencies stands for x and ẋ) end to end:
//   * RcLadderOM, written by hand (tests/runtime/foreign_fmus), the 200-segment
//     RC ladder that lsdae once refused as "unbalanced: 801 residuals, 601
//     unknowns": simulated against its exact solution, with finite-difference
//     Jacobians although the FMU declares directional derivatives (its answer
//     for a state is dF/dx at fixed ẋ, which is not what IDA needs);
//   * the same file with one residual left out: refused, naming both counts;
//   * the kit's TransmissionLine and PowerGrid in this form against their
//     references (the TransmissionLine10 and MatchesReference suites carry the
//     variants as well).
#include <gtest/gtest.h>

#include <cmath>

#include "catalog.h"
#include "lsdae/error.h"
#include "lsdae/log.h"
#include "lsdae/simulation.h"
#include "rc_ladder_om_fmu.h"
#include "rc_ladder_om_layout.h"

namespace lsdae {
namespace {

// Captures lsdae's log lines at info level and above while alive.
class LogCapture {
 public:
  LogCapture() : old_threshold_(Logger::instance().threshold()) {
    Logger::instance().set_threshold(LogLevel::info);
    old_sink_ = Logger::instance().set_sink([this](LogLevel, const std::string& text) { lines_ += text + "\n"; });
  }
  ~LogCapture() {
    Logger::instance().set_sink(old_sink_);
    Logger::instance().set_threshold(old_threshold_);
  }
  const std::string& text() const { return lines_; }

 private:
  LogLevel old_threshold_;
  Logger::Sink old_sink_;
  std::string lines_;
};

TEST(OpenModelicaForm, AHandWrittenRcLadderIsReadAndSimulatedExactly) {
  test::RcLadderOmFmu files("simulate");
  LogCapture log;
  auto fmu = Fmu::open(files.dir());
  EXPECT_EQ(fmu->form(), DaeForm::fully_implicit_openmodelica);
  const FmuSummary s = fmu->summary();
  EXPECT_EQ(s.states, static_cast<std::size_t>(RCL_N));
  EXPECT_EQ(s.algebraic, 2u * RCL_N + 1);
  EXPECT_EQ(s.residual_groups, 3u * RCL_N + 1);
  EXPECT_EQ(fmu->diagnostics().count(Severity::warning), 0u);

  SimulationOptions options;
  options.rtol = 1e-8;
  options.stop_time = 0.5;
  auto sim = Simulation::create(fmu, options);
  EXPECT_FALSE(fmu->directional_derivatives_available()) << "the form must not use the FMU's directional derivatives";
  EXPECT_NE(log.text().find("the Jacobian is built by coloured finite differences"), std::string::npos) << log.text();
  sim->initialize();
  double worst = 0;
  std::string where;
  for (double t : {0.01, 0.05, 0.1, 0.25, 0.5}) {
    sim->advance_to(t);
    const std::vector<double> exact = test::rc_ladder_exact(t);
    for (int k = 1; k <= RCL_N; ++k) {
      const double error = std::fabs(sim->get("C[" + std::to_string(k) + "].v") - exact[static_cast<std::size_t>(k - 1)]);
      if (error > worst) {
        worst = error;
        where = "C[" + std::to_string(k) + "].v at t = " + std::to_string(t);
      }
    }
  }
  EXPECT_LT(worst, 1e-5) << where;
  // The algebraic variables and the output solve their equations (V0 = 1 V, R = 0.1 Ω).
  EXPECT_NEAR(sim->get("R[1].v"), 1.0 - sim->get("C[1].v"), 1e-7);
  EXPECT_NEAR(sim->get("R[1].i"), sim->get("R[1].v") / 0.1, 1e-6);
  EXPECT_NEAR(sim->get("vLoad"), sim->get("C[200].v"), 1e-12);
  EXPECT_NEAR(sim->get("load.i"), sim->get("C[200].v") / 10.0, 1e-7);
  const SimulationStats& st = sim->statistics();
  EXPECT_EQ(st.unknowns, 3u * RCL_N + 1);
  EXPECT_EQ(st.differential, static_cast<std::size_t>(RCL_N));
  EXPECT_EQ(st.jacobian_method, "finite differences");
  EXPECT_EQ(st.directional_calls, 0);
  EXPECT_GT(st.jacobian_evaluations, 0);
}

TEST(OpenModelicaForm, DirectionalJacobiansAreRefusedWithTheReason) {
  test::RcLadderOmFmu files("directional");
  SimulationOptions options;
  options.jacobian = JacobianMode::directional;
  try {
    Simulation::create(Fmu::open(files.dir()), options);
    FAIL() << "directional Jacobians were accepted for the OpenModelica form";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::usage) << e.what();
    EXPECT_NE(std::string(e.what()).find("cannot be asked for apart"), std::string::npos) << e.what();
  }
}

TEST(OpenModelicaForm, AResidualMissingIsAClearErrorNotUnbalanced) {
  test::RcLadderOmOptions broken;
  broken.drop_last_residual = true;
  test::RcLadderOmFmu files("broken", broken);
  try {
    Fmu::open(files.dir());
    FAIL() << "a manifest with 600 residuals for 200 states and 401 algebraic variables was accepted";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.kind(), ErrorKind::invalid) << what;
    EXPECT_NE(what.find("600 residual groups for 200 states and 401 algebraic variables"), std::string::npos) << what;
    EXPECT_NE(what.find("(200 + 401 = 601)"), std::string::npos) << what;
    EXPECT_NE(what.find("one per algebraic variable (401); 600 fits neither"), std::string::npos) << what;
    EXPECT_NE(what.find("1 residual is missing for the fully implicit form"), std::string::npos) << what;
    EXPECT_EQ(what.find("unbalanced"), std::string::npos) << what;
  }
}

TEST(OpenModelicaForm, TheKitVariantAgreesWithTheDerivativeForm) {
  // One DAE, two manifests: residual dependencies naming der(x) (shape B) or
  // naming x for both (OpenModelica). With finite differences in both, only the
  // Jacobian's pattern differs (ẋ_i wherever x_i appears), so the solutions agree
  // to the integration tolerance.
  SimulationOptions options;
  options.jacobian = JacobianMode::finite_differences;
  options.stop_time = 2e-6;
  auto run = [&](const std::string& name) {
    auto sim = Simulation::create(Fmu::open(test::fmu_path(name)), options);
    sim->initialize();
    sim->advance_to(2e-6);
    return std::make_pair(sim->get("v_load"), sim->statistics().jacobian_method);
  };
  const auto om = run("TransmissionLine_dae_openmodelica_20");
  const auto b = run("TransmissionLine_dae_shapeB_20");
  EXPECT_NEAR(om.first, b.first, 1e-6);
  EXPECT_EQ(om.second, "finite differences");
  // Automatic: directional for shape B, finite differences for the OpenModelica form.
  options.jacobian = JacobianMode::automatic;
  EXPECT_EQ(run("TransmissionLine_dae_openmodelica_20").second, "finite differences");
  EXPECT_EQ(run("TransmissionLine_dae_shapeB_20").second, "directional");
}

}  // namespace
}  // namespace lsdae
