// models/psse/io/psse_text.h -- the free-format records of PSS/E's data files
// (.raw and .dyr), split into fields, and typed access to a record's fields
// with messages that name the file, the line and the field.
//
// PSS/E Program Operation Manual, "Power Flow Raw Data File Contents" (the
// free-format rules, the same in versions 32 to 34): fields are separated by
// a comma or by blanks (a comma with blanks around it is one separator);
// character fields are in single (or double) quotes and may hold blanks and
// commas; a slash outside quotes ends the data of the line (the rest is a
// comment); two commas in a row leave a field empty, which takes its default,
// as does any field after the last one given.
//
// Contract: split_fields() never fails (an unterminated quote ends at the end
// of the line, with `unterminated` set). FieldReader's accessors throw
// TextError for a field present but not of the expected type; a missing or
// empty field gives the default, or throws when the field has none.
#ifndef LSDAE_MODELS_PSSE_IO_PSSE_TEXT_H
#define LSDAE_MODELS_PSSE_IO_PSSE_TEXT_H

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace lsdae::psse {

// Thrown for every malformed input of the readers; what() is the message.
class TextError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Field {
  std::string text;   // without quotes; quoted text keeps its blanks
  bool quoted = false;
  bool empty = false;  // ",," or ", ,"
};

struct SplitLine {
  std::vector<Field> fields;
  bool has_comment = false;  // a '/' ended the data
  bool unterminated = false; // a quote was not closed
};

SplitLine split_fields(std::string_view line);

// Quoted text trimmed of blanks at both ends ("'1 '" → "1").
std::string trim(std::string_view text);

// Typed access to one record (one or several lines joined by the caller).
class FieldReader {
 public:
  // `what` names the record in messages, e.g. "generator record".
  FieldReader(std::vector<Field> fields, std::string file, int line, std::string what);

  std::size_t size() const { return fields_.size(); }
  bool present(std::size_t i) const { return i < fields_.size() && !fields_[i].empty; }

  int integer(std::size_t i, const char* name, std::optional<int> fallback = std::nullopt) const;
  double real(std::size_t i, const char* name, std::optional<double> fallback = std::nullopt) const;
  std::string text(std::size_t i, const char* name, std::optional<std::string> fallback = std::nullopt) const;

  // "case.raw:12: generator record"
  std::string where() const;
  // Throws TextError "where: field i (name) ... → what to do".
  [[noreturn]] void fail(std::size_t i, const char* name, const std::string& what) const;

 private:
  std::vector<Field> fields_;
  std::string file_;
  int line_;
  std::string what_;
};

// Strict number parsing: the whole text must be the number (Fortran D
// exponents accepted: 1.0D-3).
std::optional<double> parse_real(std::string_view text);
std::optional<int> parse_integer(std::string_view text);

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_IO_PSSE_TEXT_H
