// tests/models/kit_clocks_test.cpp -- the kit's FMI 3.0 clocks (models/kit/
// instance_clocks.cpp) and the clock FMUs of models/clocks:
//   * each clock FMU, run by an importer of our own (clock_driver.h: RK4,
//     exact time events, bisection for state events, the clock duties),
//     reproduces its exact reference: every row, every tick time;
//   * Trigger's output clock driving ClockTicks_triggered reproduces the
//     system reference of models/systems/clocked_counter;
//   * every call that FMI 3.0 does not allow returns fmi3Error with a message
//     naming the function, the clock and the rule, and every duty an importer
//     leaves undone is a warning.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "clock_driver.h"
#include "fmu_fixture.h"

namespace lsdae::test {
namespace {

const std::vector<CatalogEntry>& catalog() {
  static const std::vector<CatalogEntry> c = read_catalog();
  return c;
}
const CatalogEntry& entry(const std::string& name) {
  for (const auto& e : catalog())
    if (e.name == name) return e;
  throw std::runtime_error("no FMU " + name + " in the catalog");
}

bool repeats(const ReferenceTable& ref, std::size_t r) {
  return (r > 0 && ref.rows[r][0] == ref.rows[r - 1][0]) ||
         (r + 1 < ref.rows.size() && ref.rows[r][0] == ref.rows[r + 1][0]);
}

// Compares a run's samples with a reference table: the same rows in the same
// order (an event pair is two rows), each column within 1e-8 of its scale.
void expect_matches(const std::vector<ClockedRun::Sample>& samples, const std::vector<std::string>& names,
                    const ReferenceTable& ref, const std::vector<std::size_t>& columns, const std::string& what) {
  ASSERT_EQ(samples.size(), ref.rows.size()) << what << ": rows of the run and of the reference";
  int failures = 0;
  for (std::size_t r = 0; r < ref.rows.size() && failures < 10; ++r) {
    const auto& s = samples[r];
    EXPECT_NEAR(s.time, ref.rows[r][0], 1e-9) << what << ": row " << r + 2;
    EXPECT_EQ(s.at_event, repeats(ref, r)) << what << ": row " << r + 2 << " at t = " << ref.rows[r][0];
    for (std::size_t k = 0; k < columns.size(); ++k) {
      const double expected = ref.rows[r][columns[k]];
      if (std::fabs(s.values[k] - expected) > 1e-8 * std::max(1.0, std::fabs(expected))) {
        ++failures;
        ADD_FAILURE() << what << ": " << names[k] << " = " << s.values[k] << " at t = " << s.time << " (row "
                      << r + 2 << "), reference " << expected;
      }
    }
  }
}

// The variables a reference lists (no time, no derivatives) and their columns.
void reference_columns(const ReferenceTable& ref, const std::string& prefix, std::vector<std::string>& names,
                       std::vector<std::size_t>& columns) {
  for (std::size_t c = 1; c < ref.columns.size(); ++c) {
    const std::string& name = ref.columns[c];
    if (name.rfind("der(", 0) == 0 || name == "z") continue;
    if (!prefix.empty() && name.rfind(prefix, 0) != 0) continue;
    names.push_back(prefix.empty() ? name : name.substr(prefix.size()));
    columns.push_back(c);
  }
}

class ClockFmu : public ::testing::TestWithParam<std::string> {};

TEST_P(ClockFmu, ReproducesItsExactReference) {
  const CatalogEntry& e = entry(GetParam());
  const ReferenceTable ref = read_reference(e.reference_csv);
  std::vector<std::string> names;
  std::vector<std::size_t> columns;
  reference_columns(ref, "", names, columns);
  std::vector<double> grid;
  for (std::size_t r = 0; r < ref.rows.size(); ++r)
    if (!repeats(ref, r)) grid.push_back(ref.rows[r][0]);
  ClockedRun run({&e}, {names});
  run.run(ref.rows.back()[0], 1e-3, grid);
  expect_matches(run.samples(0), names, ref, columns, e.name);
  // The tick times are the reference's event pairs.
  std::vector<double> ticks;
  for (std::size_t r = 1; r < ref.rows.size(); ++r)
    if (ref.rows[r][0] == ref.rows[r - 1][0]) ticks.push_back(ref.rows[r][0]);
  ASSERT_EQ(run.tick_times(0).size(), ticks.size()) << e.name;
  for (std::size_t k = 0; k < ticks.size(); ++k) EXPECT_NEAR(run.tick_times(0)[k], ticks[k], 1e-9) << e.name;
}

INSTANTIATE_TEST_SUITE_P(Clocks, ClockFmu,
                         ::testing::Values("ClockTicks_constant", "ClockTicks_constant_lenient", "ClockTicks_fixed",
                                           "ClockTicks_tunable", "ClockTicks_changing", "ClockTicks_triggered",
                                           "SampleHold", "CrankIgnition", "Trigger"),
                         [](const auto& param_info) { return param_info.param; });

TEST(ClockSystem, TriggerOutputClockDrivesTheCountersTriggeredClock) {
  const ReferenceTable ref = read_reference(std::string(LSDAE_SOURCE_DIR) + "/models/systems/reference/clocked_counter.csv");
  std::vector<std::string> trigger_names, counter_names;
  std::vector<std::size_t> trigger_columns, counter_columns;
  reference_columns(ref, "trigger.", trigger_names, trigger_columns);
  reference_columns(ref, "counter.", counter_names, counter_columns);
  std::vector<double> grid;
  for (std::size_t r = 0; r < ref.rows.size(); ++r)
    if (!repeats(ref, r)) grid.push_back(ref.rows[r][0]);
  ClockedRun run({&entry("Trigger"), &entry("ClockTicks_triggered")}, {trigger_names, counter_names},
                 std::make_pair(std::string("crossed"), std::string("tick")));
  run.run(2.0, 1e-3, grid);
  expect_matches(run.samples(0), trigger_names, ref, trigger_columns, "Trigger");
  expect_matches(run.samples(1), counter_names, ref, counter_columns, "ClockTicks_triggered");
  EXPECT_EQ(run.tick_times(1), run.tick_times(0));
}

// ---- the rules -------------------------------------------------------------

class ClockRules : public ::testing::Test {
 protected:
  void open(const std::string& name) {
    entry_ = &entry(name);
    fmu_ = parse_fmu(entry_->stage_dir);
    fns_ = load_binary(entry_->stage_dir, fmu_.model_identifier);
    const std::string resources = entry_->stage_dir + "/resources/";
    inst_ = fns_.instantiate("rules", fmu_.token.c_str(), resources.c_str(), false, false, &log_, &LogSink::callback);
    ASSERT_NE(inst_, nullptr);
  }
  void TearDown() override {
    if (inst_ != nullptr) fns_.free_instance(inst_);
    unload_binary(fns_);
  }
  fmi3ValueReference vr(const std::string& name) const { return fmu_.by_name.at(name); }
  std::string last() const { return log_.messages.empty() ? "" : log_.messages.back(); }
  bool said(const std::string& fragment) const {
    for (const auto& m : log_.messages)
      if (m.find(fragment) != std::string::npos) return true;
    return false;
  }
  void init() {
    ASSERT_EQ(fns_.enter_initialization(inst_, false, 0, 0, false, 0), fmi3OK);
    ASSERT_EQ(fns_.exit_initialization(inst_), fmi3OK) << last();  // constant clocks: nothing to read
  }
  fmi3Status set_clock(const std::string& name, bool on) {
    const fmi3ValueReference c = vr(name);
    return fns_.set_clock(inst_, &c, 1, &on);
  }
  fmi3Status update() {
    bool a, b, c, d, e;
    double t;
    return fns_.update_discrete_states(inst_, &a, &b, &c, &d, &e, &t);
  }
  const CatalogEntry* entry_ = nullptr;
  ParsedFmu fmu_;
  Fmi3Functions fns_;
  fmi3Instance inst_ = nullptr;
  LogSink log_;
};

TEST_F(ClockRules, ATickRunsThePartitionOnceAndUpdateDeactivatesTheClock) {
  open("ClockTicks_constant");
  init();
  ASSERT_EQ(set_clock("tick", true), fmi3OK) << last();
  const fmi3ValueReference count = vr("count");
  fmi3Int32 n = -1;
  ASSERT_EQ(fns_.get_int32(inst_, &count, 1, &n, 1), fmi3OK) << last();
  EXPECT_EQ(n, 1);
  ASSERT_EQ(fns_.get_int32(inst_, &count, 1, &n, 1), fmi3OK);
  EXPECT_EQ(n, 1) << "a second read in the same tick does not count again";
  bool active = false;
  const fmi3ValueReference tick = vr("tick");
  ASSERT_EQ(fns_.get_clock(inst_, &tick, 1, &active), fmi3OK);
  EXPECT_TRUE(active);
  ASSERT_EQ(update(), fmi3OK) << last();
  ASSERT_EQ(fns_.get_clock(inst_, &tick, 1, &active), fmi3OK);
  EXPECT_FALSE(active) << "fmi3UpdateDiscreteStates deactivates every clock";
  // A periodic clock once per Event Mode.
  EXPECT_EQ(set_clock("tick", true), fmi3Error);
  EXPECT_NE(last().find("fmi3SetClock: clock \"tick\" (constant) was active in an fmi3UpdateDiscreteStates of this "
                        "Event Mode already"),
            std::string::npos)
      << last();
}

TEST_F(ClockRules, CallsOutsideTheirModesOrTimesAreRefused) {
  open("ClockTicks_constant");
  EXPECT_EQ(set_clock("tick", true), fmi3Error);
  EXPECT_NE(last().find("fmi3SetClock: not allowed in Instantiated (allowed in Event Mode)"), std::string::npos) << last();
  init();
  // Active clock left active: the partition would never be committed.
  ASSERT_EQ(set_clock("tick", true), fmi3OK) << last();
  EXPECT_EQ(fns_.enter_continuous_time(inst_), fmi3Error);
  EXPECT_NE(last().find("fmi3EnterContinuousTimeMode: clock \"tick\" is still active; call fmi3UpdateDiscreteStates"),
            std::string::npos) << last();
  // No deactivation without canBeDeactivated.
  EXPECT_EQ(set_clock("tick", false), fmi3Error);
  EXPECT_NE(last().find("has canBeDeactivated=\"false\""), std::string::npos) << last();
  ASSERT_EQ(update(), fmi3OK);
  ASSERT_EQ(fns_.enter_continuous_time(inst_), fmi3OK) << last();
  // Clocked variables between ticks (strict access).
  const fmi3ValueReference count = vr("count");
  fmi3Int32 n = 0;
  EXPECT_EQ(fns_.get_int32(inst_, &count, 1, &n, 1), fmi3Error);
  EXPECT_NE(last().find("fmi3GetInt32: variable \"count\" is clocked by \"tick\", none of them active "
                        "(Continuous-Time Mode)"),
            std::string::npos) << last();
  const fmi3ValueReference tick = vr("tick");
  bool active = true;
  EXPECT_EQ(fns_.get_clock(inst_, &tick, 1, &active), fmi3Error);
  EXPECT_NE(last().find("fmi3GetClock: not allowed in Continuous-Time Mode"), std::string::npos) << last();
  // A tick let pass: one warning, at the call that moves time past it.
  EXPECT_EQ(fns_.set_time(inst_, 0.25), fmi3Warning);
  EXPECT_NE(last().find("fmi3SetTime: input clock \"tick\" (constant) was due at t = 0.20000000000000001 and was not "
                        "activated"),
            std::string::npos) << last();
  EXPECT_EQ(fns_.set_time(inst_, 0.3), fmi3OK) << "said once per clock";
  ASSERT_EQ(fns_.enter_event(inst_), fmi3OK);
  EXPECT_EQ(set_clock("tick", true), fmi3Error);
  EXPECT_NE(last().find("fmi3SetClock: clock \"tick\" (constant) is due at t = 0.20000000000000001, not at t = "
                        "0.29999999999999999"),
            std::string::npos) << last();
}

TEST_F(ClockRules, IntervalsAndShiftsFollowTheClockTable) {
  open("ClockTicks_constant");
  const fmi3ValueReference tick = vr("tick");
  double interval = 0, shift = -1;
  fmi3IntervalQualifier q = fmi3IntervalNotYetKnown;
  ASSERT_EQ(fns_.enter_initialization(inst_, false, 0, 0, false, 0), fmi3OK);
  ASSERT_EQ(fns_.get_interval_decimal(inst_, &tick, 1, &interval, &q), fmi3OK) << last();
  EXPECT_EQ(interval, 0.2);
  EXPECT_EQ(q, fmi3IntervalChanged);
  ASSERT_EQ(fns_.get_interval_decimal(inst_, &tick, 1, &interval, &q), fmi3OK);
  EXPECT_EQ(q, fmi3IntervalUnchanged);
  fmi3UInt64 counter = 0, resolution = 0;
  ASSERT_EQ(fns_.get_interval_fraction(inst_, &tick, 1, &counter, &resolution, &q), fmi3OK) << last();
  EXPECT_EQ(counter, 1u);
  EXPECT_EQ(resolution, 5u);
  ASSERT_EQ(fns_.get_shift_decimal(inst_, &tick, 1, &shift), fmi3OK);
  EXPECT_EQ(shift, 0.0);
  const double new_interval = 0.5;
  EXPECT_EQ(fns_.set_interval_decimal(inst_, &tick, 1, &new_interval), fmi3Error);
  EXPECT_NE(last().find("fmi3SetIntervalDecimal: clock \"tick\" (constant) takes no interval from the importer"),
            std::string::npos) << last();
  ASSERT_EQ(fns_.exit_initialization(inst_), fmi3OK);
  EXPECT_EQ(fns_.get_shift_decimal(inst_, &tick, 1, &shift), fmi3Error);
  EXPECT_NE(last().find("fmi3GetShiftDecimal: not allowed in Event Mode (allowed in Initialization Mode)"),
            std::string::npos) << last();
}

TEST_F(ClockRules, AFixedClockTakesTheImportersIntervalAndShiftInInitializationModeOnly) {
  open("ClockTicks_fixed");
  const fmi3ValueReference tick = vr("tick");
  ASSERT_EQ(fns_.enter_initialization(inst_, false, 0, 0, false, 0), fmi3OK);
  const double interval = 0.5, shift = 0.2;
  ASSERT_EQ(fns_.set_interval_decimal(inst_, &tick, 1, &interval), fmi3OK) << last();
  ASSERT_EQ(fns_.set_shift_decimal(inst_, &tick, 1, &shift), fmi3OK) << last();
  ASSERT_EQ(fns_.exit_initialization(inst_), fmi3OK);
  ASSERT_EQ(update(), fmi3OK);
  ASSERT_EQ(fns_.enter_continuous_time(inst_), fmi3OK);
  for (double t : {0.2, 0.7}) {
    ASSERT_EQ(fns_.set_time(inst_, t), fmi3OK) << last();
    ASSERT_EQ(fns_.enter_event(inst_), fmi3OK);
    EXPECT_EQ(set_clock("tick", true), fmi3OK) << "due at 0.2 + 0.5 k: " << last();
    ASSERT_EQ(update(), fmi3OK);
    EXPECT_EQ(fns_.set_interval_decimal(inst_, &tick, 1, &interval), fmi3Error);
    EXPECT_NE(last().find("is fixed: set its interval in Initialization Mode"), std::string::npos) << last();
    ASSERT_EQ(fns_.enter_continuous_time(inst_), fmi3OK);
  }
}

TEST_F(ClockRules, OutputAndTriggeredClocksHaveNoTimingAndOutputClocksAreNotSet) {
  open("Trigger");
  init();
  EXPECT_EQ(set_clock("crossed", true), fmi3Error);
  EXPECT_NE(last().find("fmi3SetClock: clock \"crossed\" (triggered) is an output clock"), std::string::npos) << last();
  const fmi3ValueReference crossed = vr("crossed");
  double interval = 0;
  fmi3IntervalQualifier q;
  EXPECT_EQ(fns_.get_interval_decimal(inst_, &crossed, 1, &interval, &q), fmi3Error);
  EXPECT_NE(last().find("is triggered: it has no interval"), std::string::npos) << last();
}

TEST_F(ClockRules, ACountdownClockIsNotYetKnownUntilArmedAndMustBeAskedInEveryEventMode) {
  open("CrankIgnition");
  const fmi3ValueReference ignite = vr("ignite");
  double interval = -1;
  fmi3IntervalQualifier q = fmi3IntervalChanged;
  ASSERT_EQ(fns_.enter_initialization(inst_, false, 0, 0, false, 0), fmi3OK);
  ASSERT_EQ(fns_.get_interval_decimal(inst_, &ignite, 1, &interval, &q), fmi3OK) << last();
  EXPECT_EQ(q, fmi3IntervalNotYetKnown);
  ASSERT_EQ(fns_.exit_initialization(inst_), fmi3OK) << last();
  ASSERT_EQ(update(), fmi3OK);
  // Not asked in this Event Mode: a warning (once).
  EXPECT_EQ(fns_.enter_continuous_time(inst_), fmi3Warning);
  EXPECT_NE(last().find("the interval of countdown clock \"ignite\" was not read; FMI 3.0 requires "
                        "fmi3GetIntervalDecimal (or ...Fraction) in every Event Mode"),
            std::string::npos) << last();
  // Past the firing angle (theta = pi/2 at t = 0.25): armed with the delay 0.1.
  const double x = 1.6;
  ASSERT_EQ(fns_.set_time(inst_, 1.6 / (2 * 3.141592653589793)), fmi3OK);
  ASSERT_EQ(fns_.set_states(inst_, &x, 1), fmi3OK);
  ASSERT_EQ(fns_.enter_event(inst_), fmi3OK);
  EXPECT_EQ(set_clock("ignite", true), fmi3Error);
  EXPECT_NE(last().find("has no tick scheduled"), std::string::npos) << last();
  ASSERT_EQ(update(), fmi3OK);
  ASSERT_EQ(fns_.get_interval_decimal(inst_, &ignite, 1, &interval, &q), fmi3OK);
  EXPECT_EQ(q, fmi3IntervalChanged);
  EXPECT_NEAR(interval, 0.1, 1e-15);
  ASSERT_EQ(fns_.get_interval_decimal(inst_, &ignite, 1, &interval, &q), fmi3OK);
  EXPECT_EQ(q, fmi3IntervalUnchanged);
  double shift;
  EXPECT_EQ(fns_.get_shift_decimal(inst_, &ignite, 1, &shift), fmi3Error);
}

TEST_F(ClockRules, AChangingClocksFirstIntervalMustBeReadInInitializationMode) {
  open("ClockTicks_changing");
  ASSERT_EQ(fns_.enter_initialization(inst_, false, 0, 0, false, 0), fmi3OK);
  EXPECT_EQ(fns_.exit_initialization(inst_), fmi3Warning);
  EXPECT_NE(last().find("fmi3ExitInitializationMode: the interval of changing clock \"tick\" was not read; FMI 3.0 "
                        "requires fmi3GetIntervalDecimal (or ...Fraction) in Initialization Mode"),
            std::string::npos) << last();
}

TEST_F(ClockRules, LenientAccessAnswersTheLastTicksValueBetweenTicks) {
  open("ClockTicks_constant_lenient");
  init();
  ASSERT_EQ(set_clock("tick", true), fmi3OK);
  ASSERT_EQ(update(), fmi3OK);
  ASSERT_EQ(fns_.enter_continuous_time(inst_), fmi3OK);
  const fmi3ValueReference count = vr("count");
  fmi3Int32 n = 0;
  ASSERT_EQ(fns_.get_int32(inst_, &count, 1, &n, 1), fmi3OK) << last();
  EXPECT_EQ(n, 1);
}

}  // namespace
}  // namespace lsdae::test
