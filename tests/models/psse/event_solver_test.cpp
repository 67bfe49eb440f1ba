// tests/models/psse/event_solver_test.cpp -- the event solve of PsseGrid
// (models/psse/system/event_solver.h) carries its pattern's union and KLU's
// pivots from one event to the next: (1) a System whose internal state was
// set back (what fmi3Reset does) repeats a new System's events bit for bit,
// whatever events it solved before; (2) with that history the solve finds
// the point a new System finds, to the solve's tolerance. On the validation
// ladder's cases whose events switch modes (GAST: GENROU, ESAC1A, GAST;
// LOAD: constant-power loads and their low-voltage switch).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "system_driver.h"

namespace lsdae::psse {
namespace {

const std::string kData = LSDAE_PSSE_DATA_DIR;

struct LadderCase {
  const char* folder;
  const char* dyr;
  int fault_bus;
  bool impedance_loads;
};
const LadderCase kCases[] = {{"GAST", "ThreeBus_GAST.dyr", 102, true}, {"LOAD", "ThreeBus_GENROU.dyr", 103, false}};

// Two events far from rest, the second from another point and later: the
// fault's switch-on at 0.5 s, then one at 0.55 s. Returns the limit events.
double two_events(test::SystemDriver& d, double scale) {
  d.move(scale);
  d.time = 0.5;
  double events = d.event();
  d.move(2e-3);
  d.time = 0.55;
  events += d.event();
  return events;
}

// Two new Systems of case `c`, each up to Continuous-Time Mode.
void open_pair(const LadderCase& c, test::SystemDriver& used, test::SystemDriver& fresh) {
  used.open(kData, c.folder, c.dyr, c.fault_bus, c.impedance_loads);
  fresh.open(kData, c.folder, c.dyr, c.fault_bus, c.impedance_loads);
}

TEST(PsseEventSolver, SetBackStateRepeatsANewSystemsEventsBitForBit) {
  for (const LadderCase& c : kCases) {
    SCOPED_TRACE(c.folder);
    test::SystemDriver used, fresh;
    open_pair(c, used, fresh);
    const std::vector<double> state = used.model->system.internal_state();
    const std::vector<double> values = used.v;
    EXPECT_GT(two_events(used, 0.3), 0.0) << "the events switched no mode";
    // Set back as fmi3Reset does: the start's values, its internal state.
    used.model->system.set_internal_state(state);
    used.v = values;
    used.next_epoch();
    EXPECT_GT(two_events(used, 0.25), 0.0);
    EXPECT_GT(two_events(fresh, 0.25), 0.0);
    // The same KLU work: nothing of the earlier events' analysis or pivots.
    const System::EventSolveCounts u = used.model->system.event_solve_counts();
    const System::EventSolveCounts f = fresh.model->system.event_solve_counts();
    EXPECT_GT(f.analyses, 0);
    EXPECT_EQ(u.analyses, f.analyses);
    EXPECT_EQ(u.factorizations, f.factorizations);
    EXPECT_EQ(u.refactorizations, f.refactorizations);
    ASSERT_EQ(used.v.size(), fresh.v.size());
    EXPECT_EQ(std::memcmp(used.v.data(), fresh.v.data(), used.v.size() * sizeof(double)), 0)
        << "the set-back System's events differ from a new one's: pivots of the earlier events kept";
  }
}

TEST(PsseEventSolver, PivotsOfEarlierEventsFindTheSamePoint) {
  for (const LadderCase& c : kCases) {
    SCOPED_TRACE(c.folder);
    test::SystemDriver used, fresh;
    open_pair(c, used, fresh);
    EXPECT_GT(two_events(used, 0.3), 0.0);
    // Both at the same point and modes: the internal state and values of the
    // used System copied into the fresh one, whose solver has no history.
    fresh.model->system.set_internal_state(used.model->system.internal_state());
    fresh.v = used.v;
    fresh.next_epoch();
    used.move(1e-3);
    fresh.move(1e-3);
    used.time = fresh.time = 0.58;
    used.event();
    fresh.event();
    double largest = 0.0;
    for (kit::ValueRef vr : used.desc.algebraic)
      largest = std::max(largest, std::fabs(used.v[vr] - fresh.v[vr]) / std::max(1.0, std::fabs(fresh.v[vr])));
    EXPECT_LT(largest, 1e-8) << "the algebraic variables after the event differ by " << largest;
  }
}

}  // namespace
}  // namespace lsdae::psse
