// lsdae/values.h -- typed values of FMU variables: one buffer type for every
// FMI 3.0 variable type, strict parsing of values a user types, and exact
// printing.
//
// A `Values` holds the values of one FMI type for a list of variables, arrays
// flattened row-major (the order of FMI 3.0 §2.2.6.3 for Get/Set of array
// variables). Where the values live depends on the type:
//   reals              Float32, Float64
//   integers           Int8 ... Int64, UInt8 ... UInt32, Boolean (0/1), Enumeration
//   unsigned_integers  UInt64 (its range does not fit an int64)
//   texts              String; Binary as lowercase hexadecimal ("666f6f")
// so every value is held exactly (an Int64 or UInt64 is never rounded
// through a double).
//
// parse_value() reads what a user typed for one variable (--set, an input
// file, the C API's text setter) and refuses anything that is not exactly a
// value of the variable's type: "true", "0x10", "nan", "1e400" are not
// Float64 values; "1.5" and "300" are not Int8 values. An array takes its
// elements separated by spaces (the FMI start attribute's syntax), one
// element takes a scalar. Errors throw lsdae::Error(usage) naming the
// variable, its type and the text.
#ifndef LSDAE_VALUES_H
#define LSDAE_VALUES_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "lsdae/model_description.h"

namespace lsdae {

enum class ValueStorage { real, integer, unsigned_integer, text };
// Where a value of `type` is held in a Values buffer.
ValueStorage storage_of(VariableType type) noexcept;

struct Values {
  VariableType type = VariableType::float64;
  std::vector<double> reals;
  std::vector<std::int64_t> integers;
  std::vector<std::uint64_t> unsigned_integers;
  std::vector<std::string> texts;

  explicit Values(VariableType t = VariableType::float64) : type(t) {}
  // Number of values held (in the vector `type` uses).
  std::size_t size() const;
  // Resizes the vector `type` uses (new values are zero / empty).
  void resize(std::size_t n);
  // Value k as text, exactly: integers in decimal, reals in the shortest
  // form that reads back to the same double, Booleans as 0/1, strings as they are.
  std::string text(std::size_t k) const;
  // Value k as a double (Booleans 0/1; large 64-bit integers round).
  double number(std::size_t k) const;
};

// Appends the values of `from` (of the same type) to `to`.
void append_values(Values& to, const Values& from);

// The value(s) a user typed for `variable`: all of its elements (an array
// takes them space-separated). Enumerations take an item name or its
// integer value; Booleans take true/false/1/0; Binary takes hexadecimal.
Values parse_value(const Variable& variable, const ModelDescription& md, const std::string& text);
// One element's value (the type's scalar syntax).
Values parse_element_value(const Variable& variable, const ModelDescription& md, const std::string& text);
// The start value(s) of a variable as written in its start attribute, or
// zero / empty values when it has none.
Values start_values(const Variable& variable, const ModelDescription& md);

}  // namespace lsdae

#endif  // LSDAE_VALUES_H
