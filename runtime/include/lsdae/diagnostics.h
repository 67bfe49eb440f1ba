// lsdae/diagnostics.h -- problems found while reading and validating an FMU.
//
// A Diagnostic names the file inside the FMU and the line of the offending
// element, states the rule that was broken with the names and values involved,
// and says what to do. Errors make `lsdae validate` exit non-zero; warnings and
// notes do not.
#ifndef LSDAE_DIAGNOSTICS_H
#define LSDAE_DIAGNOSTICS_H

#include <cstddef>
#include <string>
#include <vector>

namespace lsdae {

enum class Severity { note, warning, error };
const char* to_string(Severity severity) noexcept;

struct Diagnostic {
  Severity severity = Severity::error;
  std::string file;  // path inside the FMU, e.g. "modelDescription.xml"; empty if none
  int line = 0;      // 1-based; 0 when unknown
  std::string message;  // what is wrong, with names and values
  std::string hint;     // what to do (may be empty)

  // "<file>:<line>: <severity>: <message> → <hint>"
  std::string format() const;
};

class Diagnostics {
 public:
  void add(Severity severity, std::string file, int line, std::string message, std::string hint = {});
  void error(std::string file, int line, std::string message, std::string hint = {}) {
    add(Severity::error, std::move(file), line, std::move(message), std::move(hint));
  }
  void warning(std::string file, int line, std::string message, std::string hint = {}) {
    add(Severity::warning, std::move(file), line, std::move(message), std::move(hint));
  }
  void note(std::string file, int line, std::string message, std::string hint = {}) {
    add(Severity::note, std::move(file), line, std::move(message), std::move(hint));
  }
  void append(const Diagnostics& other);

  const std::vector<Diagnostic>& items() const { return items_; }
  std::size_t count(Severity severity) const;
  bool has_errors() const { return count(Severity::error) > 0; }
  bool empty() const { return items_.empty(); }

 private:
  std::vector<Diagnostic> items_;
};

}  // namespace lsdae

#endif  // LSDAE_DIAGNOSTICS_H
