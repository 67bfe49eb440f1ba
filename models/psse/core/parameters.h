// models/psse/core/parameters.h -- a model's .dyr parameters, read in the
// order the PSS/E Model Library gives them, and checked with messages that
// name the file, the line, the model, the unit and the field.
//
// A model lists its parameters once, as a table of ParameterSpec in PSS/E
// order (name as the Model Library writes it, unit, meaning); the table is
// also what the documentation prints. Parameters(record, table) checks the
// count and gives p[i] by index; the require_* helpers check values.
//
// Message shape (house style, where → what → value seen → what to do):
//   case.dyr:12: GENROU at bus 102 id '1': field 5 (H) = -1 → must be > 0 →
//   correct the record
#ifndef LSDAE_MODELS_PSSE_CORE_PARAMETERS_H
#define LSDAE_MODELS_PSSE_CORE_PARAMETERS_H

#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "psse/io/dyr_record.h"

namespace lsdae::psse {

// Thrown for every problem of a dynamic model's data or initialization.
class ModelError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ParameterSpec {
  const char* name;         // as the PSS/E Model Library writes it: "T'do", "H", "S(1.2)"
  const char* unit;         // "s", "p.u.", "" ...
  const char* description;
  bool text = false;        // a character field (a circuit id such as REPCA1's '1 '): read by text()
};

class Parameters {
 public:
  // Reads record.values against `specs`; `optional` trailing parameters may
  // be missing (they read as their `defaults`, given for the last
  // `defaults.size()` specs). Throws ModelError when the count is wrong or a
  // token is not a number. When a spec is `text`, the record is read token by
  // token instead (every token is one field, quoted or not; a number may use
  // a Fortran D exponent); a text field reads as NaN through operator[] and
  // as its trimmed token through text().
  Parameters(const DyrRecord& record, std::span<const ParameterSpec> specs, std::span<const double> defaults = {});

  double operator[](std::size_t i) const { return values_[i]; }
  std::size_t size() const { return values_.size(); }
  // The trimmed token of text field i ("" for a numeric field or a default).
  const std::string& text(std::size_t i) const { return texts_[i]; }

  // Each throws ModelError naming the field when the condition fails.
  void require_positive(std::size_t i) const;
  void require_nonnegative(std::size_t i) const;
  void require(bool condition, std::size_t i, const std::string& what) const;
  // The same with another remedy than correcting the record (a value the
  // model does not support: "→ set JBUS to 0, or substitute or skip the model").
  void require(bool condition, std::size_t i, const std::string& what, const std::string& remedy) const;

  // "case.dyr:12: GENROU at bus 102 id '1'"
  std::string where() const;
  // "field 5 (H) = -1"
  std::string field(std::size_t i) const;

 private:
  const DyrRecord& record_;
  std::span<const ParameterSpec> specs_;
  std::vector<double> values_;
  std::vector<std::string> texts_;
};

// "GENROU at bus 102 id '1'" for a record.
std::string record_name(const DyrRecord& record);

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_CORE_PARAMETERS_H
