// models/psse/io/dyr_reader.cpp -- see dyr_reader.h.
#include "psse/io/dyr_reader.h"

#include <cctype>
#include <fstream>
#include <optional>
#include <sstream>

#include "psse/io/psse_text.h"

namespace lsdae::psse {

namespace {

struct Token {
  std::string text;
  bool quoted;
  int line;
};

DyrRecord make_record(const std::vector<Token>& t, const std::string& path) {
  const int line = t.front().line;
  auto fail = [&](const std::string& what) {
    throw TextError(path + ":" + std::to_string(line) + ": dynamics record: " + what);
  };
  DyrRecord r;
  r.file = path;
  r.line = line;
  const auto bus = parse_integer(t[0].text);
  if (!bus || t[0].quoted)
    fail("starts with \"" + t[0].text + "\", not a bus number → each record is IBUS 'MODEL' ID ... /");
  r.bus = *bus;
  if (t.size() < 2) fail("has no model name → each record is IBUS 'MODEL' ID ... /");
  r.model = trim(t[1].text);
  for (char& c : r.model) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (r.model.empty() || std::isdigit(static_cast<unsigned char>(r.model[0])))
    fail("the second field is \"" + t[1].text + "\", not a model name → quote the model name: 'GENROU'");
  if (t.size() < 3) fail(r.model + " at bus " + std::to_string(r.bus) + " has no id → each record is IBUS 'MODEL' ID ... /");
  r.id = trim(t[2].text);
  for (std::size_t i = 3; i < t.size(); ++i) {
    r.tokens.push_back(t[i].text);
    std::optional<double> v;
    if (!t[i].quoted) v = parse_real(t[i].text);
    if (v) {
      r.values.push_back(*v);
      r.value_lines.push_back(t[i].line);
    } else {
      r.numeric = false;
    }
  }
  return r;
}

}  // namespace

std::vector<DyrRecord> parse_dyr(std::string_view text, const std::string& path) {
  std::vector<DyrRecord> out;
  std::vector<Token> current;
  int number = 0;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    ++number;
    // Fields up to the first slash outside quotes; the slash ends the record.
    const SplitLine s = split_fields(line);
    if (s.unterminated)
      throw TextError(path + ":" + std::to_string(number) + ": dynamics record: a quote is not closed → close it");
    for (const Field& f : s.fields)
      if (!f.empty) current.push_back({f.text, f.quoted, number});
    if (s.has_comment && !current.empty()) {
      out.push_back(make_record(current, path));
      current.clear();
    }
    if (end == text.size()) break;
    start = end + 1;
  }
  if (!current.empty())
    throw TextError(path + ":" + std::to_string(current.front().line) +
                    ": dynamics record: not ended by '/' before the end of the file → end each record with a slash");
  return out;
}

std::vector<DyrRecord> read_dyr(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw TextError(path + ": cannot be read → check the path");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_dyr(text.str(), path);
}

}  // namespace lsdae::psse
