// models/psse/io/raw_reader.cpp -- see raw_reader.h.
#include "psse/io/raw_reader.h"

#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <unordered_map>

#include "psse/io/psse_text.h"
#include "psse/io/raw_records.h"

namespace lsdae::psse {

namespace {

enum class Section {
  bus, load, fixed_shunt, generator, branch, switching_device, transformer, area, two_terminal_dc, vsc_dc,
  impedance_correction, multi_terminal_dc, multi_section_line, zone, inter_area, owner, facts, switched_shunt, gne,
  induction_machine, substation
};

struct SectionInfo {
  Section section;
  const char* name;
  bool needed_by_network;  // skipped records of this kind change the network: say NOT MODELLED
};

std::vector<SectionInfo> sections_of(int version) {
  std::vector<SectionInfo> s = {
      {Section::bus, "bus", true}, {Section::load, "load", true}, {Section::fixed_shunt, "fixed shunt", true},
      {Section::generator, "generator", true}, {Section::branch, "branch", true}};
  if (version >= 34) s.push_back({Section::switching_device, "system switching device", true});
  s.insert(s.end(), {{Section::transformer, "transformer", true},
                     {Section::area, "area", false},
                     {Section::two_terminal_dc, "two-terminal dc line", true},
                     {Section::vsc_dc, "VSC dc line", true},
                     {Section::impedance_correction, "transformer impedance correction", true},
                     {Section::multi_terminal_dc, "multi-terminal dc line", true},
                     {Section::multi_section_line, "multi-section line grouping", false},
                     {Section::zone, "zone", false},
                     {Section::inter_area, "inter-area transfer", false},
                     {Section::owner, "owner", false},
                     {Section::facts, "FACTS device", true},
                     {Section::switched_shunt, "switched shunt", true},
                     {Section::gne, "GNE device", true}});
  if (version >= 33) s.push_back({Section::induction_machine, "induction machine", true});
  if (version >= 34) s.push_back({Section::substation, "substation", false});
  return s;
}

struct Line {
  std::string text;
  int number;
};

class Cursor {
 public:
  explicit Cursor(std::string_view text) {
    int number = 0;
    std::size_t start = 0;
    while (start <= text.size()) {
      std::size_t end = text.find('\n', start);
      if (end == std::string_view::npos) end = text.size();
      std::string line(text.substr(start, end - start));
      if (!line.empty() && line.back() == '\r') line.pop_back();
      lines_.push_back({std::move(line), ++number});
      if (end == text.size()) break;
      start = end + 1;
    }
    // A final line break ends the last line; it does not start another.
    if (lines_.size() > 1 && lines_.back().text.empty()) lines_.pop_back();
  }
  bool at_end() const { return pos_ >= lines_.size(); }
  const Line& next() { return lines_[pos_++]; }
  int last_number() const { return lines_.empty() ? 0 : lines_.back().number; }

 private:
  std::vector<Line> lines_;
  std::size_t pos_ = 0;
};

bool is_column_header(const std::string& line) {
  const auto p = line.find_first_not_of(" \t");
  return p != std::string::npos && line.compare(p, 2, "@!") == 0;
}

bool is_blank(const std::string& line) { return line.find_first_not_of(" \t") == std::string::npos; }

bool is_terminator(const SplitLine& s) {
  return s.fields.size() == 1 && !s.fields[0].quoted && s.fields[0].text == "0";
}

bool is_end_of_data(const SplitLine& s) {
  return s.fields.size() == 1 && !s.fields[0].quoted && (s.fields[0].text == "Q" || s.fields[0].text == "q");
}

std::string plural(std::size_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

void read_header(Cursor& c, RawCase& rc, int forced) {
  if (c.at_end()) throw TextError(rc.path + ":1: the file is empty → give a PSS/E raw data file");
  const Line& first = c.next();
  const FieldReader h(split_fields(first.text).fields, rc.path, first.number, "case identification record");
  rc.ic = h.integer(0, "IC", 0);
  rc.sbase = h.real(1, "SBASE", 100.0);
  if (!(rc.sbase > 0.0)) h.fail(1, "SBASE", "is not positive → give the system base in MVA");
  const int rev = h.present(2) ? h.integer(2, "REV") : 0;
  rc.frequency = h.real(5, "BASFRQ", 0.0);
  if (rc.frequency == 0.0) rc.frequency = 60.0;
  if (!(rc.frequency > 0.0)) h.fail(5, "BASFRQ", "is negative → give the base frequency in Hz");
  rc.version = forced != 0 ? forced : rev;
  if (rc.version < 32 || rc.version > 34)
    h.fail(2, "REV", std::string("is ") + (h.present(2) ? std::to_string(rev) : "missing") +
                         "; lsdae reads versions 32, 33 and 34 → convert the case with PSS/E (rawd), or force a "
                         "version (raw_version=33) if the layout is that of a supported one");
  if (rc.ic != 0)
    rc.notes.push_back("IC = " + std::to_string(rc.ic) + ": the file says it is a change case; read as a base case");
  for (int k = 0; k < 2 && !c.at_end(); ++k) rc.title[static_cast<std::size_t>(k)] = trim(c.next().text);
}

// v34 system-wide data: GENERAL's THRSHZ and PQBRAK are used, the rest noted.
void read_system_wide(Cursor& c, RawCase& rc) {
  std::set<std::string> kinds;
  while (true) {
    if (c.at_end())
      throw TextError(rc.path + ":" + std::to_string(c.last_number()) +
                      ": end of file inside the system-wide data → end it with a line 0");
    const Line& l = c.next();
    if (is_column_header(l.text) || is_blank(l.text)) continue;
    const SplitLine s = split_fields(l.text);
    if (is_terminator(s)) break;
    if (s.fields.empty()) continue;
    const std::string kind = trim(s.fields[0].text);
    kinds.insert(kind);
    if (kind != "GENERAL") continue;
    for (std::size_t i = 1; i < s.fields.size(); ++i) {
      const std::string& f = s.fields[i].text;
      const auto eq = f.find('=');
      if (eq == std::string::npos) continue;
      const std::string key = trim(f.substr(0, eq));
      const auto value = parse_real(trim(f.substr(eq + 1)));
      if (!value)
        throw TextError(rc.path + ":" + std::to_string(l.number) + ": system-wide GENERAL record: " + key + " = \"" +
                        f.substr(eq + 1) + "\" is not a number → correct the record");
      if (key == "THRSHZ") rc.thrshz = *value;
      if (key == "PQBRAK") rc.pqbrak = *value;
    }
  }
  std::string list;
  for (const auto& k : kinds) list += (list.empty() ? "" : ", ") + k;
  rc.notes.push_back("system-wide data: " + (list.empty() ? std::string("none") : list) +
                     " (THRSHZ = " + std::to_string(rc.thrshz) + ", PQBRAK = " + std::to_string(rc.pqbrak) +
                     " used; the solution options are not)");
}

void check_buses(const RawCase& rc) {
  std::unordered_map<int, int> line_of;
  for (const RawBus& b : rc.buses) {
    auto [it, fresh] = line_of.emplace(b.number, b.line);
    if (!fresh)
      throw TextError(rc.path + ":" + std::to_string(b.line) + ": bus record: field 1 (I) = " +
                      std::to_string(b.number) + " is already defined at line " + std::to_string(it->second) +
                      " → give each bus its own number");
  }
  auto need = [&](int bus, int line, const char* what, const char* field) {
    if (line_of.count(bus) == 0)
      throw TextError(rc.path + ":" + std::to_string(line) + ": " + what + ": " + field + " = " + std::to_string(bus) +
                      " is not a bus of the case → add the bus record or correct the number");
  };
  for (const auto& l : rc.loads) need(l.bus, l.line, "load record", "I");
  for (const auto& f : rc.fixed_shunts) need(f.bus, f.line, "fixed shunt record", "I");
  for (const auto& g : rc.generators) need(g.bus, g.line, "generator record", "I");
  for (const auto& b : rc.branches) {
    need(b.from, b.line, b.switching_device ? "system switching device record" : "branch record", "I");
    need(b.to, b.line, b.switching_device ? "system switching device record" : "branch record", "J");
  }
  for (const auto& t : rc.transformers) {
    need(t.i, t.line, "transformer record", "I");
    need(t.j, t.line, "transformer record", "J");
    if (t.three_winding()) need(t.k, t.line, "transformer record", "K");
  }
  for (const auto& w : rc.switched_shunts) need(w.bus, w.line, "switched shunt record", "I");
}

}  // namespace

RawCase parse_raw(std::string_view text, const std::string& path, int version) {
  RawCase rc;
  rc.path = path;
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
    throw TextError(path + ":1: the file is empty → give a PSS/E raw data file");
  Cursor c(text);
  read_header(c, rc, version);
  if (rc.version >= 34) read_system_wide(c, rc);
  bool data_ended = false;
  for (const SectionInfo& info : sections_of(rc.version)) {
    if (data_ended) {
      rc.notes.push_back(std::string(info.name) + " data: not in the file (it ends with Q before)");
      continue;
    }
    std::vector<std::string> header;
    std::size_t records = 0;
    int start_line = 0;
    while (true) {
      if (c.at_end())
        throw TextError(path + ":" + std::to_string(c.last_number()) + ": end of file inside the " + info.name +
                        " data → end each section with a line 0 and the data with Q");
      const Line& l = c.next();
      if (is_column_header(l.text)) {
        header = raw::parse_column_header(l.text);
        continue;
      }
      if (is_blank(l.text)) continue;
      SplitLine s = split_fields(l.text);
      if (s.unterminated)
        throw TextError(path + ":" + std::to_string(l.number) + ": " + info.name +
                        " data: a quote is not closed → close the quoted name");
      if (is_end_of_data(s)) {
        data_ended = true;
        break;
      }
      if (is_terminator(s)) break;
      const raw::Source src{path, rc.version, rc.sbase, header};
      if (records++ == 0) start_line = l.number;
      switch (info.section) {
        case Section::bus: rc.buses.push_back(raw::bus(src, std::move(s.fields), l.number)); break;
        case Section::load: rc.loads.push_back(raw::load(src, std::move(s.fields), l.number)); break;
        case Section::fixed_shunt: rc.fixed_shunts.push_back(raw::fixed_shunt(src, std::move(s.fields), l.number)); break;
        case Section::generator: rc.generators.push_back(raw::generator(src, std::move(s.fields), l.number)); break;
        case Section::branch: rc.branches.push_back(raw::branch(src, std::move(s.fields), l.number)); break;
        case Section::switching_device:
          rc.branches.push_back(raw::switching_device(src, std::move(s.fields), l.number));
          break;
        case Section::switched_shunt:
          rc.switched_shunts.push_back(raw::switched_shunt(src, std::move(s.fields), l.number));
          break;
        case Section::impedance_correction: {
          std::vector<Field> fields = std::move(s.fields);
          bool last = rc.version < 34 || raw::ends_impedance_correction(fields);
          while (!last) {
            if (c.at_end())
              throw TextError(path + ":" + std::to_string(l.number) +
                              ": impedance correction table: no end point (0.0, 0.0, 0.0) before the end of the file → "
                              "end the table with it");
            const Line& more = c.next();
            if (is_column_header(more.text)) continue;
            std::vector<Field> next = split_fields(more.text).fields;
            last = raw::ends_impedance_correction(next);
            for (Field& f : next) fields.push_back(std::move(f));
          }
          rc.impedance_corrections.push_back(raw::impedance_correction(src, std::move(fields), l.number));
          break;
        }
        case Section::transformer: {
          const FieldReader first(s.fields, path, l.number, "transformer record (line 1)");
          const int k = first.integer(2, "K", 0);
          const std::size_t n = k == 0 ? 4 : 5;
          std::vector<std::vector<Field>> rec{std::move(s.fields)};
          std::vector<int> lines{l.number};
          while (rec.size() < n) {
            if (c.at_end())
              throw TextError(path + ":" + std::to_string(l.number) + ": transformer record: " +
                              std::to_string(rec.size()) + " of its " + std::to_string(n) +
                              " lines before the end of the file → complete the record");
            const Line& more = c.next();
            if (is_column_header(more.text)) continue;
            rec.push_back(split_fields(more.text).fields);
            lines.push_back(more.number);
          }
          rc.transformers.push_back(raw::transformer(src, rec, lines));
          break;
        }
        default: break;  // skipped: counted (lines of multi-line records count each)
      }
    }
    const bool parsed = info.section == Section::bus || info.section == Section::load ||
                        info.section == Section::fixed_shunt || info.section == Section::generator ||
                        info.section == Section::branch || info.section == Section::switching_device ||
                        info.section == Section::transformer || info.section == Section::switched_shunt ||
                        info.section == Section::impedance_correction;
    if (!parsed && records > 0)
      rc.notes.push_back(std::string(info.name) + " data: " + plural(records, "line") + " from line " +
                         std::to_string(start_line) +
                         (info.needed_by_network ? " skipped: NOT MODELLED, the network lacks them"
                                                 : " skipped (not needed by the dynamic simulation)"));
  }
  // After the last section: Q (anything after it is not data).
  while (!data_ended && !c.at_end()) {
    const Line& l = c.next();
    if (is_blank(l.text) || is_column_header(l.text)) continue;
    const SplitLine s = split_fields(l.text);
    if (is_end_of_data(s)) data_ended = true;
    else
      rc.notes.push_back("line " + std::to_string(l.number) + " after the last section (" +
                         std::to_string(sections_of(rc.version).size()) + " sections in version " +
                         std::to_string(rc.version) + ") is not Q: ignored");
    break;
  }
  if (!data_ended) rc.notes.push_back("the data does not end with Q; read up to the last section");
  check_buses(rc);
  return rc;
}

RawCase read_raw(const std::string& path, int version) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw TextError(path + ": cannot be read → check the path");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_raw(text.str(), path, version);
}

}  // namespace lsdae::psse
