// models/kit/layout.cpp -- see layout.h, and Description::external_vr.
#include "kit/layout.h"

#include <algorithm>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace lsdae::kit {

namespace {

// external = vr * kFactor + kOffset (mod 2^32): a bijection of the 32-bit
// value references (kFactor is odd), so no two variables collide, and its
// images of 0, 1, 2, ... are large, far apart and in no particular order.
constexpr std::uint32_t kFactor = 2654435761u;  // Knuth's multiplicative hash constant
constexpr std::uint32_t kOffset = 7777777u;
constexpr std::uint32_t inverse_of(std::uint32_t a) {
  std::uint32_t x = a;  // Newton's iteration for 1/a mod 2^32: each step doubles the correct bits
  for (int i = 0; i < 5; ++i) x *= 2u - a * x;
  return x;
}
constexpr std::uint32_t kInverse = inverse_of(kFactor);
static_assert(kFactor * kInverse == 1u);

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& line : lines) out += line + "\n";
  return out;
}

bool trimmed_starts_with(const std::string& line, const std::string& prefix) {
  const auto first = line.find_first_not_of(' ');
  return first != std::string::npos && line.compare(first, prefix.size(), prefix) == 0;
}

// Rewrites the numbers of ` <attribute>="..."` (a space-separated list) with `map`.
std::string renumber_attribute(const std::string& text, const std::string& attribute, const Description& d) {
  const std::string key = " " + attribute + "=\"";
  std::string out;
  std::size_t at = 0;
  while (true) {
    const std::size_t found = text.find(key, at);
    if (found == std::string::npos) break;
    const std::size_t begin = found + key.size();
    const std::size_t end = text.find('"', begin);
    if (end == std::string::npos) throw std::invalid_argument("layout: unterminated " + attribute + " attribute");
    out.append(text, at, begin - at);
    std::istringstream numbers(text.substr(begin, end - begin));
    std::string list;
    unsigned long long vr = 0;
    while (numbers >> vr) {
      if (vr >= d.variables.size())
        throw std::invalid_argument("layout: " + attribute + " names value reference " + std::to_string(vr) +
                                    ", which the description does not have");
      list += (list.empty() ? "" : " ") + std::to_string(d.external_vr(static_cast<ValueRef>(vr)));
    }
    out += list;
    at = end;
  }
  out.append(text, at, std::string::npos);
  return out;
}

std::string renumber(const Description& d, const std::string& xml) {
  if (!d.scattered_value_references) return xml;
  std::string out = xml;
  for (const char* attribute : {"valueReference", "derivative", "dependencies", "clocks", "previous"})
    out = renumber_attribute(out, attribute, d);
  return out;
}

}  // namespace

ValueRef Description::external_vr(ValueRef vr) const {
  return scattered_value_references ? vr * kFactor + kOffset : vr;
}

ValueRef Description::internal_vr(ValueRef external) const {
  const ValueRef vr = scattered_value_references ? (external - kOffset) * kInverse : external;
  return vr < variables.size() ? vr : kNoValueRef;
}

std::string apply_layout_to_model_description(const Description& d, const std::string& xml) {
  std::vector<std::string> lines = lines_of(xml);
  if (d.config.get_string("variable_order", "declared") == "reversed") {
    auto open = std::find_if(lines.begin(), lines.end(), [](const std::string& l) { return trimmed_starts_with(l, "<ModelVariables>"); });
    auto close = std::find_if(lines.begin(), lines.end(), [](const std::string& l) { return trimmed_starts_with(l, "</ModelVariables>"); });
    if (open == lines.end() || close == lines.end() || close < open)
      throw std::invalid_argument("layout: modelDescription.xml has no <ModelVariables> block");
    std::reverse(open + 1, close);
  }
  return renumber(d, joined(lines));
}

std::string apply_layout_to_manifest(const Description& d, const std::string& xml) {
  std::vector<std::string> lines = lines_of(xml);
  if (d.config.get_string("manifest_outputs", "first") == "last") {
    std::vector<std::string> outputs, rest;
    for (auto& line : lines) (trimmed_starts_with(line, "<Output ") ? outputs : rest).push_back(line);
    auto close = std::find_if(rest.begin(), rest.end(), [](const std::string& l) { return trimmed_starts_with(l, "</ModelStructure>"); });
    if (close == rest.end()) throw std::invalid_argument("layout: the manifest has no </ModelStructure>");
    rest.insert(close, outputs.begin(), outputs.end());
    lines = rest;
  }
  return renumber(d, joined(lines));
}

}  // namespace lsdae::kit
