// runtime/results/csv_reader.cpp -- reading a CSV result (csv_writer.h's
// layout, RFC 4180 quoting) for result_reader.h.
#include <charconv>
#include <fstream>
#include <optional>
#include <sstream>

#include "lsdae/error.h"
#include "results/result_reader.h"

namespace lsdae::results {
namespace {

// Splits one CSV record starting at `at` (quoted fields may hold commas,
// doubled quotes and line breaks); `at` moves past its line break.
// `quoted` says which fields were quoted.
bool next_record(const std::string& text, std::size_t& at, std::vector<std::string>& fields,
                 std::vector<bool>& quoted) {
  fields.clear();
  quoted.clear();
  if (at >= text.size()) return false;
  std::string field;
  bool in_quotes = false, was_quoted = false;
  while (at < text.size()) {
    const char c = text[at++];
    if (in_quotes) {
      if (c == '"') {
        if (at < text.size() && text[at] == '"') field += text[at++];
        else in_quotes = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      in_quotes = was_quoted = true;
    } else if (c == ',') {
      fields.push_back(std::move(field));
      quoted.push_back(was_quoted);
      field.clear();
      was_quoted = false;
    } else if (c == '\n') {
      break;
    } else if (c != '\r') {
      field += c;
    }
  }
  fields.push_back(std::move(field));
  quoted.push_back(was_quoted);
  return true;
}

std::optional<double> number(const std::string& field, bool quoted) {
  if (quoted || field.empty()) return std::nullopt;
  double value = 0;
  const char* end = field.data() + field.size();
  auto [ptr, ec] = std::from_chars(field.data(), end, value);
  if (ec != std::errc() || ptr != end) {
    // from_chars has no "inf"/"nan" spelled as to_chars prints them? It has; anything else is text.
    return std::nullopt;
  }
  return value;
}

[[noreturn]] void bad(const std::filesystem::path& path, const std::string& what, const std::string& seen,
                      const std::string& todo) {
  throw Error(ErrorKind::usage, "result file " + path.string() + " → " + what + " → " + seen + " → " + todo);
}

}  // namespace

ResultTable read_csv_result(const std::filesystem::path& path, const NameFilter& wanted) {
  std::ifstream in(path, std::ios::binary);
  if (!in) bad(path, "cannot be opened", "no such readable file", "check the path (write it with lsdae simulate -o)");
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  std::size_t at = 0;
  std::vector<std::string> fields;
  std::vector<bool> quoted;
  if (!next_record(text, at, fields, quoted) || fields.empty() || fields[0] != "time")
    bad(path, "is not an lsdae CSV result", "its first header field is not \"time\"",
        "give a file written by lsdae simulate (or --format for another extension)");
  ResultTable table;
  std::vector<std::size_t> picked;  // field indices
  for (std::size_t k = 1; k < fields.size(); ++k) {
    table.all_names.push_back(fields[k]);
    if (wanted(fields[k])) {
      picked.push_back(k);
      table.series.push_back({fields[k], "", {}});
    }
  }
  const std::size_t width = fields.size();
  std::size_t line = 1;
  bool first = true;
  while (next_record(text, at, fields, quoted)) {
    ++line;
    if (fields.size() == 1 && fields[0].empty()) continue;  // a trailing empty line
    if (fields.size() != width)
      bad(path, "line " + std::to_string(line) + " has the wrong number of fields",
          std::to_string(fields.size()) + " fields, the header has " + std::to_string(width),
          "the file is damaged or not a CSV result");
    auto t = number(fields[0], quoted[0]);
    if (!t) {
      if (first) {  // the units line (--csv-units)
        for (std::size_t j = 0; j < picked.size(); ++j) table.series[j].unit = fields[picked[j]];
        first = false;
        continue;
      }
      bad(path, "line " + std::to_string(line) + " has a time that is not a number", "\"" + fields[0] + "\"",
          "the file is damaged or not a CSV result");
    }
    first = false;
    table.time.push_back(*t);
    for (std::size_t j = 0; j < picked.size(); ++j) {
      auto v = number(fields[picked[j]], quoted[picked[j]]);
      if (!v)
        bad(path, "column \"" + table.series[j].name + "\" is not numeric",
            "\"" + fields[picked[j]] + "\" on line " + std::to_string(line),
            "leave it out of --vars (only numbers can be plotted)");
      table.series[j].values.push_back(*v);
    }
  }
  return table;
}

}  // namespace lsdae::results
