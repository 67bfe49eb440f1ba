// models/powergrid/grid_data.cpp -- see grid_data.h.
#include "powergrid/grid_data.h"

#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string_view>

namespace lsdae::powergrid {

namespace {

constexpr const char* kMagic = "lsdae-powergrid-data";
constexpr int kVersion = 1;

void put(std::string& out, double value) {
  char buffer[32];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  (void)ec;
  out.push_back(' ');
  out.append(buffer, end);
}
void put(std::string& out, long long value) {
  out.push_back(' ');
  out += std::to_string(value);
}

// The case name as one field of a record: the reader splits at blanks, and a
// case named after a file "my case.m" (or an empty one) must read back.
std::string one_word(const std::string& name) {
  if (name.empty()) return "unnamed";
  std::string word = name;
  for (char& ch : word)
    if (static_cast<unsigned char>(ch) <= ' ' || ch == '\x7f') ch = '_';
  return word;
}

// Reads the file record by record; every failure names the file and line.
class Records {
 public:
  Records(std::string text, std::string path) : text_(std::move(text)), path_(std::move(path)) {}

  // The next non-comment, non-blank line split into fields.
  const std::vector<std::string_view>& next(const char* expecting) {
    while (pos_ < text_.size()) {
      const std::size_t end = std::min(text_.find('\n', pos_), text_.size());
      std::string_view line(text_.data() + pos_, end - pos_);
      pos_ = end + 1;
      ++line_;
      fields_.clear();
      std::size_t i = 0;
      while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
        const std::size_t start = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
        if (i > start) fields_.push_back(line.substr(start, i - start));
      }
      if (fields_.empty() || fields_[0].front() == '#') continue;
      return fields_;
    }
    fail(std::string("the file ends where ") + expecting + " was expected → regenerate it with lsdae_grid_data");
  }

  // A "<keyword> <value>" line.
  std::string_view keyword(const char* word) {
    const auto& f = next(word);
    if (f.size() != 2 || f[0] != word)
      fail(std::string("expected \"") + word + " <value>\", got \"" + joined() + "\" → regenerate the file");
    return f[1];
  }
  // A "<keyword> <count>" line.
  std::size_t count(const char* word) {
    const std::string_view v = keyword(word);
    return static_cast<std::size_t>(integer(v, word, 0, 1LL << 40));
  }

  double number(std::string_view text, const char* what) const {
    double value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value))
      fail(std::string(what) + " is \"" + std::string(text) + "\", not a finite number → regenerate the file");
    return value;
  }
  long long integer(std::string_view text, const char* what, long long lo, long long hi) const {
    long long value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size())
      fail(std::string(what) + " is \"" + std::string(text) + "\", not an integer → regenerate the file");
    if (value < lo || value > hi)
      fail(std::string(what) + " is " + std::to_string(value) + ", outside " + std::to_string(lo) + ".." +
           std::to_string(hi) + " → regenerate the file");
    return value;
  }
  void fields(std::size_t expected, const char* what) const {
    if (fields_.size() != expected)
      fail(std::string(what) + " line has " + std::to_string(fields_.size()) + " fields, expected " +
           std::to_string(expected) + " → regenerate the file");
  }
  std::string joined() const {
    std::string s;
    for (auto f : fields_) s += (s.empty() ? "" : " ") + std::string(f);
    return s;
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error(path_ + ":" + std::to_string(line_) + ": " + what);
  }
  const std::string& path() const { return path_; }

 private:
  std::string text_, path_;
  std::size_t pos_ = 0;
  int line_ = 0;
  std::vector<std::string_view> fields_;
};

}  // namespace

std::string bus_name(int bus_number, const char* part) {
  std::string s("bus[");
  s += std::to_string(bus_number);
  s += "].";
  s += part;
  return s;
}

std::string machine_name(int case_row, const char* part) {
  std::string s("gen[");
  s += std::to_string(case_row);
  s += "].";
  s += part;
  return s;
}

void write_grid_data(const GridData& d, std::ostream& stream) {
  std::string out;
  out.reserve(128 * (d.y.nnz() + d.branches.size() + d.machines.size() + d.bus_number.size()));
  out += std::string(kMagic) + " " + std::to_string(kVersion) + "\n";
  out += "# Written by lsdae_grid_data (models/powergrid); per unit on base_mva. See grid_data.h.\n";
  out += "name " + one_word(d.name) + "\n";
  out += "base_mva";
  put(out, d.base_mva);
  out += "\nfrequency";
  put(out, d.frequency);
  out += "\npower_flow";
  put(out, static_cast<long long>(d.power_flow_iterations));
  put(out, d.power_flow_mismatch);
  out += "\nbuses " + std::to_string(d.bus_number.size()) + "\n";
  for (std::size_t i = 0; i < d.bus_number.size(); ++i) {
    out += std::to_string(d.bus_number[i]);
    put(out, d.voltage[i].real());
    put(out, d.voltage[i].imag());
    out += '\n';
  }
  out += "admittance " + std::to_string(d.y.nnz()) + "\n";
  for (std::size_t i = 0; i < d.y.n; ++i)
    for (std::size_t p = d.y.row_start[i]; p < d.y.row_start[i + 1]; ++p) {
      out += std::to_string(i);
      put(out, static_cast<long long>(d.y.column[p]));
      put(out, d.y.value[p].real());
      put(out, d.y.value[p].imag());
      out += '\n';
    }
  out += "branches " + std::to_string(d.branches.size()) + "\n";
  for (const GridBranch& b : d.branches) {
    out += std::to_string(b.case_row);
    put(out, static_cast<long long>(b.from));
    put(out, static_cast<long long>(b.to));
    for (Complex v : {b.yff, b.yft, b.ytf, b.ytt}) {
      put(out, v.real());
      put(out, v.imag());
    }
    out += '\n';
  }
  out += "machines " + std::to_string(d.machines.size()) + "\n";
  for (const GridMachine& m : d.machines) {
    out += std::to_string(m.case_row);
    put(out, static_cast<long long>(m.bus));
    for (double v : {m.rating_mva, m.h, m.d, m.xd, m.e, m.delta0, m.pm, m.p, m.q}) put(out, v);
    out += '\n';
  }
  out += "end\n";
  stream << out;
}

void write_grid_data(const GridData& data, const std::string& path) {
  std::ofstream out(path, std::ios::binary);
  write_grid_data(data, out);
  out.close();
  if (!out) throw std::runtime_error(path + ": cannot write the grid data file → check the folder exists and is writable");
}

GridData read_grid_data(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw std::runtime_error(path + ": cannot read the grid data file → build the FMU with lsdae_add_fmu(... RESOURCES "
                                    "<case>.grid) so it lands in resources/");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_grid_data(text.str(), path);
}

GridData parse_grid_data(std::string text, const std::string& path) {
  Records r(std::move(text), path);
  GridData d;

  const auto& head = r.next(kMagic);
  if (head.size() != 2 || head[0] != kMagic || head[1] != std::to_string(kVersion))
    r.fail("first line is \"" + r.joined() + "\", expected \"" + kMagic + " " + std::to_string(kVersion) +
           "\" → regenerate the file with this version of lsdae_grid_data");
  d.name = std::string(r.keyword("name"));
  d.base_mva = r.number(r.keyword("base_mva"), "base_mva");
  d.frequency = r.number(r.keyword("frequency"), "frequency");
  if (!(d.base_mva > 0) || !(d.frequency > 0)) r.fail("base_mva and frequency must be positive → regenerate the file");
  {
    const auto& f = r.next("power_flow");
    if (f.size() != 3 || f[0] != "power_flow") r.fail("expected \"power_flow <iterations> <mismatch>\" → regenerate the file");
    d.power_flow_iterations = static_cast<int>(r.integer(f[1], "power-flow iterations", 0, 1000000));
    d.power_flow_mismatch = r.number(f[2], "power-flow mismatch");
  }

  const std::size_t n = r.count("buses");
  if (n == 0) r.fail("the grid has no buses → regenerate the file");
  d.bus_number.resize(n);
  d.voltage.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto& f = r.next("a bus line");
    r.fields(3, "bus");
    d.bus_number[i] = static_cast<int>(r.integer(f[0], "bus number", 1, 2000000000));
    d.voltage[i] = Complex(r.number(f[1], "Vr"), r.number(f[2], "Vi"));
  }
  const auto last = static_cast<long long>(n) - 1;

  const std::size_t nnz = r.count("admittance");
  d.y.n = n;
  d.y.row_start.assign(n + 1, 0);
  d.y.column.resize(nnz);
  d.y.value.resize(nnz);
  std::size_t previous_row = 0;
  for (std::size_t p = 0; p < nnz; ++p) {
    const auto& f = r.next("an admittance line");
    r.fields(4, "admittance");
    const auto row = static_cast<std::size_t>(r.integer(f[0], "row", 0, last));
    if (row < previous_row) r.fail("admittance rows must ascend, row " + std::to_string(row) + " follows " +
                                   std::to_string(previous_row) + " → regenerate the file");
    previous_row = row;
    ++d.y.row_start[row + 1];
    d.y.column[p] = static_cast<std::size_t>(r.integer(f[1], "column", 0, last));
    d.y.value[p] = Complex(r.number(f[2], "G"), r.number(f[3], "B"));
  }
  for (std::size_t i = 0; i < n; ++i) d.y.row_start[i + 1] += d.y.row_start[i];
  try {
    check_csr(d.y, path);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(e.what());
  }

  const std::size_t nb = r.count("branches");
  d.branches.resize(nb);
  for (GridBranch& b : d.branches) {
    const auto& f = r.next("a branch line");
    r.fields(11, "branch");
    b.case_row = static_cast<int>(r.integer(f[0], "branch case row", 1, 2000000000));
    b.from = static_cast<std::size_t>(r.integer(f[1], "branch from", 0, last));
    b.to = static_cast<std::size_t>(r.integer(f[2], "branch to", 0, last));
    Complex* entries[4] = {&b.yff, &b.yft, &b.ytf, &b.ytt};
    for (std::size_t k = 0; k < 4; ++k)
      *entries[k] = Complex(r.number(f[3 + 2 * k], "branch G"), r.number(f[4 + 2 * k], "branch B"));
    if (d.y.find(b.from, b.to) == d.y.nnz() || d.y.find(b.to, b.from) == d.y.nnz())
      r.fail("branch row " + std::to_string(b.case_row) + " connects buses that have no admittance entry → "
             "regenerate the file");
  }

  const std::size_t nm = r.count("machines");
  d.machines.resize(nm);
  for (GridMachine& m : d.machines) {
    const auto& f = r.next("a machine line");
    r.fields(11, "machine");
    m.case_row = static_cast<int>(r.integer(f[0], "machine case row", 1, 2000000000));
    m.bus = static_cast<std::size_t>(r.integer(f[1], "machine bus", 0, last));
    double* values[9] = {&m.rating_mva, &m.h, &m.d, &m.xd, &m.e, &m.delta0, &m.pm, &m.p, &m.q};
    for (std::size_t k = 0; k < 9; ++k) *values[k] = r.number(f[2 + k], "machine value");
    if (!(m.h > 0) || !(m.xd > 0) || m.d < 0 || !(m.e > 0))
      r.fail("machine gen[" + std::to_string(m.case_row) + "] needs H > 0, x'd > 0, D >= 0 and E' > 0, got H = " +
             std::to_string(m.h) + ", x'd = " + std::to_string(m.xd) + ", D = " + std::to_string(m.d) + ", E' = " +
             std::to_string(m.e) + " → regenerate the file");
  }
  const auto& f = r.next("end");
  if (f.size() != 1 || f[0] != "end") r.fail("expected \"end\", got \"" + r.joined() + "\" → regenerate the file");
  return d;
}

}  // namespace lsdae::powergrid
