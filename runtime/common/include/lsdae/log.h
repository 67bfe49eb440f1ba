// lsdae/log.h -- where lsdae's own messages and the FMUs' log messages go.
//
// One process-wide Logger; thread-safe. The default sink writes
// "lsdae: <level>: <text>" to stderr for messages at or above the threshold
// (warning by default; `--verbose` lowers it to info, `--debug` to debug).
// FMU messages arrive as "[<instance name>] <category>: <message>" with the
// level taken from the fmi3Status the FMU reported.
#ifndef LSDAE_LOG_H
#define LSDAE_LOG_H

#include <functional>
#include <string>

namespace lsdae {

enum class LogLevel { debug = 0, info = 1, warning = 2, error = 3, off = 4 };

class Logger {
 public:
  using Sink = std::function<void(LogLevel, const std::string&)>;

  static Logger& instance();

  void set_threshold(LogLevel level);
  LogLevel threshold() const;
  bool enabled(LogLevel level) const { return level >= threshold(); }
  // Replaces the sink (nullptr restores the stderr sink). Returns the old one.
  Sink set_sink(Sink sink);
  void log(LogLevel level, const std::string& text);

 private:
  Logger();
  struct State;
  State* state_;
};

inline void log_debug(const std::string& text) { Logger::instance().log(LogLevel::debug, text); }
inline void log_info(const std::string& text) { Logger::instance().log(LogLevel::info, text); }
inline void log_warning(const std::string& text) { Logger::instance().log(LogLevel::warning, text); }
inline void log_error(const std::string& text) { Logger::instance().log(LogLevel::error, text); }

}  // namespace lsdae

#endif  // LSDAE_LOG_H
