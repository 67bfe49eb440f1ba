// models/psse/io/psse_text.cpp -- see psse_text.h.
#include "psse/io/psse_text.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace lsdae::psse {

SplitLine split_fields(std::string_view line) {
  SplitLine out;
  std::size_t i = 0;
  const std::size_t n = line.size();
  bool expect_field = true;  // at the start, or right after a comma
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (i < n) {
    while (i < n && blank(line[i])) ++i;
    if (i >= n) break;
    const char c = line[i];
    if (c == '/') {
      out.has_comment = true;
      break;
    }
    if (c == ',') {
      if (expect_field) out.fields.push_back({"", false, true});
      expect_field = true;
      ++i;
      continue;
    }
    Field f;
    if (c == '\'' || c == '"') {
      const char quote = c;
      const std::size_t end = line.find(quote, i + 1);
      if (end == std::string_view::npos) {
        f.text = std::string(line.substr(i + 1));
        out.unterminated = true;
        i = n;
      } else {
        f.text = std::string(line.substr(i + 1, end - i - 1));
        i = end + 1;
      }
      f.quoted = true;
    } else {
      const std::size_t start = i;
      while (i < n && !blank(line[i]) && line[i] != ',' && line[i] != '/') ++i;
      f.text = std::string(line.substr(start, i - start));
    }
    out.fields.push_back(std::move(f));
    expect_field = false;
    // A comma after blanks belongs to this separator.
    std::size_t j = i;
    while (j < n && blank(line[j])) ++j;
    if (j < n && line[j] == ',') {
      i = j + 1;
      expect_field = true;
    }
  }
  return out;
}

std::string trim(std::string_view text) {
  std::size_t a = 0, b = text.size();
  while (a < b && std::isspace(static_cast<unsigned char>(text[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(text[b - 1]))) --b;
  return std::string(text.substr(a, b - a));
}

std::optional<double> parse_real(std::string_view text) {
  std::string s(text);
  for (char& c : s)
    if (c == 'D' || c == 'd') c = 'E';
  if (s.empty()) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || errno == ERANGE || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::optional<int> parse_integer(std::string_view text) {
  const std::string s(text);
  if (s.empty()) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  const long v = std::strtol(s.c_str(), &end, 10);
  if (end == s.c_str() + s.size() && errno == 0 && v >= -2147483647L && v <= 2147483647L) return static_cast<int>(v);
  // PSS/E writes some integers as reals ("1.0"): accept a whole number.
  const auto r = parse_real(text);
  if (r && *r == std::floor(*r) && std::fabs(*r) < 2147483647.0) return static_cast<int>(*r);
  return std::nullopt;
}

FieldReader::FieldReader(std::vector<Field> fields, std::string file, int line, std::string what)
    : fields_(std::move(fields)), file_(std::move(file)), line_(line), what_(std::move(what)) {}

std::string FieldReader::where() const { return file_ + ":" + std::to_string(line_) + ": " + what_; }

void FieldReader::fail(std::size_t i, const char* name, const std::string& what) const {
  throw TextError(where() + ": field " + std::to_string(i + 1) + " (" + name + ") " + what);
}

int FieldReader::integer(std::size_t i, const char* name, std::optional<int> fallback) const {
  if (!present(i)) {
    if (fallback) return *fallback;
    fail(i, name, "is missing → complete the record");
  }
  const auto v = parse_integer(fields_[i].text);
  if (!v) fail(i, name, "is \"" + fields_[i].text + "\", not an integer → correct the record");
  return *v;
}

double FieldReader::real(std::size_t i, const char* name, std::optional<double> fallback) const {
  if (!present(i)) {
    if (fallback) return *fallback;
    fail(i, name, "is missing → complete the record");
  }
  const auto v = parse_real(fields_[i].text);
  if (!v) fail(i, name, "is \"" + fields_[i].text + "\", not a number → correct the record");
  return *v;
}

std::string FieldReader::text(std::size_t i, const char* name, std::optional<std::string> fallback) const {
  if (!present(i)) {
    if (fallback) return *fallback;
    fail(i, name, "is missing → complete the record");
  }
  return trim(fields_[i].text);
}

}  // namespace lsdae::psse
