// runtime/import/xml_document.cpp -- see xml_document.h.
#include "import/xml_document.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <limits>

#include "lsdae/error.h"

namespace lsdae::import {

XmlDocument::XmlDocument(std::string_view text, std::string file) : file_(std::move(file)) {
  load(const_cast<char*>(text.data()), text.size(), false);
}

XmlDocument::XmlDocument(std::string&& text, std::string file, InPlace)
    : buffer_(std::move(text)), file_(std::move(file)) {
  load(buffer_.data(), buffer_.size(), true);
}

// `text` is only read unless `parse_in_place` (then it is buffer_, which the
// document keeps: pugixml writes terminators into it and points into it).
void XmlDocument::load(char* text, std::size_t size, bool parse_in_place) {
  line_starts_.push_back(0);
  for (const char* p = text, *end = text + size;
       (p = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)))) != nullptr;)
    line_starts_.push_back(static_cast<std::size_t>(++p - text));
  constexpr unsigned kOptions = pugi::parse_default | pugi::parse_ws_pcdata_single;
  pugi::xml_parse_result result = parse_in_place ? doc_.load_buffer_inplace(text, size, kOptions, pugi::encoding_auto)
                                           : doc_.load_buffer(text, size, kOptions, pugi::encoding_auto);
  if (!result) {
    std::size_t offset = static_cast<std::size_t>(std::max<std::ptrdiff_t>(0, result.offset));
    auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
    std::size_t line = static_cast<std::size_t>(it - line_starts_.begin());
    std::size_t column = offset - line_starts_[line - 1] + 1;
    throw Error(ErrorKind::xml, file_ + ":" + std::to_string(line) + ":" + std::to_string(column) +
                                    ": malformed XML (" + result.description() +
                                    ") → fix the file or re-export the FMU");
  }
  if (doc_.document_element().empty())
    throw Error(ErrorKind::xml, file_ + ":1: the document has no root element → re-export the FMU");
}

int XmlDocument::line_of(const pugi::xml_node& node) const {
  std::ptrdiff_t offset = node.offset_debug();
  if (offset < 0) return 0;
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), static_cast<std::size_t>(offset));
  return static_cast<int>(it - line_starts_.begin());
}

std::string_view local_name(const char* qualified_name) {
  std::string_view name(qualified_name);
  std::size_t colon = name.rfind(':');
  return colon == std::string_view::npos ? name : name.substr(colon + 1);
}

namespace {
// local_name(qualified) == name without measuring `qualified` first: most
// attribute names are unprefixed and differ from `name` in the first letters.
// `name` holds no ':' (find_attribute checks), so a prefix ends after the
// common part.
bool has_local_name(const char* qualified, std::string_view name) {
  std::size_t i = 0;
  while (i < name.size() && qualified[i] == name[i]) ++i;
  if (i == name.size() && qualified[i] == '\0') return true;
  const char* colon = std::strrchr(qualified + i, ':');
  return colon != nullptr && std::string_view(colon + 1) == name;
}
}  // namespace

pugi::xml_attribute find_attribute(const pugi::xml_node& node, std::string_view name) {
  if (name.find(':') != std::string_view::npos) return {};  // no local name holds one
  for (pugi::xml_attribute a = node.first_attribute(); a; a = a.next_attribute())
    if (has_local_name(a.name(), name)) return a;
  return {};
}

std::vector<pugi::xml_node> element_children(const pugi::xml_node& node) {
  std::vector<pugi::xml_node> out;
  for (pugi::xml_node child = node.first_child(); child; child = child.next_sibling())
    if (child.type() == pugi::node_element) out.push_back(child);
  return out;
}

std::optional<double> parse_double(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t' || text.front() == '\n' || text.front() == '\r'))
    text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\n' || text.back() == '\r'))
    text.remove_suffix(1);
  if (text == "INF") return std::numeric_limits<double>::infinity();
  if (text == "-INF") return -std::numeric_limits<double>::infinity();
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<std::int64_t> parse_int64(std::string_view text) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  std::int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<std::uint64_t> parse_uint64(std::string_view text) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  std::uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

namespace {
bool is_ws(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// Calls f(token) for each whitespace-separated token, without allocating.
template <class F>
void for_each_token(std::string_view text, F&& f) {
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && is_ws(text[i])) ++i;
    const std::size_t start = i;
    while (i < text.size() && !is_ws(text[i])) ++i;
    if (i > start) f(text.substr(start, i - start));
  }
}

std::size_t count_tokens(std::string_view text) {
  std::size_t n = 0;
  for_each_token(text, [&](std::string_view) { ++n; });
  return n;
}

std::string clip(const std::string& value) {
  return value.size() <= 60 ? value : value.substr(0, 57) + "...";
}
}  // namespace

void AttributeReader::error(const std::string& message, const std::string& hint) const {
  diagnostics_.error(doc_.file(), line_, message, hint);
}
void AttributeReader::warning(const std::string& message, const std::string& hint) const {
  diagnostics_.warning(doc_.file(), line_, message, hint);
}

void AttributeReader::note(const std::string& message, const std::string& hint) const {
  diagnostics_.note(doc_.file(), line_, message, hint);
}

void AttributeReader::bad_value(std::string_view name, const std::string& value, const char* expected) const {
  error("<" + element() + "> attribute " + std::string(name) + "=\"" + clip(value) + "\" is not " + expected,
        "write " + std::string(expected));
}

AttributeReader::AttributeReader(const XmlDocument& doc, const pugi::xml_node& node, Diagnostics& diagnostics)
    : doc_(doc), node_(node), diagnostics_(diagnostics), line_(doc.line_of(node)) {
  for (pugi::xml_attribute a = node.first_attribute(); a; a = a.next_attribute()) {
    if (listed_count_ == kListed) {
      all_listed_ = false;
      break;
    }
    // local_name() in one pass: the name's end and its last ':' together.
    const char* start = a.name();
    const char* end = start;
    for (; *end != '\0'; ++end)
      if (*end == ':') start = end + 1;
    listed_[listed_count_++] = {start, static_cast<std::size_t>(end - start), a.internal_object()};
  }
}

pugi::xml_attribute AttributeReader::attribute(std::string_view name) const {
  for (std::size_t i = 0; i < listed_count_; ++i) {
    const Listed& l = listed_[i];
    if (l.size == name.size() && (l.size == 0 || (l.local_name[0] == name[0] &&
                                                  std::memcmp(l.local_name, name.data(), l.size) == 0)))
      return pugi::xml_attribute(l.attribute);
  }
  return all_listed_ ? pugi::xml_attribute() : find_attribute(node_, name);
}

std::optional<std::string> AttributeReader::text(std::string_view name) const {
  pugi::xml_attribute a = attribute(name);
  if (a.empty()) return std::nullopt;
  return std::string(a.value());
}

std::string AttributeReader::required_text(std::string_view name) const {
  auto value = text(name);
  if (!value) {
    error("<" + element() + "> lacks the required attribute " + std::string(name), "add it");
    return {};
  }
  return *value;
}

std::optional<std::uint32_t> AttributeReader::uint32(std::string_view name, bool required) const {
  auto value = view(name);
  if (!value) {
    if (required) error("<" + element() + "> lacks the required attribute " + std::string(name), "add it");
    return std::nullopt;
  }
  auto parsed = parse_uint64(*value);
  if (!parsed || *parsed > std::numeric_limits<std::uint32_t>::max()) {
    bad_value(name, std::string(*value), "an unsigned 32-bit integer");
    return std::nullopt;
  }
  return static_cast<std::uint32_t>(*parsed);
}

std::optional<std::uint64_t> AttributeReader::uint64(std::string_view name) const {
  auto value = view(name);
  if (!value) return std::nullopt;
  auto parsed = parse_uint64(*value);
  if (!parsed) bad_value(name, std::string(*value), "an unsigned integer");
  return parsed;
}

std::optional<std::int64_t> AttributeReader::int64(std::string_view name) const {
  auto value = view(name);
  if (!value) return std::nullopt;
  auto parsed = parse_int64(*value);
  if (!parsed) bad_value(name, std::string(*value), "an integer");
  return parsed;
}

std::optional<int> AttributeReader::integer(std::string_view name) const {
  auto value = int64(name);
  if (!value) return std::nullopt;
  if (*value < std::numeric_limits<int>::min() || *value > std::numeric_limits<int>::max()) {
    bad_value(name, std::to_string(*value), "a 32-bit integer");
    return std::nullopt;
  }
  return static_cast<int>(*value);
}

std::optional<double> AttributeReader::real(std::string_view name) const {
  auto value = view(name);
  if (!value) return std::nullopt;
  auto parsed = parse_double(*value);
  if (!parsed) bad_value(name, std::string(*value), "a number");
  return parsed;
}

bool AttributeReader::boolean(std::string_view name, bool fallback) const {
  auto value = view(name);
  if (!value) return fallback;
  if (*value == "true" || *value == "1") return true;
  if (*value == "false" || *value == "0") return false;
  bad_value(name, std::string(*value), "true or false");
  return fallback;
}

std::optional<std::string_view> AttributeReader::view(std::string_view name) const {
  pugi::xml_attribute a = attribute(name);
  if (a.empty()) return std::nullopt;
  return std::string_view(a.value());
}

// Reads the list in place (no copy of the attribute) into a vector sized by a
// first counting pass: 4 bytes per entry, at most twice the attribute's size.
std::optional<std::vector<std::uint32_t>> AttributeReader::uint32_list(std::string_view name) const {
  auto value = view(name);
  if (!value) return std::nullopt;
  std::vector<std::uint32_t> out;
  out.reserve(count_tokens(*value));
  bool bad = false;
  for_each_token(*value, [&](std::string_view token) {
    if (bad) return;
    auto parsed = parse_uint64(token);
    if (!parsed || *parsed > std::numeric_limits<std::uint32_t>::max()) {
      bad_value(name, std::string(token), "a list of value references (unsigned 32-bit integers)");
      bad = true;
      return;
    }
    out.push_back(static_cast<std::uint32_t>(*parsed));
  });
  return out;
}

std::optional<std::vector<std::string>> AttributeReader::token_list(std::string_view name) const {
  auto value = view(name);
  if (!value) return std::nullopt;
  std::vector<std::string> out;
  out.reserve(count_tokens(*value));
  for_each_token(*value, [&](std::string_view token) { out.emplace_back(token); });
  return out;
}

std::optional<std::size_t> AttributeReader::tokens(std::string_view name,
                                                   const std::function<void(std::string_view)>& f) const {
  auto value = view(name);
  if (!value) return std::nullopt;
  std::size_t n = 0;
  for_each_token(*value, [&](std::string_view token) {
    ++n;
    f(token);
  });
  return n;
}

std::optional<std::size_t> AttributeReader::token_count(std::string_view name) const {
  auto value = view(name);
  if (!value) return std::nullopt;
  return count_tokens(*value);
}

}  // namespace lsdae::import
