// tests/models/psse/control_test_tools.h -- helpers for the tests of the
// control models (governors, stabilizers) driven alone by the component
// harness: set an input signal, let the limiter modes follow the values as
// the framework does after an event, integrate a few seconds with explicit
// Euler (the models' algebraic variables are explicit: z = expression), the
// frequency response of a linear path, and the records of a .dyr file.
//
// The integration is for behaviour checks (steady states, which limiter is
// in control, rates); its accuracy is first order in dt and the tests' bounds
// say so. Validation against PSS/E trajectories is done on the FMUs.
#ifndef LSDAE_TESTS_MODELS_PSSE_CONTROL_TEST_TOOLS_H
#define LSDAE_TESTS_MODELS_PSSE_CONTROL_TEST_TOOLS_H

#include <complex>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "component_harness.h"

namespace lsdae::psse::test {

// Index of input `signal` in known() (throws std::out_of_range).
std::size_t input_slot(const ComponentHarness& h, const std::string& signal);
void set_input(ComponentHarness& h, const std::string& signal, double value);
double state_value(const ComponentHarness& h, const std::string& name);
double algebraic_value(const ComponentHarness& h, const std::string& name);
int limiter_index(const ComponentHarness& h, const std::string& name);

// The algebraic variables solved (z := z − g, exact for the explicit z = e(x, u)
// of these models) and the limiter modes set from the values, as the
// framework does after an event (limiter_mode_by_value, a non-windup state put
// to its limit when it engages). Returns the number of mode changes.
int settle(ComponentHarness& h);

// Explicit Euler from t0 to t0 + duration with step dt; `drive(t, h)` sets the
// inputs before each step. Returns the number of mode changes seen.
int simulate(ComponentHarness& h, double t0, double duration, double dt,
             const std::function<void(double, ComponentHarness&)>& drive = {});

// Frequency response d(algebraic `output`)/d(input `signal`) at s = jω of the
// model linearized at its current point and modes.
std::complex<double> frequency_response(const ComponentHarness& h, const std::string& signal,
                                        const std::string& output, double omega);

// The records of model `model` in a .dyr file (IBUS 'MODEL' ID values /).
std::vector<DyrRecord> dyr_records(const std::filesystem::path& file, const std::string& model);

// ../shared/data/grids/psse next to the source tree.
std::filesystem::path psse_data();

}  // namespace lsdae::psse::test

#endif  // LSDAE_TESTS_MODELS_PSSE_CONTROL_TEST_TOOLS_H
