// tests/models/psse/exciter_test_util.h -- the operating point and helpers
// the exciter tests share (exciter_*_test.cpp).
#ifndef LSDAE_TESTS_MODELS_PSSE_EXCITER_TEST_UTIL_H
#define LSDAE_TESTS_MODELS_PSSE_EXCITER_TEST_UTIL_H

#include <cmath>
#include <map>
#include <numbers>
#include <string>
#include <vector>

#include "component_harness.h"
#include "component_stepper.h"
#include "psse/core/signals.h"

namespace lsdae::psse::test {

// ThreeBusMulti.raw solved, bus 102 (component_harness.h's example): the
// machine's terminal voltage and power; the field voltage and current a
// GENROU there needs are of the order of 2 p.u.
inline const Complex kV102 = std::polar(1.02, -0.94395179 * std::numbers::pi / 180.0);
inline const Complex kS102(1.0, -0.03246834);

// The signals a machine sets for its exciter: Efd, XadIfd, the terminal current (MBASE = SBASE).
inline std::map<std::string, double> machine_signals(double efd, double ifd) {
  const Complex i = std::conj(kS102 / kV102);
  return {{signal::efd, efd}, {signal::ifd, ifd}, {signal::itr, i.real()}, {signal::iti, i.imag()}};
}

inline UnitData unit_100() {
  UnitData u;
  u.mbase = 100.0;
  return u;
}

// The exciter at rest at kV102 with the given machine signals: every
// derivative and residual below 1e-12, exact partials.
template <class Make>
ComponentHarness at_rest(Make make, const std::string& model, std::vector<double> values, double efd = 2.0,
                         double ifd = 2.0) {
  ComponentHarness h(make(record(102, model, "1", std::move(values)), unit_100()));
  h.initialize(kV102, kS102, machine_signals(efd, ifd));
  return h;
}

// The message a ModelError carries ("" when none is thrown).
template <class F>
std::string error_of(F f) {
  try {
    f();
  } catch (const ModelError& e) {
    return e.what();
  }
  return "";
}

}  // namespace lsdae::psse::test

#endif  // LSDAE_TESTS_MODELS_PSSE_EXCITER_TEST_UTIL_H
