// tests/runtime/capi/lsdae_c_embed_test.cpp -- runtime/capi/lsdae_c.cpp: what
// embedding needs beyond simulating: the variables, typed setters and getters
// with their mismatch statuses, the log and event callbacks, lsdae_cancel
// from another thread, advance_to's forward-only rule, several simulations on
// threads at once.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "catalog.h"
#include "lsdae/lsdae.h"

namespace {

namespace fs = std::filesystem;
const fs::path kCorpus = LSDAE_REFERENCE_FMUS_DIR;

#define CORPUS_FMU(var, relative)                                     \
  if (!fs::exists(kCorpus.parent_path().parent_path().parent_path())) \
    GTEST_SKIP() << "../shared is not beside this clone";             \
  const fs::path var = kCorpus / (relative);                          \
  ASSERT_TRUE(fs::exists(var)) << var << " is missing from the shared corpus"

lsdae_simulation* open_model(const std::string& name, double stop_time = std::nan("")) {
  lsdae_options options;
  lsdae_options_init(&options);
  options.stop_time = stop_time;
  lsdae_simulation* sim = nullptr;
  EXPECT_EQ(lsdae_open(lsdae::test::fmu_path(name).c_str(), &options, &sim), LSDAE_OK) << lsdae_last_error(nullptr);
  return sim;
}

std::string error_of(lsdae_simulation* sim) { return lsdae_last_error(sim); }

TEST(CApiVariables, ListAndLookUpTheModelDescription) {
  lsdae_simulation* sim = open_model("HelloWorld_semi_explicit_shapeA");
  ASSERT_NE(sim, nullptr);
  const size_t n = lsdae_variable_count(sim);
  ASSERT_GE(n, 5u);
  size_t index = 99;
  ASSERT_EQ(lsdae_variable_index(sim, "x", &index), LSDAE_OK) << error_of(sim);
  lsdae_variable v;
  ASSERT_EQ(lsdae_variable_at(sim, index, &v), LSDAE_OK);
  EXPECT_STREQ(v.name, "x");
  EXPECT_EQ(v.value_reference, 1u);
  EXPECT_EQ(v.type, LSDAE_TYPE_FLOAT64);
  EXPECT_STREQ(lsdae_type_name(v.type), "Float64");
  EXPECT_EQ(v.causality, LSDAE_CAUSALITY_LOCAL);
  EXPECT_EQ(v.variability, LSDAE_VARIABILITY_CONTINUOUS);
  EXPECT_STREQ(v.description, "differential variable");
  EXPECT_STREQ(v.start, "1");
  EXPECT_STREQ(v.unit, "");
  EXPECT_EQ(v.elements, 1u);
  ASSERT_EQ(lsdae_variable_at(sim, 0, &v), LSDAE_OK);
  EXPECT_STREQ(v.name, "time");
  EXPECT_EQ(v.causality, LSDAE_CAUSALITY_INDEPENDENT);
  EXPECT_STREQ(v.unit, "s");
  EXPECT_EQ(v.start, nullptr);
  EXPECT_EQ(lsdae_variable_at(sim, n, &v), LSDAE_ERR_USAGE);
  EXPECT_NE(error_of(sim).find("past the last variable"), std::string::npos) << error_of(sim);
  EXPECT_EQ(lsdae_variable_index(sim, "X", &index), LSDAE_ERR_USAGE);
  EXPECT_NE(error_of(sim).find("\"X\""), std::string::npos);
  EXPECT_EQ(lsdae_variable_count(nullptr), 0u);
  EXPECT_STREQ(lsdae_type_name(static_cast<lsdae_type>(15)), "");
  lsdae_free(sim);
}

TEST(CApiTypedAccess, EveryTypedFunctionAndItsMismatchStatus) {
  CORPUS_FMU(fmu, "fmi3/Feedthrough.fmu");
  lsdae_simulation* sim = nullptr;
  ASSERT_EQ(lsdae_open(fmu.c_str(), nullptr, &sim), LSDAE_OK) << lsdae_last_error(nullptr);
  EXPECT_EQ(lsdae_set_int64(sim, "Int64_input", INT64_MIN), LSDAE_OK) << error_of(sim);
  EXPECT_EQ(lsdae_set_uint64(sim, "UInt64_input", UINT64_MAX), LSDAE_OK) << error_of(sim);
  EXPECT_EQ(lsdae_set_int64(sim, "Enumeration_input", 2), LSDAE_OK) << error_of(sim);
  EXPECT_EQ(lsdae_set_boolean(sim, "Boolean_input", 1), LSDAE_OK) << error_of(sim);
  const uint8_t bytes[] = {0x00, 0xff, 0x10};
  EXPECT_EQ(lsdae_set_binary(sim, "Binary_input", bytes, sizeof bytes), LSDAE_OK) << error_of(sim);
  // Mismatches: the message names the variable, its type and the function to use.
  EXPECT_EQ(lsdae_set_boolean(sim, "Int32_input", 1), LSDAE_ERR_USAGE);
  EXPECT_NE(error_of(sim).find("\"Int32_input\" is Int32, not Boolean → use lsdae_set_int64"), std::string::npos)
      << error_of(sim);
  EXPECT_EQ(lsdae_set_int64(sim, "Float64_continuous_input", 1), LSDAE_ERR_USAGE);
  EXPECT_NE(error_of(sim).find("use lsdae_set / lsdae_get"), std::string::npos) << error_of(sim);
  EXPECT_EQ(lsdae_set_binary(sim, "String_input", bytes, 1), LSDAE_ERR_USAGE);
  EXPECT_NE(error_of(sim).find("lsdae_set_text"), std::string::npos) << error_of(sim);
  EXPECT_EQ(lsdae_set_int64(sim, "Int8_input", 300), LSDAE_ERR_USAGE);  // out of range
  EXPECT_EQ(lsdae_set_boolean(sim, "Boolean_input", 2), LSDAE_ERR_USAGE);
  EXPECT_EQ(lsdae_set_uint64(sim, "Int8_input", 200), LSDAE_ERR_USAGE);
  EXPECT_EQ(lsdae_set(sim, "String_input", 1.0), LSDAE_ERR_USAGE);  // at set, not later at initialize
  EXPECT_EQ(lsdae_set_int64(sim, "nope", 1), LSDAE_ERR_USAGE);
  EXPECT_NE(error_of(sim).find("no variable is named \"nope\""), std::string::npos) << error_of(sim);
  ASSERT_EQ(lsdae_initialize(sim), LSDAE_OK) << error_of(sim);

  int64_t i = 0;
  ASSERT_EQ(lsdae_get_int64(sim, "Int64_output", &i), LSDAE_OK) << error_of(sim);
  EXPECT_EQ(i, INT64_MIN);
  uint64_t u = 0;
  ASSERT_EQ(lsdae_get_uint64(sim, "UInt64_output", &u), LSDAE_OK) << error_of(sim);
  EXPECT_EQ(u, UINT64_MAX);
  ASSERT_EQ(lsdae_get_int64(sim, "Enumeration_output", &i), LSDAE_OK) << error_of(sim);
  EXPECT_EQ(i, 2);
  EXPECT_EQ(lsdae_get_uint64(sim, "Int64_output", &u), LSDAE_ERR_USAGE);  // negative
  EXPECT_NE(error_of(sim).find("negative"), std::string::npos) << error_of(sim);
  int b = 0;
  ASSERT_EQ(lsdae_get_boolean(sim, "Boolean_output", &b), LSDAE_OK) << error_of(sim);
  EXPECT_EQ(b, 1);
  EXPECT_EQ(lsdae_get_boolean(sim, "Int32_output", &b), LSDAE_ERR_USAGE);
  size_t needed = 0;
  ASSERT_EQ(lsdae_get_binary(sim, "Binary_output", nullptr, 0, &needed), LSDAE_OK) << error_of(sim);
  ASSERT_EQ(needed, sizeof bytes);
  uint8_t back[3] = {};
  uint8_t small[2] = {};
  EXPECT_EQ(lsdae_get_binary(sim, "Binary_output", small, sizeof small, nullptr), LSDAE_ERR_USAGE);
  ASSERT_EQ(lsdae_get_binary(sim, "Binary_output", back, sizeof back, nullptr), LSDAE_OK) << error_of(sim);
  EXPECT_EQ(std::vector<uint8_t>(back, back + 3), std::vector<uint8_t>(bytes, bytes + 3));
  EXPECT_EQ(lsdae_get_binary(sim, "String_output", back, sizeof back, nullptr), LSDAE_ERR_USAGE);
  lsdae_free(sim);
}

TEST(CApiAdvance, NanAndEarlierTimesAreUsageErrorsWithAMessage) {
  lsdae_simulation* sim = open_model("HelloWorld_semi_explicit_shapeA");
  ASSERT_EQ(lsdae_initialize(sim), LSDAE_OK);
  double reached = -1;
  ASSERT_EQ(lsdae_advance_to(sim, 0.5, &reached), LSDAE_OK);
  EXPECT_EQ(lsdae_advance_to(sim, std::nan(""), &reached), LSDAE_ERR_USAGE);
  EXPECT_NE(error_of(sim).find("advance_to(NaN)"), std::string::npos) << error_of(sim);
  EXPECT_EQ(reached, 0.5) << "did not move, and not past the stop time";
  EXPECT_EQ(lsdae_advance_to(sim, 0.25, &reached), LSDAE_ERR_USAGE);
  EXPECT_NE(error_of(sim).find("before the current time 0.5"), std::string::npos) << error_of(sim);
  EXPECT_EQ(lsdae_advance_to(sim, 0.5, &reached), LSDAE_OK) << "the current time itself: nothing to do";
  EXPECT_EQ(lsdae_advance_to(sim, 1.0, &reached), LSDAE_OK);
  EXPECT_EQ(reached, 1.0);
  lsdae_free(sim);
}

struct LogRecord {
  int messages = 0;
  int with_instance = 0;
  bool levels_ok = true;
  lsdae_log_level threshold = LSDAE_LOG_DEBUG;
};

void record_log(lsdae_log_level level, const char* instance, const char* message, void* user) {
  auto* r = static_cast<LogRecord*>(user);
  ++r->messages;
  if (instance != nullptr && instance[0] != '\0') ++r->with_instance;
  if (level < r->threshold || message == nullptr) r->levels_ok = false;
}

TEST(CApiLog, TheCallbackReceivesMessagesAtOrAboveItsThreshold) {
  LogRecord debug;
  ASSERT_EQ(lsdae_set_log_callback(record_log, &debug, LSDAE_LOG_DEBUG), LSDAE_OK);
  lsdae_simulation* sim = open_model("TimeEvent_ode");
  ASSERT_EQ(lsdae_initialize(sim), LSDAE_OK);
  ASSERT_EQ(lsdae_advance_to(sim, lsdae_stop_time(sim), nullptr), LSDAE_OK);
  lsdae_free(sim);
  EXPECT_GT(debug.messages, 0) << "lsdae logs each event at debug";
  EXPECT_TRUE(debug.levels_ok);

  LogRecord off;
  off.threshold = LSDAE_LOG_OFF;
  ASSERT_EQ(lsdae_set_log_callback(record_log, &off, LSDAE_LOG_OFF), LSDAE_OK);
  sim = open_model("TimeEvent_ode");
  ASSERT_EQ(lsdae_initialize(sim), LSDAE_OK);
  ASSERT_EQ(lsdae_advance_to(sim, lsdae_stop_time(sim), nullptr), LSDAE_OK);
  lsdae_free(sim);
  EXPECT_EQ(off.messages, 0);

  EXPECT_EQ(lsdae_set_log_callback(record_log, &off, static_cast<lsdae_log_level>(7)), LSDAE_ERR_USAGE);
  EXPECT_NE(std::string(lsdae_last_error(nullptr)).find("threshold 7"), std::string::npos);
  ASSERT_EQ(lsdae_set_log_callback(nullptr, nullptr, LSDAE_LOG_WARNING), LSDAE_OK);  // back to stderr
}

struct EventRecord {
  std::vector<double> times;
  std::vector<lsdae_event_kind> kinds;
};

void record_event(double t, lsdae_event_kind kind, void* user) {
  auto* r = static_cast<EventRecord*>(user);
  r->times.push_back(t);
  r->kinds.push_back(kind);
}

TEST(CApiEvents, TheCallbackSeesEachEventWithItsKind) {
  EventRecord time_events;
  lsdae_simulation* sim = open_model("TimeEvent_ode");
  ASSERT_EQ(lsdae_set_event_callback(sim, record_event, &time_events), LSDAE_OK);
  ASSERT_EQ(lsdae_initialize(sim), LSDAE_OK);
  ASSERT_EQ(lsdae_advance_to(sim, lsdae_stop_time(sim), nullptr), LSDAE_OK) << error_of(sim);
  lsdae_stats stats;
  ASSERT_EQ(lsdae_statistics(sim, &stats), LSDAE_OK);
  lsdae_free(sim);
  ASSERT_EQ(time_events.kinds.size(), 1u);
  EXPECT_EQ(stats.time_events, 1);
  EXPECT_EQ(time_events.kinds[0], LSDAE_EVENT_TIME);

  EventRecord bounces;
  sim = open_model("BouncingBall_ode");
  ASSERT_EQ(lsdae_set_event_callback(sim, record_event, &bounces), LSDAE_OK);
  ASSERT_EQ(lsdae_initialize(sim), LSDAE_OK);
  ASSERT_EQ(lsdae_advance_to(sim, lsdae_stop_time(sim), nullptr), LSDAE_OK) << error_of(sim);
  ASSERT_EQ(lsdae_statistics(sim, &stats), LSDAE_OK);
  ASSERT_EQ(lsdae_set_event_callback(sim, nullptr, nullptr), LSDAE_OK);
  lsdae_free(sim);
  ASSERT_GT(bounces.kinds.size(), 1u);
  EXPECT_EQ(static_cast<long>(bounces.kinds.size()), stats.state_events + stats.time_events + stats.step_events);
  for (size_t k = 0; k < bounces.kinds.size(); ++k) {
    EXPECT_EQ(bounces.kinds[k], LSDAE_EVENT_STATE) << "bounce " << k;
    if (k > 0) {
      EXPECT_GT(bounces.times[k], bounces.times[k - 1]);
    }
  }
}

TEST(CApiCancel, AnotherThreadStopsTheIntegrationAtItsNextStep) {
  lsdae_simulation* sim = open_model("TransmissionLine_dae_shapeA_640", 1e-3);  // ~250x the default span
  ASSERT_EQ(lsdae_initialize(sim), LSDAE_OK);
  std::thread canceller([sim] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    EXPECT_EQ(lsdae_cancel(sim), LSDAE_OK);
  });
  double reached = -1;
  const auto start = std::chrono::steady_clock::now();
  const lsdae_status status = lsdae_advance_to(sim, 1e-3, &reached);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  canceller.join();
  EXPECT_EQ(status, LSDAE_ERR_INTERRUPTED) << error_of(sim);
  EXPECT_NE(error_of(sim).find("cancelled at t = "), std::string::npos) << error_of(sim);
  EXPECT_GT(reached, 0.0);
  EXPECT_LT(reached, 1e-3);
  EXPECT_EQ(reached, lsdae_time(sim)) << "the point reached is kept";
  EXPECT_LT(seconds, 20.0);
  // It continues from there.
  double v = 0;
  EXPECT_EQ(lsdae_get(sim, "v_load", &v), LSDAE_OK);
  EXPECT_TRUE(std::isfinite(v));
  EXPECT_EQ(lsdae_advance_to(sim, reached + 1e-9, &reached), LSDAE_OK) << error_of(sim);
  EXPECT_EQ(lsdae_cancel(nullptr), LSDAE_ERR_USAGE);
  lsdae_free(sim);
}

TEST(CApiThreads, SeveralSimulationsRunAtOnceAndAgreeWithOneAtATime) {
  const double lengths[] = {50, 100, 150, 200};
  auto run = [](double length) {
    lsdae_simulation* sim = open_model("TransmissionLine_dae_shapeA_40");
    double v = std::nan("");
    if (sim == nullptr) return v;
    if (lsdae_set(sim, "length", length) == LSDAE_OK && lsdae_initialize(sim) == LSDAE_OK &&
        lsdae_advance_to(sim, lsdae_stop_time(sim), nullptr) == LSDAE_OK)
      lsdae_get(sim, "v_load", &v);
    lsdae_free(sim);
    return v;
  };
  std::vector<double> alone, together(4);
  for (double l : lengths) alone.push_back(run(l));
  std::vector<std::thread> threads;
  for (size_t k = 0; k < 4; ++k) threads.emplace_back([&, k] { together[k] = run(lengths[k]); });
  for (auto& t : threads) t.join();
  for (size_t k = 0; k < 4; ++k) {
    EXPECT_TRUE(std::isfinite(alone[k]));
    EXPECT_EQ(alone[k], together[k]) << "length " << lengths[k];
  }
  EXPECT_NE(alone[0], alone[3]);
}

}  // namespace
