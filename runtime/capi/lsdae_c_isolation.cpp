// runtime/capi/lsdae_c_isolation.cpp -- the process-wide parts of the C
// interface (lsdae/lsdae.h): the log callback, and FMU work in a supervised
// child (lsdae_run_isolated, lsdae/supervise.h).
#include <cmath>
#include <limits>
#include <mutex>
#include <optional>
#include <string>

#include "capi/guarded.h"
#include "lsdae/error.h"
#include "lsdae/log.h"
#include "lsdae/lsdae.h"
#include "lsdae/supervise.h"
#include "run/respell.h"

namespace {

thread_local const lsdae::RunContext* g_run_context = nullptr;  // inside lsdae_run_isolated's body

// The error kind an lsdae_status stands for (none for LSDAE_OK and for a
// value that is no status).
std::optional<lsdae::ErrorKind> kind_of(int status) {
  for (int k = 0; k <= static_cast<int>(lsdae::ErrorKind::timeout); ++k) {
    const auto kind = static_cast<lsdae::ErrorKind>(k);
    if (lsdae::capi::to_status(kind) == status) return kind;
  }
  return std::nullopt;
}

// The log callback, process-wide (lsdae_set_log_callback).
std::mutex g_log_mutex;
lsdae_log_callback g_log_callback = nullptr;
void* g_log_user = nullptr;

}  // namespace

extern "C" {

lsdae_status lsdae_set_log_callback(lsdae_log_callback callback, void* user, lsdae_log_level threshold) {
  const int level = static_cast<int>(threshold);
  if (level < LSDAE_LOG_DEBUG || level > LSDAE_LOG_OFF) {
    lsdae::capi::open_error() = "lsdae_set_log_callback: threshold " + std::to_string(level) +
                   " is not an lsdae_log_level → use LSDAE_LOG_DEBUG ... LSDAE_LOG_OFF";
    return LSDAE_ERR_USAGE;
  }
  {
    std::lock_guard<std::mutex> lock(g_log_mutex);
    g_log_callback = callback;
    g_log_user = user;
  }
  lsdae::Logger& logger = lsdae::Logger::instance();
  logger.set_threshold(static_cast<lsdae::LogLevel>(level));
  if (callback == nullptr) {
    logger.set_sink(nullptr);
    return LSDAE_OK;
  }
  logger.set_sink([](lsdae::LogLevel lvl, const std::string& text) {
    lsdae_log_callback cb;
    void* u;
    {
      std::lock_guard<std::mutex> lock(g_log_mutex);
      cb = g_log_callback;
      u = g_log_user;
    }
    if (cb == nullptr) return;
    // FMU messages arrive as "[<instance>] <category>: <message>" (lsdae/log.h).
    if (text.size() > 2 && text[0] == '[') {
      const auto close = text.find("] ");
      if (close != std::string::npos) {
        const std::string instance = text.substr(1, close - 1);
        const std::string message = lsdae::run::respell(text.substr(close + 2), lsdae::run::Door::c,
                                                        lsdae::run::simulation_words(lsdae::run::Door::c));
        cb(static_cast<lsdae_log_level>(lvl), instance.c_str(), message.c_str(), u);
        return;
      }
    }
    const std::string message =
        lsdae::run::respell(text, lsdae::run::Door::c, lsdae::run::simulation_words(lsdae::run::Door::c));
    cb(static_cast<lsdae_log_level>(lvl), nullptr, message.c_str(), u);
  });
  return LSDAE_OK;
}

void lsdae_isolation_init(lsdae_isolation* isolation) {
  if (isolation == nullptr) return;
  isolation->timeout = isolation->call_timeout = std::numeric_limits<double>::quiet_NaN();
}

lsdae_status lsdae_run_isolated(int (*body)(void* user), void* user, const lsdae_isolation* isolation) {
  if (body == nullptr) {
    lsdae::capi::open_error() = "lsdae_run_isolated: body must not be NULL";
    return LSDAE_ERR_USAGE;
  }
  lsdae::IsolationOptions options;
  if (isolation != nullptr) {
    auto seconds = [](const char* field, double value, double fallback) {
      if (std::isnan(value)) return fallback;
      if (value < 0 || std::isinf(value))
        throw lsdae::Error(lsdae::ErrorKind::usage, std::string("lsdae_run_isolated: isolation.") + field + " is " +
                                                        std::to_string(value) +
                                                        ", not a number of seconds → give 0 (no limit) or more, or NaN");
      return value;
    };
    try {
      options.timeout = seconds("timeout", isolation->timeout, 0.0);
      options.call_timeout = seconds("call_timeout", isolation->call_timeout, options.call_timeout);
    } catch (const lsdae::Error& e) {
      lsdae::capi::open_error() = e.what();
      return LSDAE_ERR_USAGE;
    }
  }
  lsdae::RunOutcome outcome;
  lsdae_status status = lsdae::capi::guarded(lsdae::capi::open_error(), [&] {
    outcome = lsdae::run_isolated(
        [&](lsdae::RunContext& context) {
          g_run_context = &context;
          lsdae::capi::latest_error().clear();
          const int returned = body(user);
          // An error status with the message of the call that failed: the
          // message goes back to the caller through the outcome (this is
          // the child; its memory does not come back).
          if (returned != LSDAE_OK && !lsdae::capi::latest_error().empty())
            if (const auto kind = kind_of(returned)) throw lsdae::Error(*kind, lsdae::capi::latest_error());
          return returned;
        },
        options);
  });
  if (status != LSDAE_OK) return status;
  if (outcome.ok()) {
    if (outcome.exit_code != LSDAE_OK && !kind_of(outcome.exit_code)) {
      lsdae::capi::open_error() = "lsdae_run_isolated: body returned " + std::to_string(outcome.exit_code) +
                     ", not an lsdae_status → return LSDAE_OK or an error status";
      return LSDAE_ERR_INTERNAL;
    }
    lsdae::capi::open_error().clear();
    return static_cast<lsdae_status>(outcome.exit_code);
  }
  lsdae::capi::open_error() = outcome.message;
  return lsdae::capi::to_status(outcome.kind());
}

int lsdae_stop_requested(void) { return g_run_context != nullptr && g_run_context->stop_requested() ? 1 : 0; }

}  // extern "C"
