// A system's components in parallel (runtime/system/composite_instance.h,
// "Components in parallel"): a composite instance given two threads (and
// no work threshold, so that every call takes the parallel path) returns
// bitwise the values of one thread -- rows, derivatives, event indicators,
// directional derivatives --, a component's failure on a worker thread
// reaches the caller as the same lsdae::Error, and a whole run with
// --threads 2 (components in parallel for the residuals, the Jacobian's
// colours in parallel with components one after the other inside) is
// bitwise the run with --threads 1, with finite differences and with
// directional derivatives.
#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "components.h"
#include "lsdae/error.h"
#include "lsdae/instance.h"
#include "lsdae/simulation.h"
#include "lsdae/system.h"
#include "system/composite_instance.h"

namespace lsdae {
namespace {

using test::component;
using test::system_fmu;

Coupling cut(const std::string& name, const std::string& left, const std::string& right) {
  Coupling c;
  c.name = name;
  c.ports = {{{left, "b.v"}, {left, "b.i"}}, {{right, "a.v"}, {right, "a.i"}}};
  return c;
}

// The 80-segment line as four sections of 20 (models/systems/transmission_line_80),
// every section with directional derivatives: an ODE FMU, two semi-explicit
// and one more LS-DAE FMU, three couplings.
SystemDescription line_of_four() {
  SystemDescription d;
  d.name = "line";
  d.components = {component("s1", "TransmissionLineSection_first_20"),
                  component("s2", "TransmissionLineSection_middle_20"),
                  component("s3", "TransmissionLineSection_middle_20"),
                  component("s4", "TransmissionLineSection_last_20")};
  d.couplings = {cut("cut1", "s1", "s2"), cut("cut2", "s2", "s3"), cut("cut3", "s3", "s4")};
  return d;
}

// Thirteen sections of 160 of the 1280-segment line (models/systems/transmission_line_1280),
// one after the other (a longer line): with every unknown its own colour,
// 4 198 colours of 12 555 nonzeros (52.7 million per Jacobian), the fewest
// such sections whose Jacobian makes enough work for a second FMU instance
// (simulation/instance_count.h, 50 million; the 1280-segment line's own eight
// sections make 2 583 × 7 725 = 20 million, twelve 3 875 × 11 589 = 44.9 million).
SystemDescription line_of_thirteen() {
  SystemDescription d;
  d.name = "line";
  constexpr int kSections = 13;
  d.components.push_back(component("s1", "TransmissionLineSection_first_160"));
  for (int k = 2; k < kSections; ++k)
    d.components.push_back(component("s" + std::to_string(k), "TransmissionLineSection_middle_160"));
  d.components.push_back(component("s" + std::to_string(kSections), "TransmissionLineSection_last_160"));
  for (int k = 1; k < kSections; ++k)
    d.couplings.push_back(cut("cut" + std::to_string(k), "s" + std::to_string(k), "s" + std::to_string(k + 1)));
  return d;
}

// Bitwise equality of two vectors of doubles (NaN-safe, -0 ≠ +0).
::testing::AssertionResult bitwise_equal(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return ::testing::AssertionFailure() << "sizes " << a.size() << " and " << b.size();
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::memcmp(&a[i], &b[i], sizeof(double)) != 0)
      return ::testing::AssertionFailure() << "entry " << i << ": " << a[i] << " and " << b[i];
  return ::testing::AssertionSuccess();
}

system::CompositeInstance& as_composite(Instance& instance) {
  auto* composite = dynamic_cast<system::CompositeInstance*>(&instance);
  if (composite == nullptr) throw std::logic_error("a system's instance is a composite instance");
  return *composite;
}

// Everything a composite instance computes at one point, with `threads`.
std::vector<double> evaluate_at_a_point(const System& system, std::size_t threads) {
  auto inst = system.instantiate("t" + std::to_string(threads));
  as_composite(*inst).configure_threads(threads, 0.0);  // parallel whatever the work
  inst->enter_initialization_mode(std::nullopt, 0.0, std::nullopt);
  inst->exit_initialization_mode();
  inst->enter_continuous_time_mode();
  const std::size_t n = system.states().size();
  std::vector<double> x(n), xdot(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = 0.3 * std::sin(1.0 + static_cast<double>(i));
    xdot[i] = 1e5 * std::cos(2.0 * static_cast<double>(i));
  }
  std::vector<ValueReference> z, rows;
  for (const auto& a : system.manifest().algebraic_variables) z.push_back(a.value_reference);
  for (const auto& g : system.manifest().residuals)
    for (const auto& f : g.formulations) rows.push_back(f.residual.value_reference);
  std::vector<double> zv(z.size());
  for (std::size_t j = 0; j < z.size(); ++j) zv[j] = 0.01 * static_cast<double>(j + 1);
  EXPECT_EQ(inst->set_time(1e-7), CallStatus::ok);
  EXPECT_EQ(inst->set_continuous_states(x), CallStatus::ok);
  EXPECT_EQ(inst->set_float64(system.derivatives(), xdot), CallStatus::ok);
  EXPECT_EQ(inst->set_float64(z, zv), CallStatus::ok);
  std::vector<double> out(rows.size());
  EXPECT_EQ(inst->get_float64(rows, out), CallStatus::ok);
  std::vector<double> f(n);
  EXPECT_EQ(inst->get_continuous_state_derivatives(f), CallStatus::ok);
  out.insert(out.end(), f.begin(), f.end());
  std::vector<double> indicators(inst->number_of_event_indicators());
  EXPECT_EQ(inst->get_event_indicators(indicators), CallStatus::ok);
  out.insert(out.end(), indicators.begin(), indicators.end());
  // Directional derivatives with every known seeded (every component called).
  std::vector<ValueReference> knowns = system.states();
  knowns.insert(knowns.end(), z.begin(), z.end());
  std::vector<double> seed(knowns.size());
  for (std::size_t k = 0; k < seed.size(); ++k) seed[k] = 1.0 + 0.5 * static_cast<double>(k % 7);
  std::vector<double> sensitivity(rows.size());
  EXPECT_EQ(inst->get_directional_derivative(rows, knowns, seed, sensitivity), CallStatus::ok);
  out.insert(out.end(), sensitivity.begin(), sensitivity.end());
  inst->terminate();
  return out;
}

TEST(SystemThreads, AnInstanceOnTwoThreadsComputesBitwiseWhatOneComputes) {
  auto system = System::create(line_of_four());
  system->load_binary();
  ASSERT_TRUE(system->directional_derivatives_available()) << system->directional_derivatives_note();
  const std::vector<double> one = evaluate_at_a_point(*system, 1);
  ASSERT_GT(one.size(), 160u);
  EXPECT_TRUE(bitwise_equal(one, evaluate_at_a_point(*system, 2)));
  EXPECT_TRUE(bitwise_equal(one, evaluate_at_a_point(*system, 4)));  // more threads than cores: the same
}

// A component that fails on a worker thread: the caller gets its Error (the
// same as with one thread), not a crash, and the instance stays usable.
TEST(SystemThreads, AComponentErrorOnAWorkerThreadReachesTheCaller) {
  auto system = System::create(line_of_four());
  for (std::size_t threads : {1u, 2u}) {
    auto inst = system->instantiate("e" + std::to_string(threads));
    as_composite(*inst).configure_threads(threads, 0.0);  // parallel whatever the work
    std::vector<double> dx(system->states().size());
    // Before initialization: every component's FMU refuses the call (fmi3Error).
    try {
      inst->get_continuous_state_derivatives(dx);
      FAIL() << "accepted before initialization, threads " << threads;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::fmu_call) << e.what();
      EXPECT_NE(std::string(e.what()).find("e" + std::to_string(threads) + ".s1"), std::string::npos)
          << "the first component in component order names the failure: " << e.what();
    }
    inst->enter_initialization_mode(std::nullopt, 0.0, std::nullopt);
    inst->exit_initialization_mode();
    inst->enter_continuous_time_mode();
    EXPECT_EQ(inst->get_continuous_state_derivatives(dx), CallStatus::ok);
    inst->terminate();
  }
}

struct RunOutcome {
  std::vector<double> values;
  SimulationStats stats;
};

RunOutcome run(std::size_t threads, JacobianMode jacobian) {
  SimulationOptions o;
  o.rtol = 1e-4;  // 19 steps and Jacobians, every one compared (seconds, not tens)
  o.stop_time = 2e-11;
  o.threads = threads;
  o.jacobian = jacobian;
  // Every unknown its own colour: enough colours and work per Jacobian for
  // a second FMU instance (simulation/instance_count.h).
  o.uncolored_jacobian = true;
  auto sim = Simulation::create(System::create(line_of_thirteen()), o);
  sim->initialize();
  RunOutcome out;
  for (int k = 1; k <= 4; ++k) {
    sim->advance_to(5e-12 * k);
    for (const char* name : {"s1.filter.y", "s1.C[1].v", "s2.C[160].v", "s3.a.i", "s13.C[160].v", "s13.L[160].i"})
      out.values.push_back(sim->get(name));
  }
  out.stats = sim->statistics();
  return out;
}

void expect_threads_do_not_change_the_run(JacobianMode jacobian) {
  const RunOutcome one = run(1, jacobian), two = run(2, jacobian);
  if (omp_get_num_procs() >= 2) {
    EXPECT_EQ(two.stats.threads, 2u);
  }
  EXPECT_GE(one.stats.jacobian_evaluations, 2);
  EXPECT_TRUE(bitwise_equal(one.values, two.values));
  EXPECT_EQ(one.stats.steps, two.stats.steps);
  EXPECT_EQ(one.stats.residual_calls, two.stats.residual_calls);
  EXPECT_EQ(one.stats.jacobian_evaluations, two.stats.jacobian_evaluations);
  EXPECT_GT(one.stats.steps, 10);
}

TEST(SystemThreads, ARunOnTwoThreadsIsBitwiseTheRunOnOneWithFiniteDifferences) {
  expect_threads_do_not_change_the_run(JacobianMode::finite_differences);
}

TEST(SystemThreads, ARunOnTwoThreadsIsBitwiseTheRunOnOneWithDirectionalDerivatives) {
  expect_threads_do_not_change_the_run(JacobianMode::directional);
}

}  // namespace
}  // namespace lsdae
