// tests/models/powergrid/powergrid_fmu_state_test.cpp -- the FMU state of the
// PowerGrid FMU an N-1 sweep runs (PowerGrid_case39_all_disturbances, built
// with fmu_state=serialize; models/kit/instance_state.cpp), through its fmi3
// functions: get, set, free, serialize, deserialize; a state set back (also
// into another instance, from bytes) reproduces the evaluation bit for bit;
// foreign pointers, damaged bytes and an FMU without the capability are
// refused with a message.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <vector>

#include "grid_fmu_session.h"

namespace lsdae::test {
namespace {

const std::string kName = "PowerGrid_case39_all_disturbances";
std::string stage(const std::string& name) { return std::string(LSDAE_FMU_DIR) + "/" + name; }

// Everything a solver reads at the current point: derivatives, residuals, Vr/Vi, the switches.
std::vector<double> evaluation(GridFmuSession& s) {
  std::vector<double> out;
  for (const auto* vrs : {&s.derivatives(), &s.residuals(), &s.fmu().algebraic}) {
    const Eigen::VectorXd v = s.get(*vrs);
    out.insert(out.end(), v.data(), v.data() + v.size());
  }
  out.push_back(s.get("fault.active"));
  out.push_back(s.get("trip.open"));
  return out;
}

bool bitwise_equal(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

// A point off the operating point, in Continuous-Time Mode at t = 0.9.
void move_off(GridFmuSession& s, double shift) {
  s.set_time(0.9);
  Eigen::VectorXd x = s.get(s.states());
  for (Eigen::Index k = 0; k < x.size(); ++k) x[k] += shift * static_cast<double>(k % 3);
  s.set_states(x);
}

TEST(PowerGridFmuState, DeclaresTheCapabilities) {
  std::ifstream in(stage(kName) + "/modelDescription.xml");
  std::string xml, line;
  while (std::getline(in, line)) xml += line + "\n";
  EXPECT_NE(xml.find("canGetAndSetFMUState=\"true\""), std::string::npos);
  EXPECT_NE(xml.find("canSerializeFMUState=\"true\""), std::string::npos);
}

TEST(PowerGridFmuState, SetBackReproducesTheEvaluationBitwise) {
  const ParsedFmu fmu = parse_fmu(stage(kName));
  GridFmuSession s(kName, stage(kName), fmu, {{"fault.bus", 16}, {"trip.branch", 26}});
  const Fmi3Functions& f = s.functions();
  move_off(s, 1e-3);
  const std::vector<double> before = evaluation(s);

  fmi3FMUState state = nullptr;
  ASSERT_EQ(f.get_fmu_state(s.instance(), &state), fmi3OK) << s.joined_log();
  ASSERT_NE(state, nullptr);

  // On through the fault: other states, another time, the fault switched on.
  move_off(s, 5e-2);
  s.set_time(1.0);
  s.handle_event();
  ASSERT_EQ(s.get("fault.active"), 1.0);
  ASSERT_FALSE(bitwise_equal(evaluation(s), before));

  ASSERT_EQ(f.set_fmu_state(s.instance(), state), fmi3OK) << s.joined_log();
  EXPECT_TRUE(bitwise_equal(evaluation(s), before));
  EXPECT_EQ(s.get("fault.active"), 0.0);
  // Continuous-Time Mode again: the time and the states can be set as before.
  s.set_time(0.9);
  s.set_states(s.get(s.states()));
  EXPECT_TRUE(bitwise_equal(evaluation(s), before));

  // Serialize, free, deserialize: the same state from bytes.
  size_t size = 0;
  ASSERT_EQ(f.serialized_fmu_state_size(s.instance(), state, &size), fmi3OK) << s.joined_log();
  std::vector<fmi3Byte> bytes(size);
  ASSERT_EQ(f.serialize_fmu_state(s.instance(), state, bytes.data(), bytes.size()), fmi3OK) << s.joined_log();
  ASSERT_EQ(f.free_fmu_state(s.instance(), &state), fmi3OK);
  EXPECT_EQ(state, nullptr);
  move_off(s, 7e-2);
  ASSERT_EQ(f.deserialize_fmu_state(s.instance(), bytes.data(), bytes.size(), &state), fmi3OK) << s.joined_log();
  ASSERT_EQ(f.set_fmu_state(s.instance(), state), fmi3OK) << s.joined_log();
  EXPECT_TRUE(bitwise_equal(evaluation(s), before));

  // Into another instance, initialized with other parameters: its evaluation
  // becomes the first one's (the parameters are part of the state).
  GridFmuSession other("other", stage(kName), fmu, {{"fault.bus", 3}, {"trip.branch", 5}});
  fmi3FMUState there = nullptr;
  ASSERT_EQ(other.functions().deserialize_fmu_state(other.instance(), bytes.data(), bytes.size(), &there), fmi3OK)
      << other.joined_log();
  ASSERT_EQ(other.functions().set_fmu_state(other.instance(), there), fmi3OK) << other.joined_log();
  EXPECT_TRUE(bitwise_equal(evaluation(other), before));
  EXPECT_EQ(other.get("fault.bus"), 16.0);
  EXPECT_EQ(other.functions().free_fmu_state(other.instance(), &there), fmi3OK);

  // Overwriting a state in place (fmi3GetFMUState with *state set).
  fmi3FMUState same = state;
  move_off(s, 2e-2);
  const std::vector<double> later = evaluation(s);
  ASSERT_EQ(f.get_fmu_state(s.instance(), &state), fmi3OK) << s.joined_log();
  EXPECT_EQ(state, same);
  move_off(s, 3e-2);
  ASSERT_EQ(f.set_fmu_state(s.instance(), state), fmi3OK);
  EXPECT_TRUE(bitwise_equal(evaluation(s), later));
  EXPECT_EQ(f.free_fmu_state(s.instance(), &state), fmi3OK);
  fmi3FMUState none = nullptr;
  EXPECT_EQ(f.free_fmu_state(s.instance(), &none), fmi3OK) << "freeing NULL is a no-op";
}

TEST(PowerGridFmuState, ForeignPointersAndDamagedBytesAreRefused) {
  const ParsedFmu fmu = parse_fmu(stage(kName));
  GridFmuSession s(kName, stage(kName), fmu);
  const Fmi3Functions& f = s.functions();
  int not_a_state = 0;
  EXPECT_EQ(f.set_fmu_state(s.instance(), &not_a_state), fmi3Error);
  EXPECT_NE(s.joined_log().find("fmi3SetFMUState: the FMU state given was not made by this instance"),
            std::string::npos)
      << s.joined_log();

  fmi3FMUState state = nullptr;
  ASSERT_EQ(f.get_fmu_state(s.instance(), &state), fmi3OK);
  size_t size = 0;
  ASSERT_EQ(f.serialized_fmu_state_size(s.instance(), state, &size), fmi3OK);
  std::vector<fmi3Byte> bytes(size);
  EXPECT_EQ(f.serialize_fmu_state(s.instance(), state, bytes.data(), size - 1), fmi3Error);
  EXPECT_NE(s.joined_log().find("pass a buffer of the size fmi3SerializedFMUStateSize returns"), std::string::npos);
  ASSERT_EQ(f.serialize_fmu_state(s.instance(), state, bytes.data(), size), fmi3OK);

  fmi3FMUState decoded = nullptr;
  EXPECT_EQ(f.deserialize_fmu_state(s.instance(), bytes.data(), size - 8, &decoded), fmi3Error);
  EXPECT_NE(s.joined_log().find("fmi3DeserializeFMUState: the bytes end inside"), std::string::npos)
      << s.joined_log();
  std::vector<fmi3Byte> longer = bytes;
  longer.push_back(0);
  EXPECT_EQ(f.deserialize_fmu_state(s.instance(), longer.data(), longer.size(), &decoded), fmi3Error);
  std::vector<fmi3Byte> wrong = bytes;
  wrong[0] = 'X';
  EXPECT_EQ(f.deserialize_fmu_state(s.instance(), wrong.data(), wrong.size(), &decoded), fmi3Error);
  EXPECT_NE(s.joined_log().find("not a serialized state of a kit FMU"), std::string::npos);
  wrong = bytes;
  wrong[16] ^= 0x01;  // a character of the instantiation token
  EXPECT_EQ(f.deserialize_fmu_state(s.instance(), wrong.data(), wrong.size(), &decoded), fmi3Error);
  EXPECT_NE(s.joined_log().find("serialized by another FMU"), std::string::npos) << s.joined_log();
  EXPECT_EQ(decoded, nullptr);
  EXPECT_EQ(f.free_fmu_state(s.instance(), &state), fmi3OK);
  // A freed state is no longer known.
  fmi3FMUState freed = state;
  EXPECT_EQ(f.set_fmu_state(s.instance(), freed), fmi3Error);
}

TEST(PowerGridFmuState, AnFmuWithoutTheCapabilityRefusesWithTheRebuild) {
  const std::string name = "PowerGrid_case39_semi_explicit";
  const ParsedFmu fmu = parse_fmu(stage(name));
  GridFmuSession s(name, stage(name), fmu);
  fmi3FMUState state = nullptr;
  EXPECT_EQ(s.functions().get_fmu_state(s.instance(), &state), fmi3Error);
  EXPECT_NE(s.joined_log().find("fmi3GetFMUState: canGetAndSetFMUState is false for this FMU → build it with the "
                                "configuration key fmu_state=get_set (or serialize)"),
            std::string::npos)
      << s.joined_log();
  EXPECT_EQ(state, nullptr);
}

}  // namespace
}  // namespace lsdae::test
