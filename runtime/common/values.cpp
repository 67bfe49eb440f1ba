// runtime/common/values.cpp -- see lsdae/values.h.
#include "lsdae/values.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>

#include "lsdae/error.h"

namespace lsdae {

ValueStorage storage_of(VariableType type) noexcept {
  switch (type) {
    case VariableType::float32:
    case VariableType::float64: return ValueStorage::real;
    case VariableType::uint64: return ValueStorage::unsigned_integer;
    case VariableType::string:
    case VariableType::binary: return ValueStorage::text;
    default: return ValueStorage::integer;
  }
}

std::size_t Values::size() const {
  switch (storage_of(type)) {
    case ValueStorage::real: return reals.size();
    case ValueStorage::integer: return integers.size();
    case ValueStorage::unsigned_integer: return unsigned_integers.size();
    case ValueStorage::text: return texts.size();
  }
  return 0;
}

void Values::resize(std::size_t n) {
  switch (storage_of(type)) {
    case ValueStorage::real: reals.resize(n); break;
    case ValueStorage::integer: integers.resize(n); break;
    case ValueStorage::unsigned_integer: unsigned_integers.resize(n); break;
    case ValueStorage::text: texts.resize(n); break;
  }
}

void append_values(Values& to, const Values& from) {
  to.reals.insert(to.reals.end(), from.reals.begin(), from.reals.end());
  to.integers.insert(to.integers.end(), from.integers.begin(), from.integers.end());
  to.unsigned_integers.insert(to.unsigned_integers.end(), from.unsigned_integers.begin(), from.unsigned_integers.end());
  to.texts.insert(to.texts.end(), from.texts.begin(), from.texts.end());
}

std::string Values::text(std::size_t k) const {
  char buffer[64];
  std::to_chars_result r{};
  switch (storage_of(type)) {
    case ValueStorage::real:
      r = type == VariableType::float32 ? std::to_chars(buffer, buffer + sizeof buffer, static_cast<float>(reals[k]))
                                        : std::to_chars(buffer, buffer + sizeof buffer, reals[k]);
      break;
    case ValueStorage::integer: r = std::to_chars(buffer, buffer + sizeof buffer, integers[k]); break;
    case ValueStorage::unsigned_integer: r = std::to_chars(buffer, buffer + sizeof buffer, unsigned_integers[k]); break;
    case ValueStorage::text: return texts[k];
  }
  return std::string(buffer, r.ptr);
}

double Values::number(std::size_t k) const {
  switch (storage_of(type)) {
    case ValueStorage::real: return reals[k];
    case ValueStorage::integer: return static_cast<double>(integers[k]);
    case ValueStorage::unsigned_integer: return static_cast<double>(unsigned_integers[k]);
    case ValueStorage::text: break;
  }
  return std::nan("");
}

namespace {

struct Range {
  std::int64_t min, max;
};

Range integer_range(VariableType type) {
  switch (type) {
    case VariableType::int8: return {INT8_MIN, INT8_MAX};
    case VariableType::uint8: return {0, UINT8_MAX};
    case VariableType::int16: return {INT16_MIN, INT16_MAX};
    case VariableType::uint16: return {0, UINT16_MAX};
    case VariableType::int32: return {INT32_MIN, INT32_MAX};
    case VariableType::uint32: return {0, UINT32_MAX};
    case VariableType::boolean: return {0, 1};
    default: return {INT64_MIN, INT64_MAX};
  }
}

[[noreturn]] void refuse(const Variable& v, const std::string& text, const std::string& why, const std::string& todo) {
  throw Error(ErrorKind::usage, "\"" + v.name + "\" (" + to_string(v.type) + "): \"" + text + "\" " + why + " → " + todo);
}

// A decimal floating-point number, all of `text`, finite and in range.
// Accepted: what strtod reads as decimal ("1", "-2.5", "1e-3", ".5"); not
// hexadecimal, nan, inf, or surrounding text.
double parse_real(const Variable& v, const std::string& text) {
  const char* todo = "give a decimal number such as 0.25 or 1e-3";
  if (text.empty()) refuse(v, text, "is empty", todo);
  for (char c : text)
    if (!((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'))
      refuse(v, text, "is not a decimal number", todo);
  errno = 0;
  char* end = nullptr;
  double x = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0') refuse(v, text, "is not a decimal number", todo);
  if (errno == ERANGE && std::fabs(x) > 1.0) refuse(v, text, "is out of the range of a double", todo);
  if (!std::isfinite(x)) refuse(v, text, "is not finite", todo);
  if (v.type == VariableType::float32 && std::fabs(x) > static_cast<double>(std::numeric_limits<float>::max()))
    refuse(v, text, "is out of the range of a Float32", "give a value below 3.4e38 in magnitude");
  return v.type == VariableType::float32 ? static_cast<double>(static_cast<float>(x)) : x;
}

template <typename T>
bool parse_decimal(const std::string& text, T& out) {
  const char* first = text.data();
  const char* last = text.data() + text.size();
  if (first != last && *first == '+') ++first;  // from_chars refuses a leading '+'
  auto [ptr, ec] = std::from_chars(first, last, out, 10);
  return ec == std::errc() && ptr == last && first != last;
}

void parse_scalar(const Variable& v, const ModelDescription& md, const std::string& text, Values& out) {
  switch (v.type) {
    case VariableType::float32:
    case VariableType::float64: out.reals.push_back(parse_real(v, text)); return;
    case VariableType::boolean:
      if (text == "true" || text == "1") out.integers.push_back(1);
      else if (text == "false" || text == "0") out.integers.push_back(0);
      else refuse(v, text, "is not a Boolean", "give true, false, 1 or 0");
      return;
    case VariableType::uint64: {
      std::uint64_t x = 0;
      if (!parse_decimal(text, x))
        refuse(v, text, "is not an integer from 0 to 18446744073709551615", "give a decimal integer in that range");
      out.unsigned_integers.push_back(x);
      return;
    }
    case VariableType::enumeration: {
      const TypeDefinition* type = nullptr;
      for (const auto& t : md.types)
        if (t.name == v.declared_type) type = &t;
      if (type != nullptr)
        for (const auto& [name, value] : type->items)
          if (name == text) {
            out.integers.push_back(value);
            return;
          }
      std::int64_t x = 0;
      if (parse_decimal(text, x)) {
        bool known = type == nullptr || type->items.empty();
        if (type != nullptr)
          for (const auto& item : type->items) known = known || item.second == x;
        if (known) {
          out.integers.push_back(x);
          return;
        }
      }
      std::string items;
      if (type != nullptr)
        for (const auto& [name, value] : type->items) items += (items.empty() ? "" : ", ") + name + "=" + std::to_string(value);
      refuse(v, text, "is not an item of its enumeration", items.empty() ? "give an item's integer value" : "give one of " + items);
    }
    case VariableType::string: out.texts.push_back(text); return;
    case VariableType::binary: {
      bool hex = text.size() % 2 == 0;
      for (char c : text) hex = hex && std::isxdigit(static_cast<unsigned char>(c));
      if (!hex) refuse(v, text, "is not hexadecimal bytes", "give an even number of hex digits, e.g. 666f6f");
      std::string lower;
      for (char c : text) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      out.texts.push_back(lower);
      return;
    }
    case VariableType::clock: refuse(v, text, "is a Clock", "clocks are not set by value");
    default: {
      const Range range = integer_range(v.type);
      std::int64_t x = 0;
      if (!parse_decimal(text, x) || x < range.min || x > range.max)
        refuse(v, text,
               "is not an integer from " + std::to_string(range.min) + " to " + std::to_string(range.max),
               "give a decimal integer in that range");
      out.integers.push_back(x);
      return;
    }
  }
}

std::vector<std::string> split_elements(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string word;
  while (in >> word) out.push_back(word);
  return out;
}

}  // namespace

Values parse_element_value(const Variable& variable, const ModelDescription& md, const std::string& text) {
  Values out(variable.type);
  parse_scalar(variable, md, text, out);
  return out;
}

Values parse_value(const Variable& variable, const ModelDescription& md, const std::string& text) {
  Values out(variable.type);
  if (!variable.is_array()) {
    parse_scalar(variable, md, text, out);
    return out;
  }
  if (variable.type == VariableType::string)
    refuse(variable, text, "is a String array", "set its elements one at a time: name[i]=text");
  const std::vector<std::string> words = split_elements(text);
  const std::size_t n = variable.element_count();
  if (words.size() != n)
    refuse(variable, text,
           "has " + std::to_string(words.size()) + " value" + (words.size() == 1 ? "" : "s") + " for an array of " +
               std::to_string(n) + " elements",
           "give all " + std::to_string(n) + " values separated by spaces, or set one element: " +
               element_name(variable, 0) + "=value");
  for (const auto& w : words) parse_scalar(variable, md, w, out);
  return out;
}

Values start_values(const Variable& variable, const ModelDescription& md) {
  const std::size_t n = variable.element_count();
  if (variable.start_text && !(variable.type == VariableType::string && n > 1)) {
    if (variable.type == VariableType::string) {
      Values out(variable.type);
      out.texts.push_back(*variable.start_text);  // <Start value="..."/> of a scalar
      return out;
    }
    try {
      return parse_value(variable, md, *variable.start_text);
    } catch (const Error& e) {
      throw Error(ErrorKind::usage, std::string("the start value of ") + e.what() +
                                        " (needed to set single elements) → set the whole array");
    }
  }
  Values out(variable.type);
  out.resize(n);
  return out;
}

}  // namespace lsdae
