// runtime/results/csv_reader.cpp -- reading a CSV result (csv_writer.h's
// layout, RFC 4180 quoting) for result_reader.h, streamed: a record at a
// time through a 1 MiB buffer, keeping only the selected columns, so memory
// is the selected series (8 bytes per value) whatever the file's width.
#include <charconv>
#include <fstream>
#include <optional>

#include "lsdae/error.h"
#include "results/result_reader.h"

namespace lsdae::results {
namespace {

// Reads one CSV record from `in` (quoted fields may hold commas, doubled
// quotes and line breaks), up to and past its line break; false at the end.
// `quoted` says which fields were quoted. The file is read through the
// stream's buffer, a record at a time: memory holds one record, not the file.
bool next_record(std::streambuf& in, std::vector<std::string>& fields, std::vector<bool>& quoted) {
  using Traits = std::streambuf::traits_type;
  fields.clear();
  quoted.clear();
  int c = in.sbumpc();
  if (Traits::eq_int_type(c, Traits::eof())) return false;
  std::string field;
  bool in_quotes = false, was_quoted = false;
  for (; !Traits::eq_int_type(c, Traits::eof()); c = in.sbumpc()) {
    const char ch = Traits::to_char_type(c);
    if (in_quotes) {
      if (ch == '"') {
        if (Traits::eq_int_type(in.sgetc(), Traits::to_int_type('"'))) field += Traits::to_char_type(in.sbumpc());
        else in_quotes = false;
      } else {
        field += ch;
      }
    } else if (ch == '"') {
      in_quotes = was_quoted = true;
    } else if (ch == ',') {
      fields.push_back(std::move(field));
      quoted.push_back(was_quoted);
      field.clear();
      was_quoted = false;
    } else if (ch == '\n') {
      break;
    } else if (ch != '\r') {
      field += ch;
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

[[noreturn]] void refuse_csv(const std::filesystem::path& path, const std::string& what, const std::string& seen,
                      const std::string& todo) {
  throw Error(ErrorKind::usage, "result file " + path.string() + " → " + what + " → " + seen + " → " + todo);
}

}  // namespace

ResultTable read_csv_result(const std::filesystem::path& path, const NameFilter& wanted, NonNumeric non_numeric) {
  std::vector<char> buffer(1u << 20);  // read in 1 MiB pieces (outlives the stream)
  std::ifstream in;
  in.rdbuf()->pubsetbuf(buffer.data(), static_cast<std::streamsize>(buffer.size()));
  in.open(path, std::ios::binary);
  if (!in) refuse_csv(path, "cannot be opened", "no such readable file", "check the path (write it with lsdae simulate -o)");
  std::streambuf& text = *in.rdbuf();
  std::vector<std::string> fields;
  std::vector<bool> quoted;
  if (!next_record(text, fields, quoted) || fields.empty() || fields[0] != "time")
    refuse_csv(path, "is not an lsdae CSV result", "its first header field is not \"time\"",
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
  std::vector<bool> is_text(picked.size(), false);  // a selected column found not numeric (NonNumeric::skip)
  const std::size_t width = fields.size();
  std::size_t line = 1;
  bool first = true;
  while (next_record(text, fields, quoted)) {
    ++line;
    if (fields.size() == 1 && fields[0].empty()) continue;  // a trailing empty line
    if (fields.size() != width)
      refuse_csv(path, "line " + std::to_string(line) + " has the wrong number of fields",
          std::to_string(fields.size()) + " fields, the header has " + std::to_string(width),
          "the file is damaged or not a CSV result");
    auto t = number(fields[0], quoted[0]);
    if (!t) {
      if (first) {  // the units line (--csv-units)
        for (std::size_t j = 0; j < picked.size(); ++j) table.series[j].unit = fields[picked[j]];
        first = false;
        continue;
      }
      refuse_csv(path, "line " + std::to_string(line) + " has a time that is not a number", "\"" + fields[0] + "\"",
          "the file is damaged or not a CSV result");
    }
    first = false;
    table.time.push_back(*t);
    for (std::size_t j = 0; j < picked.size(); ++j) {
      if (is_text[j]) continue;
      auto v = number(fields[picked[j]], quoted[picked[j]]);
      if (!v && non_numeric == NonNumeric::skip) {
        is_text[j] = true;
        continue;
      }
      if (!v)
        refuse_csv(path, "column \"" + table.series[j].name + "\" is not numeric",
            "\"" + fields[picked[j]] + "\" on line " + std::to_string(line),
            "leave it out of --vars (only numbers can be plotted)");
      table.series[j].values.push_back(*v);
    }
  }
  // The text columns skipped, in file order.
  std::vector<ResultSeries> numeric;
  for (std::size_t j = 0; j < picked.size(); ++j) {
    if (is_text[j]) table.skipped.push_back(table.series[j].name);
    else numeric.push_back(std::move(table.series[j]));
  }
  table.series = std::move(numeric);
  return table;
}

}  // namespace lsdae::results
