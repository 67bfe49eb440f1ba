// models/psse/scenarios/con_file.cpp -- see con_file.h.
#include "psse/scenarios/con_file.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <fstream>
#include <optional>
#include <sstream>

#include "lsdae/error.h"

namespace lsdae::psse {

namespace {

[[noreturn]] void refuse(const std::string& message) { throw Error(ErrorKind::usage, message); }

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// Blank-separated tokens; a quoted token ('...' or "...") is one, without its quotes.
std::vector<std::string> tokens(const std::string& line) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (std::isspace(static_cast<unsigned char>(line[i])) != 0 || line[i] == ',')) ++i;
    if (i >= line.size()) break;
    if (line[i] == '\'' || line[i] == '"') {
      const char q = line[i];
      const std::size_t end = line.find(q, i + 1);
      out.push_back(line.substr(i + 1, (end == std::string::npos ? line.size() : end) - i - 1));
      i = end == std::string::npos ? line.size() : end + 1;
    } else {
      std::size_t end = i;
      while (end < line.size() && std::isspace(static_cast<unsigned char>(line[end])) == 0 && line[end] != ',') ++end;
      out.push_back(line.substr(i, end - i));
      i = end;
    }
  }
  return out;
}

std::optional<int> bus_number(const std::string& text) {
  int v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || v <= 0) return std::nullopt;
  return v;
}

bool one_of(const std::string& word, std::initializer_list<const char*> words) {
  return std::any_of(words.begin(), words.end(), [&](const char* w) { return word == w; });
}

struct Block {
  std::string label;
  int line = 0;
  std::vector<ConElement> elements;
  std::vector<std::string> others;  // element lines of other kinds, as written
};

// "FROM BUS i TO BUS j [TO BUS k] [CIRCUIT c]" from t[at]; Error naming the line when malformed.
ConElement branch_element(const std::vector<std::string>& t, std::size_t at, const std::string& where) {
  ConElement c;
  c.kind = ConElement::Kind::branch;
  auto bus_after = [&](std::size_t k, const char* what) {
    if (k + 2 >= t.size() || upper(t[k + 1]) != "BUS")
      refuse(where + ": expected \"" + what + " BUS n\" → write e.g. OPEN BRANCH FROM BUS 1001 TO BUS 1064 CIRCUIT 1");
    const auto n = bus_number(t[k + 2]);
    if (!n) refuse(where + ": bus \"" + t[k + 2] + "\" is not a bus number → write a number, e.g. FROM BUS 1001");
    return *n;
  };
  if (at >= t.size() || upper(t[at]) != "FROM")
    refuse(where + ": expected FROM BUS after the branch keyword → write e.g. OPEN BRANCH FROM BUS 1001 TO BUS 1064 "
                   "CIRCUIT 1");
  c.from = bus_after(at, "FROM");
  at += 3;
  if (at >= t.size() || upper(t[at]) != "TO") refuse(where + ": expected TO BUS n after FROM BUS " + std::to_string(c.from));
  c.to = bus_after(at, "TO");
  at += 3;
  if (at < t.size() && upper(t[at]) == "TO") {
    c.third = bus_after(at, "TO");
    at += 3;
  }
  if (at < t.size()) {
    const std::string k = upper(t[at]);
    if ((k != "CIRCUIT" && k != "CKT") || at + 1 >= t.size())
      refuse(where + ": \"" + t[at] + "\" after the buses → end the line with CIRCUIT c (or CKT c)");
    c.id = t[at + 1];
  }
  return c;
}

}  // namespace

ConFile parse_con(const std::string& text, const std::string& where) {
  ConFile out;
  std::istringstream in(text);
  std::string line;
  int number = 0;
  std::optional<Block> block;
  int unnamed = 0, blocks = 0;
  while (std::getline(in, line)) {
    ++number;
    const std::size_t comment = line.find("/*");
    if (comment != std::string::npos) line.resize(comment);
    const std::vector<std::string> t = tokens(line);
    if (t.empty()) continue;
    const std::string at = where + ":" + std::to_string(number);
    const std::string key = upper(t[0]);
    if (key == "COM") continue;
    if (!block) {
      if (key == "END") break;
      if (key == "CONTINGENCY") {
        ++blocks;
        block = Block{t.size() > 1 ? t[1] : "contingency " + std::to_string(++unnamed), number, {}, {}};
        continue;
      }
      out.skipped.push_back("line " + std::to_string(number) + ": \"" + line + "\" outside a CONTINGENCY block");
      continue;
    }
    if (key == "END") {
      const Block& b = *block;
      const std::string name = b.label + " (line " + std::to_string(b.line) + ")";
      std::size_t machines = 0;
      for (const ConElement& e : b.elements) machines += e.kind == ConElement::Kind::machine ? 1 : 0;
      if (b.elements.empty() && b.others.empty()) out.skipped.push_back(name + ": no element");
      else if (!b.others.empty())
        out.skipped.push_back(name + ": \"" + b.others.front() + "\" (only branch and machine outages are swept)");
      else if (machines > 0 && b.elements.size() > 1)
        out.skipped.push_back(name + ": " + std::to_string(b.elements.size()) +
                              " elements with a machine (a machine outage is swept alone)");
      else out.contingencies.push_back({b.label, b.line, b.elements});
      block.reset();
      continue;
    }
    if (key == "CONTINGENCY") refuse(at + ": CONTINGENCY inside the block of line " + std::to_string(block->line) +
                                     " → end that block with END");
    const std::string what = t.size() > 1 ? upper(t[1]) : "";
    if (one_of(key, {"OPEN", "TRIP", "DISCONNECT"}) && one_of(what, {"BRANCH", "LINE"})) {
      block->elements.push_back(branch_element(t, 2, at));
      block->elements.back().line = number;
    } else if (one_of(key, {"REMOVE", "DISCONNECT", "TRIP"}) && one_of(what, {"MACHINE", "UNIT"})) {
      // REMOVE MACHINE id FROM BUS i
      if (t.size() != 6 || upper(t[3]) != "FROM" || upper(t[4]) != "BUS" || !bus_number(t[5]))
        refuse(at + ": expected \"" + t[0] + " " + t[1] + " id FROM BUS n\" → write e.g. REMOVE MACHINE 1 FROM BUS 1032");
      ConElement c;
      c.kind = ConElement::Kind::machine;
      c.id = t[2];
      c.from = *bus_number(t[5]);
      c.line = number;
      block->elements.push_back(c);
    } else {
      std::string written;
      for (const auto& w : t) written += (written.empty() ? "" : " ") + w;
      block->others.push_back(written);
    }
  }
  if (block) refuse(where + ": the CONTINGENCY block of line " + std::to_string(block->line) +
                    " is not ended → add END after its elements");
  if (blocks == 0)
    refuse(where + ": no CONTINGENCY block → is this a PSS/E .con file?");
  return out;
}

ConFile read_con(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) refuse("--contingencies \"" + path.string() + "\": cannot be read → check the path");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_con(text.str(), path.string());
}

}  // namespace lsdae::psse
