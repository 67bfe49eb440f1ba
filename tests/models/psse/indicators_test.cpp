// tests/models/psse/indicators_test.cpp -- the indicator-only evaluation of
// PsseGrid (System::compute_event_indicators, system.h; kit::Model::
// compute_event_indicators): on the validation ladder's cases with limiters
// (GAST: GENROU, ESAC1A, GAST; HYGOV: SEXS, HYGOV; LOAD: constant-power
// loads and their low-voltage switch, evaluated by ZipLoad::limiter_equations,
// the switch alone: component.h) its
// indicators are bitwise those of a full compute() at the same point, with
// the modes of the initialization, after an event that switched modes (and
// left indicator shifts), and after the internal state was restored; and it
// is taken (returns false: only the indicators were evaluated) exactly where
// the parameters and modes in hand are the point's. The System is driven as
// the kit drives it (Initialization Mode, the first update, Continuous-Time
// Mode at one discrete epoch, an event moving the epoch), on the kit's own
// description of its variables. The kit's side (which evaluation serves
// which getter) is tested on the PsseGrid FMUs: psse_indicators_fmu_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "psse/system/system.h"
#include "system_driver.h"

namespace lsdae::psse {
namespace {

const std::string kData = LSDAE_PSSE_DATA_DIR;

class Indicators : public ::testing::Test {
 protected:
  // The ladder case `folder` up to Continuous-Time Mode (system_driver.h);
  // every case has a fault at `fault_bus` from 0.5 to 0.6 s, which event()
  // switches on.
  void open(const std::string& folder, const std::string& dyr, int fault_bus, bool impedance_loads = true) {
    d_.open(kData, folder, dyr, fault_bus, impedance_loads);
  }
  kit::Context context() { return d_.context(); }
  void next_epoch() { d_.next_epoch(); }
  void move(double scale) { d_.move(scale); }
  double event() { return d_.event(); }
  std::vector<double> indicators() const {
    std::vector<double> out;
    for (kit::ValueRef vr : d_.desc.event_indicators) out.push_back(d_.v[vr]);
    return out;
  }
  // Every indicator set to a value no evaluation writes, so that an
  // indicator left unwritten cannot pass as equal.
  void poison_indicators() {
    for (kit::ValueRef vr : d_.desc.event_indicators) d_.v[vr] = -12345.678;
  }
  // At the current point (Continuous-Time Mode, the epoch of a compute()
  // already run): the indicator-only evaluation, then a full compute(), then
  // the indicator-only evaluation again; the three bitwise equal, and the
  // indicator-only path taken both times. Returns the indicators.
  std::vector<double> expect_same_both_ways(const char* where) {
    kit::Context c = context();
    poison_indicators();
    EXPECT_FALSE(system().compute_event_indicators(c)) << where << ": the indicator-only path was not taken";
    const std::vector<double> only = indicators();
    poison_indicators();
    system().compute(c);
    const std::vector<double> full = indicators();
    poison_indicators();
    EXPECT_FALSE(system().compute_event_indicators(c)) << where;
    const std::vector<double> again = indicators();
    EXPECT_EQ(std::memcmp(only.data(), full.data(), only.size() * sizeof(double)), 0)
        << where << ": the indicator-only values differ from compute()'s";
    EXPECT_EQ(std::memcmp(again.data(), full.data(), only.size() * sizeof(double)), 0) << where;
    return full;
  }
  // The indicators differ from 1.0 somewhere (a limiter the equations reach,
  // not only unwritten records) and some differ from those of `other`.
  void expect_informative(const std::vector<double>& z, const std::vector<double>& other, const char* where) {
    bool reached = false, moved = false;
    for (std::size_t i = 0; i < z.size(); ++i) {
      reached = reached || z[i] != 1.0;
      moved = moved || z[i] != other[i];
    }
    EXPECT_TRUE(reached) << where;
    EXPECT_TRUE(moved) << where;
  }
  // The whole check on one case: the operating point, two moved points,
  // a drop of every bus voltage to 40 % (an event that engages limits, and
  // the points after it), and the internal state restored.
  void check_case() {
    kit::Context c = context();
    system().compute(c);
    const std::vector<double> rest = expect_same_both_ways("operating point");
    move(1e-3);
    // A moved point without compute() at this epoch since: the path reads
    // only the knowns, so it is still taken (the parameters are the epoch's).
    const std::vector<double> moved = expect_same_both_ways("moved point");
    expect_informative(moved, rest, "moved point");
    move(-2e-3);
    expect_same_both_ways("second moved point");

    // The fault's time event at a point far from rest (every state and
    // algebraic variable 30 % up or 15 % down): the event solve at the
    // faulted network switches modes.
    move(0.3);
    d_.time = 0.5;
    EXPECT_GT(event(), 0.0) << "the event switched no mode";
    d_.time = 0.52;
    c = context();
    system().compute(c);
    const std::vector<double> after = expect_same_both_ways("after the event");
    expect_informative(after, rest, "after the event");
    move(5e-4);
    expect_same_both_ways("moved after the event");

    // The internal state saved here, the point moved and evaluated, the state
    // restored (fmi3SetFMUState: a new epoch, the kit's first evaluation a
    // compute()).
    const std::vector<double> saved = system().internal_state();
    const std::vector<double> saved_v = d_.v;
    move(1e-3);
    expect_same_both_ways("before the restore");
    system().set_internal_state(saved);
    d_.v = saved_v;
    next_epoch();
    c = context();
    EXPECT_TRUE(system().compute_event_indicators(c)) << "a new epoch: compute() runs";
    const std::vector<double> restored = indicators();
    EXPECT_EQ(std::memcmp(restored.data(), expect_same_both_ways("restored").data(), restored.size() * sizeof(double)),
              0);
  }

  test::SystemDriver d_;
  System& system() { return d_.model->system; }
};

TEST_F(Indicators, GastCaseEqualsTheFullEvaluationBitwise) {
  open("GAST", "ThreeBus_GAST.dyr", 102);
  check_case();
}

TEST_F(Indicators, HygovCaseEqualsTheFullEvaluationBitwise) {
  open("HYGOV", "ThreeBus_HYGOV.dyr", 102);
  check_case();
}

TEST_F(Indicators, ConstantPowerLoadsCaseEqualsTheFullEvaluationBitwise) {
  open("LOAD", "ThreeBus_GENROU.dyr", 103, false);  // the loads' low-voltage switches
  check_case();
}

// Where the parameters and modes in hand may not be the point's, the full
// evaluation runs (returns true): Initialization Mode, a new discrete epoch,
// another value array (the event solver's copies), epoch 0 (unknown).
TEST_F(Indicators, FullEvaluationWhereTheParametersInHandMayBeStale) {
  open("GAST", "ThreeBus_GAST.dyr", 102);
  kit::Context c = context();
  system().compute(c);
  EXPECT_FALSE(system().compute_event_indicators(c));
  kit::Context init = context();
  init.initialization = true;
  EXPECT_TRUE(system().compute_event_indicators(init));
  next_epoch();
  c = context();
  EXPECT_TRUE(system().compute_event_indicators(c)) << "a new epoch";
  EXPECT_FALSE(system().compute_event_indicators(c)) << "the same epoch after it";
  std::vector<double> copy = d_.v;
  kit::Context other = context();
  other.v = copy.data();
  EXPECT_TRUE(system().compute_event_indicators(other)) << "another array";
  kit::Context unknown = context();
  unknown.discrete_epoch = 0;
  EXPECT_TRUE(system().compute_event_indicators(unknown)) << "epoch 0";
  EXPECT_TRUE(system().compute_event_indicators(unknown)) << "epoch 0, again";
}

}  // namespace
}  // namespace lsdae::psse
