// models/powergrid/matpower_case.cpp -- see matpower_case.h.
#include "powergrid/matpower_case.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

namespace lsdae::powergrid {

namespace {

struct Row {
  std::vector<double> values;
  int line = 0;
};

struct Matrix {
  std::vector<Row> rows;
  int line = 0;  // where `mpc.<name> = [` stands
};

std::string format_number(double value) {
  std::ostringstream out;
  out.precision(12);
  out << value;
  return out.str();
}

// Turns one token into a double: MATLAB numbers, Inf, -Inf, NaN, a leading +.
std::optional<double> to_number(std::string_view token) {
  if (!token.empty() && token.front() == '+') token.remove_prefix(1);
  if (token.empty()) return std::nullopt;
  double value = 0;
  auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (ec != std::errc() || end != token.data() + token.size()) return std::nullopt;
  return value;
}

// Character-level scanner over the whole file with line numbers.
class Scanner {
 public:
  Scanner(std::string_view text, const std::string& path) : text_(text), path_(path) {}

  bool done() const { return pos_ >= text_.size(); }
  char peek() const { return done() ? '\0' : text_[pos_]; }
  int line() const { return line_; }
  const std::string& path() const { return path_; }

  void advance() {
    if (text_[pos_] == '\n') ++line_;
    ++pos_;
  }
  void skip_blanks() {
    while (!done() && (peek() == ' ' || peek() == '\t' || peek() == '\r')) advance();
  }
  // Skips to the end of the line (the '\n' itself is not consumed).
  void skip_to_line_end() {
    while (!done() && peek() != '\n') advance();
  }
  // Skips blanks, line breaks, `;` and comments between statements.
  void skip_between_statements() {
    while (!done()) {
      const char c = peek();
      if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ';' || c == ',') advance();
      else if (c == '%') skip_to_line_end();
      else break;
    }
  }
  std::string_view word() {
    const std::size_t start = pos_;
    while (!done() && (std::isalnum(static_cast<unsigned char>(peek())) || peek() == '_' || peek() == '.')) advance();
    return text_.substr(start, pos_ - start);
  }
  // A MATLAB string '...' ('' is an escaped quote); the opening quote is current.
  std::string quoted() {
    const int start_line = line_;
    std::string out;
    advance();
    while (true) {
      if (done() || peek() == '\n')
        throw CaseError(path_ + ":" + std::to_string(start_line) + ": string is not closed → add the closing quote");
      if (peek() == '\'') {
        advance();
        if (peek() != '\'') return out;
      }
      out += peek();
      advance();
    }
  }
  // The rest of the statement up to `;`, a comment or the line end, trimmed.
  std::string_view rest_of_statement() {
    const std::size_t start = pos_;
    while (!done() && peek() != ';' && peek() != '\n' && peek() != '%') advance();
    std::string_view s = text_.substr(start, pos_ - start);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
  }
  bool starts_with(std::string_view s) const { return text_.substr(pos_, s.size()) == s; }

  [[noreturn]] void fail(int line, const std::string& message) const {
    throw CaseError(path_ + ":" + std::to_string(line) + ": " + message);
  }

 private:
  std::string_view text_;
  std::string path_;
  std::size_t pos_ = 0;
  int line_ = 1;
};

// The body of `[ ... ]`; the '[' is current.
Matrix read_matrix(Scanner& s, const std::string& name) {
  Matrix m;
  m.line = s.line();
  s.advance();
  Row row;
  auto end_row = [&]() {
    if (!row.values.empty()) m.rows.push_back(std::move(row));
    row = Row{};
  };
  while (true) {
    if (s.done())
      s.fail(m.line, "mpc." + name + " = [ is never closed → end the matrix with '];'");
    const char c = s.peek();
    if (c == ' ' || c == '\t' || c == '\r' || c == ',') {
      s.advance();
    } else if (c == '\n' || c == ';') {
      s.advance();
      end_row();
    } else if (c == '%') {
      s.skip_to_line_end();
    } else if (s.starts_with("...")) {
      s.skip_to_line_end();
      if (!s.done()) s.advance();  // continuation: the line break does not end the row
    } else if (c == ']') {
      s.advance();
      end_row();
      return m;
    } else {
      const int line = s.line();
      std::string token;
      while (!s.done()) {
        const char d = s.peek();
        if (d == ' ' || d == '\t' || d == '\r' || d == '\n' || d == ',' || d == ';' || d == ']' || d == '%') break;
        token += d;
        s.advance();
      }
      if (token.rfind("mpc.", 0) == 0 || token == "function")
        s.fail(m.line, "mpc." + name + " = [ is not closed before line " + std::to_string(line) +
                           " → end the matrix with '];'");
      const auto value = to_number(token);
      if (!value)
        s.fail(line, name + " row " + std::to_string(m.rows.size() + 1) + ", column " +
                         std::to_string(row.values.size() + 1) + ": \"" + token + "\" is not a number → fix the value");
      if (row.values.empty()) row.line = line;
      row.values.push_back(*value);
    }
  }
}

// Skips `{ ... }` (cell arrays of strings); the '{' is current.
void skip_cell(Scanner& s, const std::string& name) {
  const int start = s.line();
  s.advance();
  while (true) {
    if (s.done()) s.fail(start, "mpc." + name + " = { is never closed → end the cell array with '};'");
    const char c = s.peek();
    if (c == '}') {
      s.advance();
      return;
    }
    if (c == '\'') s.quoted();
    else if (c == '%') s.skip_to_line_end();
    else s.advance();
  }
}

// Checks the column count of every row of a matrix.
void check_columns(const Scanner& s, const Matrix& m, const std::string& what, std::size_t expected, bool at_least) {
  for (const Row& r : m.rows) {
    if (r.values.size() >= expected && (at_least || r.values.size() == expected)) continue;
    s.fail(r.line, what + " row has " + std::to_string(r.values.size()) + " columns, expected " +
                       (at_least ? "at least " : "") + std::to_string(expected) + " → fix the row");
  }
}

int to_int(const Scanner& s, int line, double value, const std::string& what, const std::string& rule) {
  if (!std::isfinite(value) || value != std::floor(value) || std::abs(value) > 2e9)
    s.fail(line, what + " is " + format_number(value) + " → " + rule);
  return static_cast<int>(value);
}

std::string stem_of(const std::string& path) {
  std::string name = path.substr(path.find_last_of('/') + 1);
  const auto dot = name.rfind('.');
  return dot == std::string::npos ? name : name.substr(0, dot);
}

}  // namespace

Case parse_matpower_case(std::string_view text, const std::string& path) {
  Scanner s(text, path);
  Case c;
  c.path = path;
  c.name = stem_of(path);
  std::optional<int> base_line, version_line;
  std::map<std::string, Matrix> matrices;
  while (true) {
    s.skip_between_statements();
    if (s.done()) break;
    const int line = s.line();
    const std::string_view head = s.word();
    if (head == "function") {
      // function mpc = name
      std::string_view rest = s.rest_of_statement();
      const auto eq = rest.find('=');
      if (eq != std::string_view::npos) {
        std::string_view name = rest.substr(eq + 1);
        while (!name.empty() && (name.front() == ' ' || name.front() == '\t')) name.remove_prefix(1);
        if (!name.empty()) c.name = std::string(name);
      }
      continue;
    }
    if (head.rfind("mpc.", 0) != 0) {
      // Anything else (`end`, `return`, other variables) is not part of the case data.
      s.rest_of_statement();
      continue;
    }
    const std::string field(head.substr(4));
    s.skip_blanks();
    if (s.peek() != '=') s.fail(line, "expected '=' after mpc." + field + " → write mpc." + field + " = ...;");
    s.advance();
    s.skip_blanks();
    if (s.peek() == '[') {
      Matrix m = read_matrix(s, field);
      m.line = line;
      matrices[field] = std::move(m);
    } else if (s.peek() == '{') {
      skip_cell(s, field);
    } else if (s.peek() == '\'') {
      const std::string value = s.quoted();
      if (field == "version") {
        version_line = line;
        if (value != "2")
          s.fail(line, "mpc.version is '" + value +
                           "' → only case format version 2 is read; convert the file with MATPOWER's savecase");
      }
    } else {
      const std::string_view value = s.rest_of_statement();
      if (field == "baseMVA") {
        const auto number = to_number(value);
        if (!number || !(*number > 0) || !std::isfinite(*number))
          s.fail(line, "mpc.baseMVA is \"" + std::string(value) + "\" → give the system MVA base as a positive number");
        c.base_mva = *number;
        base_line = line;
      } else if (field == "version") {
        version_line = line;
        const auto number = to_number(value);
        if (!number || *number != 2)
          s.fail(line, "mpc.version is " + std::string(value) +
                           " → only case format version 2 is read; convert the file with MATPOWER's savecase");
      }
    }
  }

  const int last = s.line();
  if (!base_line) s.fail(last, "no mpc.baseMVA → add mpc.baseMVA = 100; (the system MVA base)");
  for (const char* name : {"bus", "gen", "branch"})
    if (!matrices.count(name))
      s.fail(last, std::string("no mpc.") + name + " matrix → is this a MATPOWER case file (format version 2)?");
  (void)version_line;  // MATPOWER treats a missing version as 1 only for files without mpc.; we require the matrices

  const Matrix& bus = matrices["bus"];
  const Matrix& gen = matrices["gen"];
  const Matrix& branch = matrices["branch"];
  if (bus.rows.empty()) s.fail(bus.line, "mpc.bus has no rows → a case needs at least one bus");
  check_columns(s, bus, "bus", 13, true);
  check_columns(s, gen, "gen", 10, true);
  check_columns(s, branch, "branch", 11, true);

  std::map<int, int> bus_line;  // number -> line of its row
  for (const Row& r : bus.rows) {
    const auto& v = r.values;
    Bus b;
    b.line = r.line;
    b.number = to_int(s, r.line, v[0], "bus number", "bus numbers are positive integers");
    if (b.number <= 0) s.fail(r.line, "bus number is " + std::to_string(b.number) + " → bus numbers are positive integers");
    const int type = to_int(s, r.line, v[1], "type of bus " + std::to_string(b.number), "use 1 (PQ), 2 (PV) or 3 (slack)");
    if (type == 4)
      s.fail(r.line, "bus " + std::to_string(b.number) +
                         " has type 4 (isolated) → remove the bus and set its branches and generators out of service");
    if (type < 1 || type > 3)
      s.fail(r.line, "type of bus " + std::to_string(b.number) + " is " + std::to_string(type) +
                         " → use 1 (PQ), 2 (PV) or 3 (slack)");
    b.type = static_cast<BusType>(type);
    b.pd = v[2];
    b.qd = v[3];
    b.gs = v[4];
    b.bs = v[5];
    b.vm = v[7];
    b.va = v[8];
    b.base_kv = v[9];
    for (int k : {2, 3, 4, 5, 7, 8})
      if (!std::isfinite(v[static_cast<std::size_t>(k)]))
        s.fail(r.line, "bus " + std::to_string(b.number) + ", column " + std::to_string(k + 1) + " is " +
                           format_number(v[static_cast<std::size_t>(k)]) + " → give a finite value");
    const auto [it, inserted] = bus_line.emplace(b.number, r.line);
    if (!inserted)
      s.fail(r.line, "bus number " + std::to_string(b.number) + " appears twice (first at line " +
                         std::to_string(it->second) + ") → renumber one of them");
    c.buses.push_back(b);
  }

  auto check_bus = [&](int line, double value, const std::string& what) {
    const int number = to_int(s, line, value, what, "give the number of a bus in mpc.bus");
    if (!bus_line.count(number))
      s.fail(line, what + " is " + std::to_string(number) + ", which is not in mpc.bus → fix the bus number");
    return number;
  };

  for (const Row& r : gen.rows) {
    const auto& v = r.values;
    Generator g;
    g.line = r.line;
    g.bus = check_bus(r.line, v[0], "generator bus");
    g.pg = v[1];
    g.qg = v[2];
    g.qmax = v[3];
    g.qmin = v[4];
    g.vg = v[5];
    g.mbase = v[6];
    g.in_service = v[7] > 0;
    g.pmax = v[8];
    g.pmin = v[9];
    for (int k : {1, 2, 5, 6})
      if (!std::isfinite(v[static_cast<std::size_t>(k)]))
        s.fail(r.line, "generator at bus " + std::to_string(g.bus) + ", column " + std::to_string(k + 1) + " is " +
                           format_number(v[static_cast<std::size_t>(k)]) + " → give a finite value");
    c.generators.push_back(g);
  }

  for (const Row& r : branch.rows) {
    const auto& v = r.values;
    Branch b;
    b.line = r.line;
    b.from = check_bus(r.line, v[0], "branch from-bus");
    b.to = check_bus(r.line, v[1], "branch to-bus");
    b.r = v[2];
    b.x = v[3];
    b.b = v[4];
    b.rate_a = v[5];
    b.ratio = v[8];
    b.angle = v[9];
    b.in_service = v[10] > 0;
    for (int k : {2, 3, 4, 8, 9})
      if (!std::isfinite(v[static_cast<std::size_t>(k)]))
        s.fail(r.line, "branch " + std::to_string(b.from) + "-" + std::to_string(b.to) + ", column " +
                           std::to_string(k + 1) + " is " + format_number(v[static_cast<std::size_t>(k)]) +
                           " → give a finite value");
    if (b.in_service && b.from == b.to)
      s.fail(r.line, "branch connects bus " + std::to_string(b.from) +
                         " to itself → model it as a bus shunt (GS, BS) or set BR_STATUS to 0");
    if (b.in_service && b.r == 0 && b.x == 0)
      s.fail(r.line, "branch " + std::to_string(b.from) + "-" + std::to_string(b.to) +
                         " has r = 0 and x = 0 → give it an impedance or set BR_STATUS to 0");
    c.branches.push_back(b);
  }
  return c;
}

Case read_matpower_case(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw CaseError(path + ": cannot open the case file → check the path");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_matpower_case(text.str(), path);
}

}  // namespace lsdae::powergrid
