// lsdae/diagnostics.h -- problems found while reading and validating an FMU.
//
// A Diagnostic names the file inside the FMU and the line of the offending
// element, states the rule that was broken with the names and values involved,
// and says what to do. The severity says what it means for each command
// (docs/fmi-ls-dae.md, "Validation rules", has the table of every rule):
//
//   error        the standard says "must" and lsdae cannot simulate the FMU as
//                written: `validate` fails, `simulate` refuses.
//   conformance  the standard says "must", but simulation does not depend on
//                the rule (an undefined declaredType, a parameter without
//                start): `validate` counts it as an error, `simulate` prints
//                it as a warning and runs, `simulate --strict` refuses.
//   warning      not a rule the standard makes, or a "should": printed, never
//                changes an exit code.
//   note         how lsdae read something unusual.
#ifndef LSDAE_DIAGNOSTICS_H
#define LSDAE_DIAGNOSTICS_H

#include <cstddef>
#include <string>
#include <vector>

namespace lsdae {

enum class Severity { note, warning, conformance, error };
// "note", "warning", "conformance error", "error"
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
  void conformance(std::string file, int line, std::string message, std::string hint = {}) {
    add(Severity::conformance, std::move(file), line, std::move(message), std::move(hint));
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
  // Errors that stop simulation (Severity::error only).
  bool has_errors() const { return count(Severity::error) > 0; }
  // Rules broken that simulation does not depend on (Severity::conformance).
  bool has_conformance_errors() const { return count(Severity::conformance) > 0; }
  // What `lsdae validate` counts as errors: both kinds.
  std::size_t validation_errors() const { return count(Severity::error) + count(Severity::conformance); }
  bool empty() const { return items_.empty(); }

 private:
  std::vector<Diagnostic> items_;
};

}  // namespace lsdae

#endif  // LSDAE_DIAGNOSTICS_H
