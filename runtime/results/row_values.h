// runtime/results/row_values.h -- what a result writer is given: the columns
// (described once) and, for each row, their values (header only).
//
// A Column is one scalar channel of the result (a scalar variable or one
// element of an array variable, simulation/output_channels.h) with what the
// formats store about it. RowValues gives the current row's value of each
// column exactly, in the storage its type uses (lsdae/values.h): reals
// (Float32, Float64), integers (Int8..Int64, UInt8..UInt32, Boolean 0/1,
// Enumeration), unsigned integers (UInt64), text (String; Binary as hex).
#ifndef LSDAE_RUNTIME_RESULTS_ROW_VALUES_H
#define LSDAE_RUNTIME_RESULTS_ROW_VALUES_H

#include <cstddef>
#include <cstdint>
#include <string>

#include "lsdae/model_description.h"
#include "lsdae/values.h"

namespace lsdae::results {

struct Column {
  std::string name;  // "x" or "A[2,3]"
  std::string unit;
  std::string description;
  VariableType type = VariableType::float64;
  Causality causality = Causality::local;
  Variability variability = Variability::continuous;
  ValueReference value_reference = 0;
};

class RowValues {
 public:
  virtual ~RowValues() = default;
  virtual std::size_t size() const = 0;
  virtual ValueStorage storage(std::size_t c) const = 0;
  virtual double real(std::size_t c) const = 0;                      // storage real
  virtual std::int64_t integer(std::size_t c) const = 0;             // storage integer
  virtual std::uint64_t unsigned_integer(std::size_t c) const = 0;   // storage unsigned_integer
  virtual std::string text(std::size_t c) const = 0;                 // any storage, exactly
  // Appends text(c) to `out`, without allocating for a Float64 (the shortest
  // round-trip form; a Float32 in the shortest form of the float it is).
  virtual void append_text(std::size_t c, std::string& out) const = 0;
};

}  // namespace lsdae::results

#endif  // LSDAE_RUNTIME_RESULTS_ROW_VALUES_H
