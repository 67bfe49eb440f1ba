// tests/runtime/supervise/supervisor_test.cpp -- lsdae::run_isolated and
// run_in_process (lsdae/supervise.h) with work functions that misbehave
// themselves, reading the call record (runtime/fmu/call_record.h; what an
// instance writes there: tests/runtime/fmu/call_record_test.cpp). The FMU
// side (crashing and hanging binaries) is tested through the `lsdae` program
// in tests/runtime/cli/isolation_test.cpp.
#include "lsdae/supervise.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include "fmu/call_record.h"

namespace lsdae {
namespace {

namespace fs = std::filesystem;

TEST(RunIsolated, ReturnsTheWorkFunctionsValue) {
  RunOutcome r = run_isolated([](RunContext& ctx) {
    EXPECT_TRUE(ctx.isolated());
    return 7;
  });
  EXPECT_EQ(r.end, RunEnd::completed) << r.message;
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.exit_code, 7);
  EXPECT_FALSE(r.killed);
}

TEST(RunIsolated, AnErrorComesBackWithItsKindAndMessage) {
  RunOutcome r = run_isolated([](RunContext&) -> int { throw Error(ErrorKind::solver, "ida: at t = 1: no luck"); });
  EXPECT_EQ(r.end, RunEnd::failed);
  EXPECT_EQ(r.kind(), ErrorKind::solver);
  EXPECT_EQ(r.message, "ida: at t = 1: no luck");
}

TEST(RunIsolated, ProgressSurvivesACrash) {
  IsolationOptions options;
  options.label = "unit";
  RunOutcome r = run_isolated(
      [](RunContext& ctx) {
        ctx.report_progress(41, 0.25);
        ctx.report_progress(42, 0.5);
        std::raise(SIGSEGV);
        return 0;
      },
      options);
  EXPECT_EQ(r.end, RunEnd::crashed);
  EXPECT_EQ(r.signal, SIGSEGV);
  EXPECT_EQ(r.kind(), ErrorKind::fmu_crash);
  EXPECT_TRUE(r.call.function.empty()) << "no FMU call was in progress";
  EXPECT_NE(r.message.find("unit: the process running the FMU was killed by SIGSEGV (Segmentation fault) outside "
                           "any FMU call"),
            std::string::npos)
      << r.message;
  ASSERT_TRUE(r.rows.has_value());
  EXPECT_EQ(*r.rows, 42u);
  EXPECT_EQ(r.reached_time.value_or(-1), 0.5);
}

TEST(RunIsolated, ACallerThatIgnoresSigchldStillLearnsHowTheChildEnded) {
  struct sigaction ignore {}, previous {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  sigaction(SIGCHLD, &ignore, &previous);
  RunOutcome r = run_isolated([](RunContext&) -> int { std::abort(); });
  struct sigaction after {};
  sigaction(SIGCHLD, &previous, &after);
  EXPECT_EQ(r.end, RunEnd::crashed);
  EXPECT_EQ(r.signal, SIGABRT);
  EXPECT_EQ(after.sa_handler, SIG_IGN) << "the caller's disposition is restored";
}

TEST(RunIsolated, ExitBeforeReturningIsACrashWithItsStatus) {
  RunOutcome r = run_isolated([](RunContext&) -> int { std::exit(3); });
  EXPECT_EQ(r.end, RunEnd::exited);
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.kind(), ErrorKind::fmu_crash);
}

TEST(RunIsolated, ACallThatDoesNotReturnIsStoppedAndNamed) {
  IsolationOptions options;
  options.call_timeout = 0.3;
  const auto started = std::chrono::steady_clock::now();
  RunOutcome r = run_isolated(
      [](RunContext&) {
        call_record::CallSlot* slot = call_record::claim_slot("unit-instance");
        call_record::note_time(slot, 2.5);
        call_record::CallScope call(slot, FmiFunction::fmi3UpdateDiscreteStates);
        for (;;) pause();
        return 0;
      },
      options);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_EQ(r.end, RunEnd::call_timeout);
  EXPECT_TRUE(r.killed);
  EXPECT_EQ(r.kind(), ErrorKind::timeout);
  EXPECT_EQ(r.call.function, "fmi3UpdateDiscreteStates");
  EXPECT_EQ(r.call.instance, "unit-instance");
  EXPECT_EQ(r.call.time.value_or(-1), 2.5);
  EXPECT_NE(r.message.find("fmi3UpdateDiscreteStates (instance \"unit-instance\", t = 2.5) did not return within "
                           "0.3 s"),
            std::string::npos)
      << r.message;
  EXPECT_LT(seconds, 5.0);
}

TEST(RunIsolated, ManyShortCallsAreNotATimeout) {
  IsolationOptions options;
  options.call_timeout = 0.2;
  RunOutcome r = run_isolated(
      [](RunContext&) {
        call_record::CallSlot* slot = call_record::claim_slot("busy");
        const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(600);
        while (std::chrono::steady_clock::now() < end) {
          call_record::CallScope call(slot, FmiFunction::fmi3GetFloat64);
          std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        return 0;
      },
      options);
  EXPECT_EQ(r.end, RunEnd::completed) << r.message;
}

TEST(RunIsolated, TheRunTimeoutIsAStopRequestThenAKill) {
  IsolationOptions options;
  options.timeout = 0.2;
  options.stop_grace = 0.3;
  RunOutcome honoured = run_isolated(
      [](RunContext& ctx) {
        while (!ctx.stop_requested()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
        EXPECT_TRUE(ctx.stop_for_timeout());
        EXPECT_EQ(ctx.stop_signal(), 0);
        return 0;
      },
      options);
  EXPECT_EQ(honoured.end, RunEnd::run_timeout);
  EXPECT_FALSE(honoured.killed);
  RunOutcome ignored = run_isolated(
      [](RunContext&) {
        for (;;) pause();
        return 0;
      },
      options);
  EXPECT_EQ(ignored.end, RunEnd::run_timeout);
  EXPECT_TRUE(ignored.killed);
  EXPECT_NE(ignored.message.find("the run took longer than its limit of 0.2 s"), std::string::npos) << ignored.message;
}

TEST(RunIsolated, TheChildsTemporaryFolderIsRemoved) {
  fs::path child_tmp;
  int pipe_fds[2];
  ASSERT_EQ(pipe(pipe_fds), 0);
  RunOutcome r = run_isolated([&](RunContext&) -> int {
    const char* tmp = std::getenv("TMPDIR");
    std::string path = tmp != nullptr ? tmp : "";
    std::FILE* f = std::fopen((path + "/left-behind").c_str(), "w");
    if (f != nullptr) std::fclose(f);
    [[maybe_unused]] auto n = write(pipe_fds[1], path.c_str(), path.size());
    std::abort();
  });
  close(pipe_fds[1]);
  char buffer[4096] = {};
  ASSERT_GT(read(pipe_fds[0], buffer, sizeof buffer - 1), 0);
  close(pipe_fds[0]);
  EXPECT_EQ(r.end, RunEnd::crashed);
  EXPECT_EQ(r.signal, SIGABRT);
  child_tmp = buffer;
  EXPECT_NE(child_tmp.filename().string().rfind("lsdae-", 0), std::string::npos) << child_tmp;
  EXPECT_FALSE(fs::exists(child_tmp)) << "the child's TMPDIR must be removed";
}

TEST(RunInProcess, SameContractWithoutAChild) {
  RunOutcome ok = run_in_process([](RunContext& ctx) {
    EXPECT_FALSE(ctx.isolated());
    ctx.report_progress(3, 1.5);
    return 0;
  });
  EXPECT_EQ(ok.end, RunEnd::completed);
  EXPECT_EQ(ok.rows.value_or(0), 3u);
  RunOutcome failed = run_in_process([](RunContext&) -> int { throw Error(ErrorKind::fmu_call, "nope"); });
  EXPECT_EQ(failed.end, RunEnd::failed);
  EXPECT_EQ(failed.kind(), ErrorKind::fmu_call);
  IsolationOptions options;
  options.timeout = 0.05;
  RunOutcome slow = run_in_process(
      [](RunContext& ctx) {
        while (!ctx.stop_requested()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
        return 0;
      },
      options);
  EXPECT_EQ(slow.end, RunEnd::run_timeout);
}

TEST(StopSignals, ASignalBeforeTheRunMeansItDoesNotStart) {
  StopSignals signals;
  std::raise(SIGHUP);  // recorded, not fatal
  EXPECT_EQ(StopSignals::received(), SIGHUP);
  bool ran = false;
  RunOutcome r = run_isolated([&](RunContext&) {
    ran = true;
    return 0;
  });
  EXPECT_EQ(r.end, RunEnd::interrupted);
  EXPECT_EQ(r.signal, SIGHUP);
  EXPECT_EQ(r.kind(), ErrorKind::interrupted);
  EXPECT_FALSE(ran);
}

TEST(StopSignals, ASignalReachesTheChildAsAStopRequest) {
  StopSignals signals;
  IsolationOptions options;
  options.stop_grace = 5;
  std::thread sender([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    kill(getpid(), SIGTERM);
  });
  RunOutcome r = run_isolated(
      [](RunContext& ctx) {
        while (!ctx.stop_requested()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
        return ctx.stop_signal() == SIGTERM ? 130 : 1;
      },
      options);
  sender.join();
  EXPECT_EQ(r.end, RunEnd::interrupted);
  EXPECT_FALSE(r.killed) << "it stopped by itself";
  EXPECT_EQ(r.exit_code, 130) << "the child saw SIGTERM as its stop signal";
}

}  // namespace
}  // namespace lsdae
