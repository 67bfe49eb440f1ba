// runtime/common/log.cpp -- see lsdae/log.h.
#include "lsdae/log.h"

#include <atomic>
#include <cstdio>
#include <mutex>

namespace lsdae {

namespace {
const char* level_name(LogLevel level) {
  switch (level) {
    case LogLevel::debug: return "debug";
    case LogLevel::info: return "info";
    case LogLevel::warning: return "warning";
    case LogLevel::error: return "error";
    case LogLevel::off: return "off";
  }
  return "";
}
void stderr_sink(LogLevel level, const std::string& text) {
  std::fprintf(stderr, "lsdae: %s: %s\n", level_name(level), text.c_str());
}
}  // namespace

struct Logger::State {
  std::atomic<LogLevel> threshold{LogLevel::warning};
  std::mutex mutex;
  Sink sink = stderr_sink;
};

Logger::Logger() : state_(new State) {}

Logger& Logger::instance() {
  static Logger logger;  // never destroyed before static instances that log in destructors
  return logger;
}

void Logger::set_threshold(LogLevel level) { state_->threshold.store(level); }
LogLevel Logger::threshold() const { return state_->threshold.load(); }

Logger::Sink Logger::set_sink(Sink sink) {
  std::lock_guard<std::mutex> lock(state_->mutex);
  Sink old = std::move(state_->sink);
  state_->sink = sink ? std::move(sink) : Sink(stderr_sink);
  return old;
}

void Logger::log(LogLevel level, const std::string& text) {
  if (!enabled(level)) return;
  std::lock_guard<std::mutex> lock(state_->mutex);
  state_->sink(level, text);
}

}  // namespace lsdae
