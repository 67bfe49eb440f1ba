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
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
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
  // Non-zero on a summary entry: this many more diagnostics like the one
  // before it were counted but not kept (message "… and N more like this").
  std::size_t more_like_this = 0;

  // "<file>:<line>: <severity>: <message> → <hint>"
  std::string format() const;
};

class Diagnostics {
 public:
  static constexpr std::size_t kKeptPerKind = 5;

  void add(Severity severity, std::string file, int line, std::string message, std::string hint = {});
  // Re-adds a diagnostic taken from items(): a summary entry adds its count
  // to the kind of the diagnostic added just before it.
  void add(const Diagnostic& diagnostic);
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

  // The kept diagnostics in the order they were added, each summary entry
  // right after the last kept diagnostic of its kind. The reference is valid
  // until the next add.
  const std::vector<Diagnostic>& items() const;
  // Every diagnostic of this severity that was added, summarised ones included.
  std::size_t count(Severity severity) const { return counts_[static_cast<std::size_t>(severity)]; }
  // Errors that stop simulation (Severity::error only).
  bool has_errors() const { return count(Severity::error) > 0; }
  // Rules broken that simulation does not depend on (Severity::conformance).
  bool has_conformance_errors() const { return count(Severity::conformance) > 0; }
  // What `lsdae validate` counts as errors: both kinds.
  std::size_t validation_errors() const { return count(Severity::error) + count(Severity::conformance); }
  bool empty() const { return kept_.empty(); }

 private:
  struct Kind {
    std::size_t kept = 0;       // diagnostics of this kind in kept_
    std::size_t more = 0;       // counted, not kept
    std::size_t last_kept = 0;  // index in kept_ of the last kept one
  };
  std::size_t kind_of(const Diagnostic& d);
  void count_more(std::size_t kind, std::size_t n);

  std::vector<Diagnostic> kept_;
  std::vector<std::size_t> kept_kind_;  // kind of each kept diagnostic
  std::vector<Kind> kinds_;
  std::unordered_map<std::string, std::size_t> kind_index_;  // masked key -> index in kinds_
  std::size_t counts_[static_cast<std::size_t>(Severity::error) + 1] = {};  // one per Severity
  std::size_t summarised_ = 0;             // diagnostics counted but not kept
  std::size_t last_kind_ = SIZE_MAX;       // kind of the last diagnostic added
  // items() with the summary entries, rebuilt when stale (only when something
  // was summarised); the lock makes concurrent items() calls safe.
  struct ViewLock {
    std::mutex mutex;
    ViewLock() = default;
    ViewLock(const ViewLock&) {}
    ViewLock& operator=(const ViewLock&) { return *this; }
  };
  mutable std::vector<Diagnostic> view_;
  mutable bool view_stale_ = false;
  mutable ViewLock view_lock_;
};

}  // namespace lsdae

#endif  // LSDAE_DIAGNOSTICS_H
