// runtime/import/xml_document.h -- pugixml documents with line numbers and
// namespace-blind, diagnosing attribute access.
//
// FMI XML is matched by local name: `fmi-ls:fmi-ls-name` and `fmi-ls-name`
// are the same attribute, `<dae:Residual>` and `<Residual>` the same element.
// Syntax errors throw lsdae::Error(xml) with file, line and column; the
// attribute readers below add a Diagnostic (file:line, element, attribute,
// value seen) for every malformed value and keep going, so one run of
// `lsdae validate` reports every problem. pugixml does not expand DTD entities
// (no "billion laughs"); the caller caps the document size.
//
// A document given as a std::string it may keep (`XmlDocument::in_place`) is
// parsed in that buffer (pugixml's load_buffer_inplace): no copy of a
// modelDescription.xml of tens of megabytes, and the attribute views point
// into the kept buffer.
#ifndef LSDAE_RUNTIME_IMPORT_XML_DOCUMENT_H
#define LSDAE_RUNTIME_IMPORT_XML_DOCUMENT_H

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <pugixml.hpp>

#include "lsdae/diagnostics.h"

namespace lsdae::import {

class XmlDocument {
 public:
  // `file` is the path inside the FMU used in messages ("modelDescription.xml").
  // Throws lsdae::Error(xml): "<file>:<line>:<column>: <reason> → <what to do>".
  XmlDocument(std::string_view text, std::string file);
  // Takes `text` and parses it in place (see above); same errors.
  struct InPlace {};
  static constexpr InPlace in_place{};
  XmlDocument(std::string&& text, std::string file, InPlace);

  pugi::xml_node root() const { return doc_.document_element(); }
  int line_of(const pugi::xml_node& node) const;
  const std::string& file() const { return file_; }

 private:
  void load(char* text, std::size_t size, bool parse_in_place);
  pugi::xml_document doc_;
  std::string buffer_;  // the text parsed in place (empty for a copied one)
  std::string file_;
  std::vector<std::size_t> line_starts_;
};

std::string_view local_name(const char* qualified_name);
// The attribute whose local name is `name` (the first one), or an empty attribute.
pugi::xml_attribute find_attribute(const pugi::xml_node& node, std::string_view name);
// Element children in document order, comments and text skipped.
std::vector<pugi::xml_node> element_children(const pugi::xml_node& node);

// Reads typed attributes of one element and reports malformed values. The
// element's attributes are listed once, by local name, when the reader is
// made (up to kListed of them; an element with more is searched as
// find_attribute does): a variable's dozen look-ups then compare short
// names, not every attribute's qualified name each time.
class AttributeReader {
 public:
  AttributeReader(const XmlDocument& doc, const pugi::xml_node& node, Diagnostics& diagnostics);

  int line() const { return line_; }
  bool has(std::string_view name) const { return !attribute(name).empty(); }
  // The attribute whose local name is `name` (the first one), or an empty attribute.
  pugi::xml_attribute attribute(std::string_view name) const;
  std::optional<std::string> text(std::string_view name) const;
  // The value without a copy; the view lives as long as the document.
  std::optional<std::string_view> view(std::string_view name) const;
  // Reports a missing required attribute.
  std::string required_text(std::string_view name) const;
  std::optional<std::uint32_t> uint32(std::string_view name, bool required = false) const;
  std::optional<std::uint64_t> uint64(std::string_view name) const;
  std::optional<std::int64_t> int64(std::string_view name) const;
  std::optional<double> real(std::string_view name) const;
  std::optional<int> integer(std::string_view name) const;
  bool boolean(std::string_view name, bool fallback) const;
  // A space-separated list of value references; nullopt when absent. Read in
  // place, sized exactly: memory 4 bytes per entry.
  std::optional<std::vector<std::uint32_t>> uint32_list(std::string_view name) const;
  std::optional<std::vector<std::string>> token_list(std::string_view name) const;
  // Calls f for each whitespace-separated token of the attribute, in place
  // (the views live as long as the document); returns the count, nullopt
  // when the attribute is absent. For long lists that need no copy.
  std::optional<std::size_t> tokens(std::string_view name, const std::function<void(std::string_view)>& f) const;
  std::optional<std::size_t> token_count(std::string_view name) const;

  void error(const std::string& message, const std::string& hint = {}) const;
  void warning(const std::string& message, const std::string& hint = {}) const;
  void note(const std::string& message, const std::string& hint = {}) const;
  std::string element() const { return std::string(local_name(node_.name())); }

 private:
  void bad_value(std::string_view name, const std::string& value, const char* expected) const;
  const XmlDocument& doc_;
  pugi::xml_node node_;
  Diagnostics& diagnostics_;
  int line_;
  static constexpr std::size_t kListed = 24;
  // Left uninitialised: only the first listed_count_ entries are written and
  // read (a reader is made per element, 10^5 times for a large model).
  struct Listed {
    const char* local_name;
    std::size_t size;
    pugi::xml_attribute_struct* attribute;
  };
  Listed listed_[kListed];
  std::size_t listed_count_ = 0;
  bool all_listed_ = true;
};

// Number parsing shared with the CLI (`--set`): the whole string must be consumed.
std::optional<double> parse_double(std::string_view text);
std::optional<std::int64_t> parse_int64(std::string_view text);
std::optional<std::uint64_t> parse_uint64(std::string_view text);

}  // namespace lsdae::import

#endif  // LSDAE_RUNTIME_IMPORT_XML_DOCUMENT_H
