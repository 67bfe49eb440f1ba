// tests/models/powergrid/disturbance_test.cpp -- candidate sets, parameter
// validation (one message each) and the event times of the disturbances.
#include <gtest/gtest.h>

#include <stdexcept>

#include "powergrid/disturbance.h"

namespace lsdae::powergrid {
namespace {

// Three buses 10, 20, 30; branches in rows 1 (10-20) and 3 (20-30) in service.
GridData three_buses() {
  GridData d;
  d.name = "three";
  d.bus_number = {10, 20, 30};
  d.voltage.assign(3, Complex(1, 0));
  d.branches.resize(2);
  d.branches[0].case_row = 1;
  d.branches[0].from = 0;
  d.branches[0].to = 1;
  d.branches[1].case_row = 3;
  d.branches[1].from = 1;
  d.branches[1].to = 2;
  return d;
}

std::string message_of(const DisturbanceCandidates& c, const DisturbanceParameters& p) {
  try {
    resolve(c, p, "three");
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Disturbance, CandidateLists) {
  const GridData d = three_buses();
  const DisturbanceCandidates all(d, "all", "all");
  EXPECT_TRUE(all.fault_candidate(0) && all.fault_candidate(2) && all.trip_candidate(1));
  const DisturbanceCandidates some(d, "20,30", "3");
  EXPECT_FALSE(some.fault_candidate(0));
  EXPECT_TRUE(some.fault_candidate(1) && some.fault_candidate(2));
  EXPECT_FALSE(some.trip_candidate(0));
  EXPECT_TRUE(some.trip_candidate(1));
  const DisturbanceCandidates none(d, "none", "");
  EXPECT_FALSE(none.fault_candidate(1) || none.trip_candidate(0));
  EXPECT_EQ(none.trip_text(), "none");
}

TEST(Disturbance, BadCandidateListsAreNamed) {
  const GridData d = three_buses();
  auto error = [&](const std::string& faults, const std::string& trips) -> std::string {
    try {
      DisturbanceCandidates c(d, faults, trips);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "(no error)";
  };
  EXPECT_EQ(error("40", "none"),
            "model configuration: fault_buses names bus 40, which three does not have → list bus numbers of the case");
  EXPECT_EQ(error("1x", "none"),
            "model configuration: fault_buses has \"1x\" → give a comma-separated list of numbers, all or none");
  EXPECT_EQ(error("none", "2"),
            "model configuration: trip_branches names branch row 2, which is not an in-service branch of three → list "
            "rows of mpc.branch with status 1");
}

TEST(Disturbance, ParametersAreValidated) {
  const DisturbanceCandidates c(three_buses(), "20", "3");
  DisturbanceParameters p;
  p.fault_bus = 20;
  p.fault_t_on = 1;
  p.fault_t_off = 1.1;
  p.fault_x = 1e-4;
  p.trip_branch = 3;
  p.trip_time = 1.1;
  EXPECT_EQ(message_of(c, p), "(no error)");
  auto with = [&](auto change) {
    DisturbanceParameters q = p;
    change(q);
    return message_of(c, q);
  };
  EXPECT_EQ(with([](auto& q) { q.fault_bus = 10; }),
            "fault.bus = 10: not one of the buses this FMU can fault (fault_buses=20) → rebuild it with fault_buses=10 "
            "(or all), or choose one of 20");
  EXPECT_EQ(with([](auto& q) { q.fault_bus = 99; }),
            "fault.bus = 99: three has no such bus → choose a bus number of the case (0 for no fault)");
  EXPECT_EQ(with([](auto& q) { q.trip_branch = 1; }),
            "trip.branch = 1: not one of the branches this FMU can trip (trip_branches=3) → rebuild it with "
            "trip_branches=1 (or all), or choose one of 3");
  EXPECT_EQ(with([](auto& q) { q.trip_branch = 2.5; }),
            "trip.branch = 2.5 is not a branch row → give a whole number (0 for none)");
  EXPECT_EQ(with([](auto& q) { q.fault_bus = 0; q.fault_x = 0; }), "(no error)");  // no fault: its data is unused
}

TEST(Disturbance, SwitchingTimes) {
  const DisturbanceCandidates c(three_buses(), "20", "3");
  DisturbanceParameters p;
  p.fault_bus = 20;
  p.fault_t_on = 1;
  p.fault_t_off = 1.1;
  p.fault_x = 1e-4;
  p.trip_branch = 3;
  p.trip_time = 1.05;
  const Disturbance d = resolve(c, p, "three");
  EXPECT_EQ(d.fault_bus, 1u);
  EXPECT_EQ(d.trip_branch, 1u);
  EXPECT_EQ(d.fault_admittance, Complex(0, -1e4));
  EXPECT_FALSE(d.fault_active(0.99));
  EXPECT_TRUE(d.fault_active(1.0));
  EXPECT_FALSE(d.fault_active(1.1));
  EXPECT_FALSE(d.trip_open(1.0));
  EXPECT_TRUE(d.trip_open(1.05));
  EXPECT_EQ(d.next_event(0.0), 1.0);
  EXPECT_EQ(d.next_event(1.0), 1.05);
  EXPECT_EQ(d.next_event(1.05), 1.1);
  EXPECT_FALSE(d.next_event(1.1));
}

}  // namespace
}  // namespace lsdae::powergrid
