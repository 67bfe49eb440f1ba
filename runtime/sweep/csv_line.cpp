// runtime/sweep/csv_line.cpp -- see csv_line.h.
#include "sweep/csv_line.h"

namespace lsdae::sweep {

std::vector<std::string> parse_csv_record(const std::string& text, std::size_t& pos, std::string* error) {
  std::vector<std::string> fields(1);
  bool quoted = false, was_quoted = false;
  while (pos < text.size()) {
    const char c = text[pos++];
    if (quoted) {
      if (c != '"') fields.back() += c;
      else if (pos < text.size() && text[pos] == '"') fields.back() += '"', ++pos;
      else quoted = false;
      continue;
    }
    if (c == '"') {
      if (!fields.back().empty() || was_quoted) {
        if (error) *error = "a quote inside an unquoted field";
      }
      quoted = was_quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
      was_quoted = false;
    } else if (c == '\n') {
      break;
    } else if (c == '\r' && pos < text.size() && text[pos] == '\n') {
      // CRLF: the \n ends the record
    } else {
      if (was_quoted && c != ' ' && c != '\t' && error) *error = "text after a closing quote";
      fields.back() += c;
    }
  }
  if (quoted && error) *error = "a quoted field that never ends";
  return fields;
}

std::string csv_field(const std::string& value) {
  const bool quote = value.find_first_of(",\"\n\r") != std::string::npos ||
                     (!value.empty() && (value.front() == ' ' || value.back() == ' ' || value.front() == '\t' ||
                                         value.back() == '\t'));
  if (!quote) return value;
  std::string out = "\"";
  for (char c : value) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string csv_record(const std::vector<std::string>& fields) {
  std::string out;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) out += ',';
    out += csv_field(fields[i]);
  }
  return out;
}

}  // namespace lsdae::sweep
