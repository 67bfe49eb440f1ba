// tests/runtime/fmu/fmi3/instance_test.cpp -- runtime/fmu/fmi3/instance.cpp: the FMI
// state machine, status handling, logging, DAE switch, several instances.
#include "lsdae/instance.h"

#include <gtest/gtest.h>

#include <cmath>
#include <mutex>

#include "catalog.h"
#include "lsdae/error.h"
#include "lsdae/fmu.h"
#include "lsdae/log.h"

namespace lsdae {
namespace {

// Captures lsdae's log for one test.
class LogCapture {
 public:
  LogCapture() {
    old_threshold_ = Logger::instance().threshold();
    Logger::instance().set_threshold(LogLevel::debug);
    old_ = Logger::instance().set_sink([this](LogLevel, const std::string& text) {
      std::lock_guard<std::mutex> lock(mutex_);
      text_ += text + "\n";
    });
  }
  ~LogCapture() {
    Logger::instance().set_sink(old_);
    Logger::instance().set_threshold(old_threshold_);
  }
  std::string text() {
    std::lock_guard<std::mutex> lock(mutex_);
    return text_;
  }

 private:
  Logger::Sink old_;
  LogLevel old_threshold_;
  std::mutex mutex_;
  std::string text_;
};

ValueReference vr(const Fmu& fmu, const std::string& name) { return fmu.model_description().find(name)->value_reference; }

// Drives Hello World (semi-explicit, shape A, DAE switch) to Continuous-Time Mode.
std::unique_ptr<Instance> hello_in_ct_mode(const Fmu& fmu, const std::string& name) {
  auto inst = fmu.instantiate(name);
  inst->enable_dae_mode();
  inst->enter_initialization_mode(1e-6, 0.0, 1.0);
  inst->exit_initialization_mode();
  auto update = inst->update_discrete_states();
  EXPECT_FALSE(update.discrete_states_need_update);
  inst->enter_continuous_time_mode();
  return inst;
}

TEST(Instance, EvaluatesDaeResidualsThroughTheSwitch) {
  auto fmu = Fmu::open(test::fmu_path("HelloWorld_semi_explicit_shapeA"));
  auto inst = hello_in_ct_mode(*fmu, "hello");
  EXPECT_TRUE(inst->dae_mode());
  EXPECT_EQ(inst->state(), InstanceState::continuous_time);
  const double x = 2.0;
  ASSERT_EQ(inst->set_time(0.5), CallStatus::ok);
  ASSERT_EQ(inst->set_continuous_states(std::vector<double>{x}), CallStatus::ok);
  std::vector<ValueReference> alg{vr(*fmu, "y"), vr(*fmu, "z")};
  ASSERT_EQ(inst->set_float64(alg, std::vector<double>{7 * x / 5, -x / 5}), CallStatus::ok);
  std::vector<double> g(2), dx(1);
  ASSERT_EQ(inst->get_float64(std::vector<ValueReference>{vr(*fmu, "g[1]"), vr(*fmu, "g[2]")}, g), CallStatus::ok);
  EXPECT_NEAR(g[0], 0.0, 1e-15);
  EXPECT_NEAR(g[1], 0.0, 1e-15);
  ASSERT_EQ(inst->get_continuous_state_derivatives(dx), CallStatus::ok);
  EXPECT_DOUBLE_EQ(dx[0], 7 * x / 5);
  inst->enter_event_mode();
  inst->terminate();
  EXPECT_EQ(inst->state(), InstanceState::terminated);
}

TEST(Instance, EnforcesTheStateMachineBeforeCallingTheFmu) {
  auto fmu = Fmu::open(test::fmu_path("HelloWorld_semi_explicit_shapeA"));
  auto inst = fmu->instantiate("sm");
  try {
    inst->enter_event_mode();
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::usage);
    EXPECT_STREQ(e.what(), "instance \"sm\": fmi3EnterEventMode is not allowed in Instantiated → FMI 3.0 allows it "
                           "in: Continuous-Time Mode");
  }
  inst->enter_initialization_mode(std::nullopt, 0.0, std::nullopt);
  EXPECT_THROW(inst->set_time(0.0), Error);
  // The DAE switch is a structural parameter: only before initialization.
  auto with_switch = Fmu::open(test::fmu_path("HelloWorld_semi_explicit_shapeB"));
  auto sw = with_switch->instantiate("sw");
  sw->enter_initialization_mode(std::nullopt, 0.0, std::nullopt);
  EXPECT_THROW(sw->enable_dae_mode(), Error);
}

TEST(Instance, FmuErrorsNameTheFunctionAndQuoteTheFmu) {
  LogCapture log;
  auto fmu = Fmu::open(test::fmu_path("HelloWorld_semi_explicit_shapeA"));
  auto inst = hello_in_ct_mode(*fmu, "err");
  std::vector<ValueReference> bad{9999};
  std::vector<double> value{1.0};
  try {
    inst->set_float64(bad, value);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::fmu_call);
    std::string message = e.what();
    EXPECT_EQ(message.rfind("instance \"err\": fmi3SetFloat64 returned fmi3Error (the FMU said: ", 0), 0u) << message;
    EXPECT_NE(message.find("9999"), std::string::npos) << message;
  }
  EXPECT_NE(log.text().find("[err] "), std::string::npos) << "FMU log messages carry the instance name: " << log.text();
  // After fmi3Error the instance may still be reset and reused.
  inst->reset();
  EXPECT_EQ(inst->state(), InstanceState::instantiated);
  EXPECT_FALSE(inst->dae_mode());
}

TEST(Instance, SpanSizesMustAgree) {
  auto fmu = Fmu::open(test::fmu_path("HelloWorld_semi_explicit_shapeA"));
  auto inst = fmu->instantiate("sizes");
  std::vector<ValueReference> vrs{1, 2};
  std::vector<double> one(1);
  EXPECT_THROW(inst->get_float64(vrs, one), Error);
}

TEST(Instance, SeveralInstancesKeepTheirOwnValues) {
  auto fmu = Fmu::open(test::fmu_path("HelloWorld_semi_explicit_shapeA"));
  auto a = hello_in_ct_mode(*fmu, "a");
  auto b = hello_in_ct_mode(*fmu, "b");
  EXPECT_EQ(fmu->live_instances(), 2u);
  a->set_continuous_states(std::vector<double>{1.0});
  b->set_continuous_states(std::vector<double>{5.0});
  std::vector<double> xa(1), xb(1);
  a->get_continuous_states(xa);
  b->get_continuous_states(xb);
  EXPECT_EQ(xa[0], 1.0);
  EXPECT_EQ(xb[0], 5.0);
}

TEST(Instance, DirectionalDerivativesOfResiduals) {
  auto fmu = Fmu::open(test::fmu_path("HelloWorld_semi_explicit_shapeA"));
  auto inst = hello_in_ct_mode(*fmu, "dd");
  ASSERT_TRUE(inst->provides_directional_derivatives());
  // d(g[1], g[2]) / dz · 1 = (2, -3).
  std::vector<double> sensitivity(2);
  inst->get_directional_derivative(std::vector<ValueReference>{vr(*fmu, "g[1]"), vr(*fmu, "g[2]")},
                                   std::vector<ValueReference>{vr(*fmu, "z")}, std::vector<double>{1.0}, sensitivity);
  EXPECT_DOUBLE_EQ(sensitivity[0], 2.0);
  EXPECT_DOUBLE_EQ(sensitivity[1], -3.0);
}

TEST(Instance, OdeFmuHasNoDaeMode) {
  auto fmu = Fmu::open(test::fmu_path("BouncingBall_ode"));
  auto inst = fmu->instantiate("ball");
  try {
    inst->enable_dae_mode();
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("has no FMI-LS-DAE manifest"), std::string::npos) << e.what();
  }
  inst->enter_initialization_mode(std::nullopt, 0.0, std::nullopt);
  inst->exit_initialization_mode();
  inst->update_discrete_states();
  inst->enter_continuous_time_mode();
  EXPECT_EQ(inst->number_of_event_indicators(), 1u);
  std::vector<double> indicators(1);
  EXPECT_EQ(inst->get_event_indicators(indicators), CallStatus::ok);
  EXPECT_GT(indicators[0], 0.0) << "the ball starts above the floor";
}

TEST(Instance, SetScalarChecksTypeAndRange) {
  auto fmu = Fmu::open(test::fmu_path("Robertson_semi_explicit_shapeB"));
  auto inst = fmu->instantiate("rob");
  const Variable* sw = fmu->model_description().find(*fmu->manifest().enable_dae);
  EXPECT_THROW(inst->set_scalar(*sw, 0.5), Error) << "Booleans take 0 or 1";
}

TEST(Instance, OnlyOncePerProcessIsEnforced) {
  test::EditableFmu edit("HelloWorld_ode", "once");
  edit.replace_in_model_description("<ModelExchange ", "<ModelExchange canBeInstantiatedOnlyOncePerProcess=\"true\" ");
  auto fmu = Fmu::open(edit.dir());
  auto first = fmu->instantiate("first");
  try {
    fmu->instantiate("second");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::usage);
    EXPECT_NE(std::string(e.what()).find("canBeInstantiatedOnlyOncePerProcess"), std::string::npos);
  }
  first.reset();
  EXPECT_NO_THROW(fmu->instantiate("third"));
}

TEST(Instance, WrongTokenIsRefusedWithTheFmusReason) {
  test::EditableFmu edit("HelloWorld_ode", "token");
  const std::string token = Fmu::open(std::string(LSDAE_FMU_DIR) + "/HelloWorld_ode")->model_description().instantiation_token;
  edit.replace_in_model_description(token, "{not-the-token}");
  auto fmu = Fmu::open(edit.dir());
  try {
    fmu->instantiate("tok");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::fmu_call);
    std::string message = e.what();
    EXPECT_NE(message.find("fmi3InstantiateModelExchange(\"tok\") returned NULL"), std::string::npos) << message;
    EXPECT_NE(message.find("{not-the-token}"), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace lsdae
