// models/psse/io/raw_records.cpp -- see raw_records.h.
#include "psse/io/raw_records.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <optional>

namespace lsdae::psse::raw {

namespace {

constexpr double kAbsent = std::numeric_limits<double>::quiet_NaN();
constexpr std::size_t kNone = static_cast<std::size_t>(-1);

using Names = std::vector<const char*>;

const Names kBus = {"I", "NAME", "BASKV", "IDE", "AREA", "ZONE", "OWNER", "VM", "VA", "NVHI", "NVLO", "EVHI", "EVLO"};
const Names kLoad = {"I", "ID", "STATUS", "AREA", "ZONE", "PL", "QL", "IP", "IQ", "YP", "YQ", "OWNER", "SCALE",
                     "INTRPT", "DGENP", "DGENQ", "DGENM"};
const Names kFixedShunt = {"I", "ID", "STATUS", "GL", "BL"};
const Names kGenerator = {"I", "ID", "PG", "QG", "QT", "QB", "VS", "IREG", "MBASE", "ZR", "ZX", "RT", "XT", "GTAP",
                          "STAT", "RMPCT", "PT", "PB"};
const Names kBranch33 = {"I", "J", "CKT", "R", "X", "B", "RATEA", "RATEB", "RATEC", "GI", "BI", "GJ", "BJ", "ST"};
const Names kBranch34 = {"I", "J", "CKT", "R", "X", "B", "NAME", "RATE1", "RATE2", "RATE3", "RATE4", "RATE5",
                         "RATE6", "RATE7", "RATE8", "RATE9", "RATE10", "RATE11", "RATE12", "GI", "BI", "GJ", "BJ",
                         "ST"};
const Names kSwitchingDevice = {"I", "J", "CKT", "X", "RATE1", "RATE2", "RATE3", "RATE4", "RATE5", "RATE6", "RATE7",
                                "RATE8", "RATE9", "RATE10", "RATE11", "RATE12", "STAT"};
const Names kSwitchedShunt = {"I", "MODSW", "ADJM", "STAT", "VSWHI", "VSWLO", "SWREM", "RMPCT", "RMIDNT", "BINIT"};

// A record's fields, found by name: in the section's header when it has the
// name (or an alias), else at the name's position in the layout.
class Named {
 public:
  Named(const Source& s, std::vector<Field> fields, int line, const char* what, const Names& layout)
      : reader_(std::move(fields), s.file, line, what), layout_(layout), header_(s.header) {}

  std::size_t index(const char* name) const {
    if (!header_.empty()) {
      for (std::size_t i = 0; i < header_.size(); ++i)
        if (header_[i] == name) return i;
    }
    for (std::size_t i = 0; i < layout_.size(); ++i)
      if (std::string(layout_[i]) == name) return i;
    return kNone;
  }
  int integer(const char* name, std::optional<int> fallback = std::nullopt) const {
    return reader_.integer(at(name, fallback.has_value()), name, fallback);
  }
  double real(const char* name, std::optional<double> fallback = std::nullopt) const {
    return reader_.real(at(name, fallback.has_value()), name, fallback);
  }
  std::string text(const char* name, std::optional<std::string> fallback = std::nullopt) const {
    return reader_.text(at(name, fallback.has_value()), name, fallback);
  }
  const FieldReader& reader() const { return reader_; }

 private:
  std::size_t at(const char* name, bool has_default) const {
    const std::size_t i = index(name);
    if (i == kNone && !has_default) reader_.fail(0, name, "has no column in this section's header → complete the header");
    return i == kNone ? std::numeric_limits<std::size_t>::max() / 2 : i;
  }
  FieldReader reader_;
  const Names& layout_;
  const std::vector<std::string>& header_;
};

int bus_number(const Named& n, const char* name) {
  // A negative number marks the metered end in some records; the bus is |I|.
  return std::abs(n.integer(name));
}

}  // namespace

std::vector<std::string> parse_column_header(const std::string& line) {
  std::string body = line;
  const auto at = body.find("@!");
  if (at != std::string::npos) body = body.substr(at + 2);
  std::vector<std::string> names;
  std::string current;
  auto flush = [&] {
    names.push_back(current);
    current.clear();
  };
  for (char c : body) {
    if (c == ',') flush();
    else if (c != '\'' && c != '"' && !std::isspace(static_cast<unsigned char>(c)))
      current += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  if (!current.empty()) flush();
  for (auto& n : names) {
    if (n == "SWREG") n = "SWREM";  // the regulated bus is named both ways across versions
    if (n == "RATA1") n = "RATEA";
  }
  return names;
}

RawBus bus(const Source& s, std::vector<Field> fields, int line) {
  const Named n(s, std::move(fields), line, "bus record", kBus);
  RawBus b;
  b.number = n.integer("I");
  if (b.number <= 0 || b.number > 999997)
    n.reader().fail(0, "I", "is " + std::to_string(b.number) + ", outside 1..999997 → renumber the bus");
  b.name = n.text("NAME", "");
  b.base_kv = n.real("BASKV", 0.0);
  b.type = n.integer("IDE", 1);
  b.area = n.integer("AREA", 1);
  b.zone = n.integer("ZONE", 1);
  b.owner = n.integer("OWNER", 1);
  b.vm = n.real("VM", 1.0);
  b.va = n.real("VA", 0.0);
  if (b.type < 1 || b.type > 4) n.reader().fail(n.index("IDE"), "IDE", "is " + std::to_string(b.type) + ", not 1..4 → correct the bus type");
  b.line = line;
  return b;
}

RawLoad load(const Source& s, std::vector<Field> fields, int line) {
  const Named n(s, std::move(fields), line, "load record", kLoad);
  RawLoad l;
  l.bus = bus_number(n, "I");
  l.id = n.text("ID", "1");
  l.status = n.integer("STATUS", 1);
  l.area = n.integer("AREA", 1);
  l.zone = n.integer("ZONE", 1);
  l.pl = n.real("PL", 0.0);
  l.ql = n.real("QL", 0.0);
  l.ip = n.real("IP", 0.0);
  l.iq = n.real("IQ", 0.0);
  l.yp = n.real("YP", 0.0);
  l.yq = n.real("YQ", 0.0);
  l.owner = n.integer("OWNER", 1);
  l.scale = n.real("SCALE", 1.0);
  l.line = line;
  return l;
}

RawFixedShunt fixed_shunt(const Source& s, std::vector<Field> fields, int line) {
  const Named n(s, std::move(fields), line, "fixed shunt record", kFixedShunt);
  RawFixedShunt f;
  f.bus = bus_number(n, "I");
  f.id = n.text("ID", "1");
  f.status = n.integer("STATUS", 1);
  f.gl = n.real("GL", 0.0);
  f.bl = n.real("BL", 0.0);
  f.line = line;
  return f;
}

RawGenerator generator(const Source& s, std::vector<Field> fields, int line) {
  const Named n(s, std::move(fields), line, "generator record", kGenerator);
  RawGenerator g;
  g.bus = bus_number(n, "I");
  g.id = n.text("ID", "1");
  g.pg = n.real("PG", 0.0);
  g.qg = n.real("QG", 0.0);
  g.qt = n.real("QT", 9999.0);
  g.qb = n.real("QB", -9999.0);
  g.vs = n.real("VS", 1.0);
  g.ireg = n.integer("IREG", 0);
  g.mbase = n.real("MBASE", s.sbase);
  if (g.mbase == 0.0) g.mbase = s.sbase;
  g.zr = n.real("ZR", 0.0);
  g.zx = n.real("ZX", 1.0);
  g.rt = n.real("RT", 0.0);
  g.xt = n.real("XT", 0.0);
  g.gtap = n.real("GTAP", 1.0);
  g.status = n.integer("STAT", 1);
  g.rmpct = n.real("RMPCT", 100.0);
  g.pt = n.real("PT", 9999.0);
  g.pb = n.real("PB", -9999.0);
  g.line = line;
  return g;
}

RawBranch branch(const Source& s, std::vector<Field> fields, int line) {
  const Named n(s, std::move(fields), line, "branch record", s.version >= 34 ? kBranch34 : kBranch33);
  RawBranch b;
  b.from = bus_number(n, "I");
  b.to = bus_number(n, "J");
  b.ckt = n.text("CKT", "1");
  b.r = n.real("R", 0.0);
  b.x = n.real("X");
  b.b = n.real("B", 0.0);
  b.gi = n.real("GI", 0.0);
  b.bi = n.real("BI", 0.0);
  b.gj = n.real("GJ", 0.0);
  b.bj = n.real("BJ", 0.0);
  b.status = n.integer("ST", 1);
  b.line = line;
  return b;
}

RawBranch switching_device(const Source& s, std::vector<Field> fields, int line) {
  const Named n(s, std::move(fields), line, "system switching device record", kSwitchingDevice);
  RawBranch b;
  b.from = bus_number(n, "I");
  b.to = bus_number(n, "J");
  b.ckt = n.text("CKT", "1");
  b.x = n.real("X", 0.0001);
  b.status = n.integer("STAT", 1);
  b.switching_device = true;
  b.line = line;
  return b;
}

RawSwitchedShunt switched_shunt(const Source& s, std::vector<Field> fields, int line) {
  const Named n(s, std::move(fields), line, "switched shunt record", kSwitchedShunt);
  RawSwitchedShunt w;
  w.bus = bus_number(n, "I");
  w.modsw = n.integer("MODSW", 1);
  w.adjm = n.integer("ADJM", 0);
  w.status = n.integer("STAT", 1);
  w.vswhi = n.real("VSWHI", 1.0);
  w.vswlo = n.real("VSWLO", 1.0);
  w.swrem = n.integer("SWREM", 0);
  w.rmpct = n.real("RMPCT", 100.0);
  w.binit = n.real("BINIT", 0.0);
  const std::size_t first = n.index("BINIT") + 1;
  for (std::size_t i = first; i + 1 < n.reader().size() + 1; i += 2) {
    if (!n.reader().present(i)) break;
    const int steps = n.reader().integer(i, "N");
    const double b = n.reader().real(i + 1, "B", 0.0);
    w.blocks.emplace_back(steps, b);
  }
  w.line = line;
  return w;
}

bool ends_impedance_correction(const std::vector<Field>& fields) {
  if (fields.size() < 3) return true;
  for (std::size_t i = fields.size() - 3; i < fields.size(); ++i) {
    const auto v = parse_real(fields[i].text);
    if (fields[i].empty || !v || *v != 0.0) return false;
  }
  return true;
}

RawImpedanceCorrection impedance_correction(const Source& s, std::vector<Field> fields, int line) {
  const FieldReader r(std::move(fields), s.file, line, "impedance correction table");
  RawImpedanceCorrection c;
  c.number = r.integer(0, "I");
  if (c.number <= 0) r.fail(0, "I", "is " + std::to_string(c.number) + ", not a positive table number → number the table");
  const std::size_t width = s.version >= 34 ? 3 : 2;  // T, F or T, Re(F), Im(F)
  for (std::size_t i = 1; r.present(i); i += width) {
    const double t = r.real(i, "T");
    const double re = r.real(i + 1, "F", 0.0);
    const double im = width == 3 ? r.real(i + 2, "Im(F)", 0.0) : 0.0;
    if (t == 0.0 && re == 0.0 && im == 0.0) break;  // an unused point (v33 zeros, v34 end marker)
    if (!c.t.empty() && !(t > c.t.back()))
      r.fail(i, "T", "= " + std::to_string(t) + " is not above the previous T " + std::to_string(c.t.back()) +
                         " → give the points in strictly ascending T");
    if (!(re > 0.0)) r.fail(i + 1, "F", "= " + std::to_string(re) + " is not positive → give positive factors");
    c.t.push_back(t);
    c.f.emplace_back(re, im);
  }
  if (c.t.size() < 2) r.fail(1, "T1", "the table has " + std::to_string(c.t.size()) + " points, at least 2 needed → complete it");
  c.line = line;
  return c;
}

RawTransformer transformer(const Source& s, const std::vector<std::vector<Field>>& records,
                           const std::vector<int>& lines) {
  RawTransformer t;
  const FieldReader h(records[0], s.file, lines[0], "transformer record (line 1)");
  t.i = std::abs(h.integer(0, "I"));
  t.j = std::abs(h.integer(1, "J"));
  t.k = std::abs(h.integer(2, "K", 0));
  t.ckt = h.text(3, "CKT", "1");
  t.cw = h.integer(4, "CW", 1);
  t.cz = h.integer(5, "CZ", 1);
  t.cm = h.integer(6, "CM", 1);
  t.mag1 = h.real(7, "MAG1", 0.0);
  t.mag2 = h.real(8, "MAG2", 0.0);
  t.name = h.text(10, "NAME", "");
  t.status = h.integer(11, "STAT", 1);
  if (t.cw < 1 || t.cw > 3) h.fail(4, "CW", "is " + std::to_string(t.cw) + ", not 1, 2 or 3 → correct the record");
  if (t.cz < 1 || t.cz > 3) h.fail(5, "CZ", "is " + std::to_string(t.cz) + ", not 1, 2 or 3 → correct the record");
  if (t.cm < 1 || t.cm > 2) h.fail(6, "CM", "is " + std::to_string(t.cm) + ", not 1 or 2 → correct the record");
  const FieldReader z(records[1], s.file, lines[1], "transformer record (line 2)");
  t.r12 = z.real(0, "R1-2", 0.0);
  t.x12 = z.real(1, "X1-2");
  t.sbase12 = z.real(2, "SBASE1-2", s.sbase);
  if (t.three_winding()) {
    t.r23 = z.real(3, "R2-3", 0.0);
    t.x23 = z.real(4, "X2-3");
    t.sbase23 = z.real(5, "SBASE2-3", s.sbase);
    t.r31 = z.real(6, "R3-1", 0.0);
    t.x31 = z.real(7, "X3-1");
    t.sbase31 = z.real(8, "SBASE3-1", s.sbase);
    t.vmstar = z.real(9, "VMSTAR", 1.0);
    t.anstar = z.real(10, "ANSTAR", 0.0);
  }
  const std::size_t windings = t.three_winding() ? 3 : 2;
  for (std::size_t w = 0; w < windings; ++w) {
    const FieldReader r(records[2 + w], s.file, lines[2 + w],
                        "transformer record (line " + std::to_string(3 + w) + ", winding " + std::to_string(w + 1) + ")");
    RawWinding& wd = t.w[w];
    wd.windv = r.real(0, "WINDV", kAbsent);
    wd.nomv = r.real(1, "NOMV", 0.0);
    if (w == 1 && !t.three_winding()) break;  // two windings: line 4 is WINDV2, NOMV2
    wd.ang = r.real(2, "ANG", 0.0);
    // v32/33: ANG, RATA, RATB, RATC, COD, CONT, RMA, RMI, VMA, VMI, NTP, TAB, ...
    // v34:    ANG, RATE1..RATE12, COD, CONT, [NOD], RMA, ... (27 fields with NOD, 26 without)
    const std::size_t cod = s.version >= 34 ? 15 : 6;
    const std::size_t shift = s.version >= 34 && r.size() >= 27 ? 1 : 0;
    wd.cod = r.integer(cod, "COD", 0);
    wd.cont = r.integer(cod + 1, "CONT", 0);
    wd.rma = r.real(cod + 2 + shift, "RMA", 1.1);
    wd.rmi = r.real(cod + 3 + shift, "RMI", 0.9);
    wd.ntp = r.integer(cod + 6 + shift, "NTP", 33);
    wd.tab = r.integer(cod + 7 + shift, "TAB", 0);
  }
  t.line = lines[0];
  return t;
}

}  // namespace lsdae::psse::raw
