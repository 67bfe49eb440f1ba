// Directional derivatives of a system of FMUs (runtime/system/
// composite_directional.cpp): the composite instance's derivatives of every
// row the system has (the components' own residuals, ẋ − f, connections,
// coupling potentials and flows) against central differences of the same
// rows, column by column and with every known seeded at once; the Jacobian
// check and a run with them against a run with finite differences; and a
// system with one component without them falls back to finite differences
// and says which component.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "components.h"
#include "lsdae/error.h"
#include "lsdae/simulation.h"
#include "lsdae/system.h"

namespace lsdae {
namespace {

using test::component;
using test::system_fmu;

Connection connect(const std::string& from, const std::string& from_v, const std::string& to, const std::string& to_v,
                   double factor = 1.0, double offset = 0.0) {
  Connection c;
  c.from = {from, from_v};
  c.to = {to, to_v};
  c.factor = factor;
  c.offset = offset;
  return c;
}

Coupling couple(const std::string& name, std::vector<CouplingPort> ports) {
  Coupling c;
  c.name = name;
  c.ports = std::move(ports);
  return c;
}

// A plain ODE component with directional derivatives (SysFirstOrderDD, y
// with feedthrough, u without a unit) driving the fully implicit LS-DAE DCMotor (models/systems)
// through a connection with a transformation, the motor's speed fed back: an
// algebraic loop through the feedthrough, no synthesized rows.
SystemDescription controller_and_motor() {
  SystemDescription d;
  d.name = "drive";
  d.components = {component("A", "SysFirstOrderDD", {{"T", "0.7"}, {"k", "-1.5"}, {"d", "0.5"}}),
                  component("motor", "DCMotor")};
  d.connections = {connect("A", "y", "motor", "u", 2.0, 0.1), connect("motor", "speed", "A", "u", 0.25)};
  return d;
}

// The first and last sections of the 80-segment line (an ODE FMU and a
// semi-explicit LS-DAE FMU, both with directional derivatives) coupled at
// their cut: the potential of the second is an algebraic variable.
SystemDescription two_sections() {
  SystemDescription d;
  d.name = "line";
  d.components = {component("s1", "TransmissionLineSection_first_20"),
                  component("s2", "TransmissionLineSection_last_20")};
  d.couplings = {couple("cut", {{{"s1", "b.v"}, {"s1", "b.i"}}, {{"s2", "a.v"}, {"s2", "a.i"}}})};
  return d;
}

// Three ports at one node: two masses whose potential is an output computed
// from the state (not the state itself), a third mass, and a first-order
// part reading the node's velocity.
SystemDescription three_masses() {
  SystemDescription d;
  d.name = "node";
  d.components = {component("m1", "SysMassDD", {{"m", "1"}, {"F0", "1"}}), component("m2", "SysMassDD", {{"m", "2"}}),
                  component("m3", "SysMassDD", {{"m", "3"}}), component("P", "SysFirstOrderDD", {{"d", "0.3"}})};
  d.couplings = {couple("rod", {{{"m1", "vout"}, {"m1", "F"}}, {{"m2", "vout"}, {"m2", "F"}}, {{"m3", "vout"}, {"m3", "F"}}})};
  d.connections = {connect("m3", "vout", "P", "u", -4.0)};
  return d;
}

constexpr double kEps = std::numeric_limits<double>::epsilon();

void expect_derivatives_match_differences(const SystemDescription& d) {
  auto system = System::create(d);
  system->load_binary();
  ASSERT_TRUE(system->directional_derivatives_available()) << system->directional_derivatives_note();
  auto inst = system->instantiate("dd");
  inst->enter_initialization_mode(std::nullopt, 0.0, std::nullopt);
  inst->exit_initialization_mode();
  inst->enter_continuous_time_mode();
  const ModelDescription& md = system->model_description();
  const std::vector<ValueReference>& derivatives = system->derivatives();
  std::vector<ValueReference> z_vrs, rows;
  for (const auto& a : system->manifest().algebraic_variables) z_vrs.push_back(a.value_reference);
  for (const auto& g : system->manifest().residuals)
    for (const auto& f : g.formulations) rows.push_back(f.residual.value_reference);
  const std::size_t n = system->states().size();
  ASSERT_EQ(rows.size(), n + z_vrs.size());
  // A point away from the start values, of mixed signs and scales.
  std::vector<double> x(n), xdot(n), z(z_vrs.size());
  for (std::size_t i = 0; i < n; ++i) x[i] = std::sin(1.0 + 0.7 * static_cast<double>(i)), xdot[i] = std::cos(0.3 * static_cast<double>(i)) - 0.2;
  for (std::size_t j = 0; j < z.size(); ++j) z[j] = 0.5 - std::sin(2.0 + 1.3 * static_cast<double>(j));
  auto set_point = [&] {
    ASSERT_EQ(inst->set_time(0.3), CallStatus::ok);
    ASSERT_EQ(inst->set_continuous_states(x), CallStatus::ok);
    ASSERT_EQ(inst->set_float64(derivatives, xdot), CallStatus::ok);
    ASSERT_EQ(inst->set_float64(z_vrs, z), CallStatus::ok);
  };
  auto rows_at_point = [&] {
    set_point();
    std::vector<double> r(rows.size());
    EXPECT_EQ(inst->get_float64(rows, r), CallStatus::ok);
    return r;
  };
  struct Known {
    ValueReference vr;
    double* value;
  };
  std::vector<Known> knowns;
  for (std::size_t i = 0; i < n; ++i) knowns.push_back({system->states()[i], &x[i]});
  for (std::size_t i = 0; i < n; ++i) knowns.push_back({derivatives[i], &xdot[i]});
  for (std::size_t j = 0; j < z.size(); ++j) knowns.push_back({z_vrs[j], &z[j]});
  std::vector<double> combined_expected(rows.size(), 0.0), combined_rounding(rows.size(), 0.0), all_seeds;
  std::vector<ValueReference> all_knowns;
  std::size_t nonzero = 0;
  for (std::size_t k = 0; k < knowns.size(); ++k) {
    double& v = *knowns[k].value;
    // Every component here is linear in x, ẋ and z, so a central difference
    // has no truncation error and a large step keeps the rounding error
    // (ε·|r|/h) small where the rows are large (the line's ẋ − f, |f| ~ 1e9).
    const double h = 1e-2 * std::max(1.0, std::fabs(v)), v0 = v;
    v = v0 + h;
    const auto plus = rows_at_point();
    v = v0 - h;
    const auto minus = rows_at_point();
    v = v0;
    set_point();
    std::vector<double> dd(rows.size());
    const double one = 1.0;
    ASSERT_EQ(inst->get_directional_derivative(rows, {&knowns[k].vr, 1}, {&one, 1}, dd), CallStatus::ok);
    const double seed = 0.5 + 0.01 * static_cast<double>(k);
    all_knowns.push_back(knowns[k].vr);
    all_seeds.push_back(seed);
    for (std::size_t r = 0; r < rows.size(); ++r) {
      const double fd = (plus[r] - minus[r]) / (2 * h);
      const double rounding = 8 * kEps * std::max(std::fabs(plus[r]), std::fabs(minus[r])) / h;
      EXPECT_NEAR(dd[r], fd, 1e-6 * (1.0 + std::fabs(fd)) + rounding)
          << "row " << md.variables[rows[r]].name << ", column " << md.variables[knowns[k].vr].name;
      combined_expected[r] += seed * fd;
      combined_rounding[r] += seed * rounding;
      if (dd[r] != 0.0) ++nonzero;
    }
  }
  EXPECT_GT(nonzero, rows.size()) << "a test that cannot fail: the Jacobian is (nearly) empty";
  // Every known at once, with different seeds: the sum of the columns.
  std::vector<double> dd(rows.size());
  ASSERT_EQ(inst->get_directional_derivative(rows, all_knowns, all_seeds, dd), CallStatus::ok);
  for (std::size_t r = 0; r < rows.size(); ++r)
    EXPECT_NEAR(dd[r], combined_expected[r], 1e-6 * (1.0 + std::fabs(combined_expected[r])) + combined_rounding[r])
        << "row " << md.variables[rows[r]].name << ", all columns";
  inst->terminate();
}

TEST(SystemDirectional, ConnectionsWithATransformationIntoAFullyImplicitComponent) {
  expect_derivatives_match_differences(controller_and_motor());
}

TEST(SystemDirectional, ACouplingOfAnOdeAndASemiExplicitComponent) {
  expect_derivatives_match_differences(two_sections());
}

TEST(SystemDirectional, ACouplingOfThreePortsAndAConnectionFromIt) {
  expect_derivatives_match_differences(three_masses());
}

TEST(SystemDirectional, ARowAsAKnownIsRefused) {
  auto system = System::create(controller_and_motor());
  system->load_binary();
  auto inst = system->instantiate("dd");
  inst->enter_initialization_mode(std::nullopt, 0.0, std::nullopt);
  inst->exit_initialization_mode();
  inst->enter_continuous_time_mode();
  const ValueReference row = system->model_description().find("connect(A.y,motor.u)")->value_reference;
  const double one = 1.0;
  double out = 0.0;
  try {
    inst->get_directional_derivative({&row, 1}, {&row, 1}, {&one, 1}, {&out, 1});
    FAIL() << "a row accepted as a known";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::usage);
    EXPECT_NE(std::string(e.what()).find("connect(A.y,motor.u)"), std::string::npos) << e.what();
  }
  inst->terminate();
}

// The Jacobian check of a run (what `lsdae simulate --jacobian check` prints)
// and a run with the forwarded derivatives against one with finite differences.
void expect_run_matches_finite_differences(const SystemDescription& d, double stop, std::vector<std::string> names) {
  SimulationOptions o;
  o.rtol = o.atol = 1e-10;
  o.stop_time = stop;
  o.jacobian = JacobianMode::check;
  auto with_dd = Simulation::create(System::create(d), o);
  with_dd->initialize();
  const JacobianCheck check = with_dd->check_jacobian();
  EXPECT_TRUE(check.agree()) << to_string(check);
  o.jacobian = JacobianMode::finite_differences;
  auto with_fd = Simulation::create(System::create(d), o);
  with_fd->initialize();
  for (int k = 1; k <= 4; ++k) {
    const double t = stop * k / 4;
    with_dd->advance_to(t);
    with_fd->advance_to(t);
    for (const auto& name : names)
      EXPECT_NEAR(with_dd->get(name), with_fd->get(name), 1e-7 * (1.0 + std::fabs(with_fd->get(name))))
          << name << " at " << t;
  }
}

TEST(SystemDirectional, ARunOfControllerAndMotorAgreesWithFiniteDifferences) {
  expect_run_matches_finite_differences(controller_and_motor(), 1.0, {"A.x", "motor.w", "motor.i", "motor.u"});
}

TEST(SystemDirectional, ARunOfTwoSectionsAgreesWithFiniteDifferences) {
  expect_run_matches_finite_differences(two_sections(), 2e-6, {"s1.filter.y", "s1.C[20].v", "s2.v_left", "s2.a.i"});
}

// A mixed system: the controller without directional derivatives (FMI 3.0
// without them, or FMI 2.0) beside the motor with them. The controller's
// columns come by central differences inside the system's derivatives, the
// motor's and the connections' exactly.
SystemDescription controller_and_motor_with(const std::string& controller) {
  SystemDescription d = controller_and_motor();
  d.components[0].fmu = system_fmu(controller);
  return d;
}

TEST(SystemDirectional, AMixedSystemTakesTheComponentsWithoutThemByDifferences) {
  for (const char* controller : {"SysFirstOrderNoDD", "SysFirstOrder_fmi2"}) {
    SCOPED_TRACE(controller);
    const SystemDescription d = controller_and_motor_with(controller);
    auto system = System::create(d);
    system->load_binary();
    EXPECT_TRUE(system->directional_derivatives_available());
    EXPECT_EQ(system->directional_derivatives_note(), "");
    EXPECT_EQ(system->components_by_differences(), std::vector<std::string>{"A"});
    expect_derivatives_match_differences(d);
  }
}

// Three masses at a node, the middle one without directional derivatives:
// its states and its flow input are knowns moved by the differences.
TEST(SystemDirectional, AMixedCouplingOfThreePorts) {
  SystemDescription d = three_masses();
  d.components[1].fmu = system_fmu("SysMass");
  expect_derivatives_match_differences(d);
}

TEST(SystemDirectional, ARunOfAMixedSystemAgreesWithFiniteDifferences) {
  expect_run_matches_finite_differences(controller_and_motor_with("SysFirstOrder_fmi2"), 1.0,
                                        {"A.x", "motor.w", "motor.i", "motor.u"});
  SimulationOptions o;
  o.stop_time = 0.5;
  auto sim = Simulation::create(System::create(controller_and_motor_with("SysFirstOrder_fmi2")), o);
  sim->initialize();
  sim->advance_to(0.5);
  EXPECT_EQ(sim->statistics().jacobian_method, "directional");  // --jacobian auto takes the mixed Jacobian
  EXPECT_GT(sim->statistics().directional_calls, 0);
}

// No component with directional derivatives: the system has none, names
// its components, and a run asked for them is refused (usage, exit 2).
TEST(SystemDirectional, NoComponentWithThemMeansFiniteDifferences) {
  SystemDescription d = three_masses();
  for (auto& c : d.components) c.fmu = system_fmu(c.name == "P" ? "SysFirstOrderNoDD" : "SysMass");
  auto system = System::create(d);
  system->load_binary();
  EXPECT_FALSE(system->directional_derivatives_available());
  EXPECT_EQ(system->components_by_differences().size(), 4u);
  EXPECT_NE(system->directional_derivatives_note().find("\"m2\": SysMass.fmu"), std::string::npos)
      << system->directional_derivatives_note();
  SimulationOptions o;
  o.jacobian = JacobianMode::directional;
  try {
    auto sim = Simulation::create(system, o);
    FAIL() << "directional derivatives accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::usage);
    EXPECT_NE(std::string(e.what()).find("no component provides directional derivatives"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace lsdae
