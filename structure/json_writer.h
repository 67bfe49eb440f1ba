// structure/json_writer.h -- a small streaming JSON writer for the reports.
//
// Produces indented JSON (2 spaces). Strings are escaped per RFC 8259:
// `"` and `\` are backslash-escaped, control characters below U+0020 become
// \b \f \n \r \t or \u00XX, everything else (UTF-8 included) is copied.
// Non-finite doubles are written as null (JSON has no NaN/Infinity); finite
// ones in the shortest form that reads back to the same value.
//
// Contract: calls must form valid JSON (key() only directly inside an
// object, before each value there; balanced begin/end). Debug builds assert
// it; release builds trust the caller. Cost: O(output size).
#ifndef LSDAE_STRUCTURE_JSON_WRITER_H
#define LSDAE_STRUCTURE_JSON_WRITER_H

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace lsdae::structure {

class JsonWriter {
 public:
  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  JsonWriter& key(std::string_view name);
  JsonWriter& value(std::string_view text);
  JsonWriter& value(const char* text) { return value(std::string_view(text)); }
  JsonWriter& value(const std::string& text) { return value(std::string_view(text)); }
  JsonWriter& value(double number);
  JsonWriter& value(std::size_t number);
  JsonWriter& value(int number);
  JsonWriter& value(bool flag);
  JsonWriter& null();

  // The document (complete when every begin has its end).
  const std::string& str() const { return out_; }

  // `text` as a JSON string literal, quotes included.
  static std::string escape(std::string_view text);

 private:
  void before_value();
  void newline();

  struct Level {
    bool object;
    bool empty;
  };
  std::string out_;
  std::vector<Level> stack_;
  bool after_key_ = false;
};

}  // namespace lsdae::structure

#endif  // LSDAE_STRUCTURE_JSON_WRITER_H
