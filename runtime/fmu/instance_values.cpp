// runtime/fmu/instance_values.cpp -- the typed-value plumbing every
// lsdae::Instance shares (lsdae/instance.h): get_values / set_values of a
// Values vector of any variable type, and set_scalar, built on the virtual
// typed getters and setters (an implementation that lacks a type throws
// there, instance.cpp). A value of a narrower FMI type travels through a
// buffer of that type (narrowed / widened by static_cast); Binary values
// are carried as hexadecimal text. Cost: one typed call and O(n) copies.
#include <cmath>
#include <limits>
#include <memory>
#include <type_traits>
#include <vector>

#include "lsdae/error.h"
#include "lsdae/instance.h"

namespace lsdae {

namespace {
// Narrow/widen between a Values vector and the FMI type's own array.
template <typename T, typename From>
std::vector<T> narrowed(const std::vector<From>& from) {
  return std::vector<T>(from.begin(), from.end());
}
std::string to_hex(const std::vector<std::uint8_t>& bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (std::uint8_t b : bytes) {
    out += digits[b >> 4];
    out += digits[b & 15];
  }
  return out;
}
std::vector<std::uint8_t> from_hex(const std::string& text) {
  std::vector<std::uint8_t> out;
  for (std::size_t k = 0; k + 1 < text.size(); k += 2)
    out.push_back(static_cast<std::uint8_t>(std::stoul(text.substr(k, 2), nullptr, 16)));
  return out;
}
}  // namespace

CallStatus Instance::get_values(std::span<const ValueReference> vrs, Values& values) {
  const std::size_t n = element_count(vrs);
  values.resize(n);
  auto via = [&](auto getter, auto& buffer, auto& into) {
    CallStatus s = (this->*getter)(vrs, std::span(buffer));
    for (std::size_t k = 0; k < n; ++k) into[k] = static_cast<std::remove_reference_t<decltype(into[0])>>(buffer[k]);
    return s;
  };
  switch (values.type) {
    case VariableType::float64: return get_float64(vrs, values.reals);
    case VariableType::float32: { std::vector<float> b(n); return via(&Instance::get_float32, b, values.reals); }
    case VariableType::int8: { std::vector<std::int8_t> b(n); return via(&Instance::get_int8, b, values.integers); }
    case VariableType::uint8: { std::vector<std::uint8_t> b(n); return via(&Instance::get_uint8, b, values.integers); }
    case VariableType::int16: { std::vector<std::int16_t> b(n); return via(&Instance::get_int16, b, values.integers); }
    case VariableType::uint16: { std::vector<std::uint16_t> b(n); return via(&Instance::get_uint16, b, values.integers); }
    case VariableType::int32: { std::vector<std::int32_t> b(n); return via(&Instance::get_int32, b, values.integers); }
    case VariableType::uint32: { std::vector<std::uint32_t> b(n); return via(&Instance::get_uint32, b, values.integers); }
    case VariableType::int64: return get_int64(vrs, values.integers);
    case VariableType::enumeration: return get_enumeration(vrs, values.integers);
    case VariableType::uint64: return get_uint64(vrs, values.unsigned_integers);
    case VariableType::boolean: {
      std::unique_ptr<bool[]> b(new bool[n]());
      CallStatus s = get_boolean(vrs, std::span<bool>(b.get(), n));
      for (std::size_t k = 0; k < n; ++k) values.integers[k] = b[k] ? 1 : 0;
      return s;
    }
    case VariableType::string: return get_string(vrs, values.texts);
    case VariableType::binary: {
      std::vector<std::vector<std::uint8_t>> b;
      CallStatus s = get_binary(vrs, b);
      for (std::size_t k = 0; k < n; ++k) values.texts[k] = to_hex(b[k]);
      return s;
    }
    case VariableType::clock: break;
  }
  throw Error(ErrorKind::usage, "instance \"" + name_ + "\": Clock variables have no value to get");
}

CallStatus Instance::set_values(std::span<const ValueReference> vrs, const Values& values) {
  switch (values.type) {
    case VariableType::float64: return set_float64(vrs, values.reals);
    case VariableType::float32: { auto b = narrowed<float>(values.reals); return set_float32(vrs, b); }
    case VariableType::int8: { auto b = narrowed<std::int8_t>(values.integers); return set_int8(vrs, b); }
    case VariableType::uint8: { auto b = narrowed<std::uint8_t>(values.integers); return set_uint8(vrs, b); }
    case VariableType::int16: { auto b = narrowed<std::int16_t>(values.integers); return set_int16(vrs, b); }
    case VariableType::uint16: { auto b = narrowed<std::uint16_t>(values.integers); return set_uint16(vrs, b); }
    case VariableType::int32: { auto b = narrowed<std::int32_t>(values.integers); return set_int32(vrs, b); }
    case VariableType::uint32: { auto b = narrowed<std::uint32_t>(values.integers); return set_uint32(vrs, b); }
    case VariableType::int64: return set_int64(vrs, values.integers);
    case VariableType::enumeration: return set_enumeration(vrs, values.integers);
    case VariableType::uint64: return set_uint64(vrs, values.unsigned_integers);
    case VariableType::boolean: {
      const std::size_t n = values.integers.size();
      std::unique_ptr<bool[]> b(new bool[n]());
      for (std::size_t k = 0; k < n; ++k) b[k] = values.integers[k] != 0;
      return set_boolean(vrs, std::span<const bool>(b.get(), n));
    }
    case VariableType::string: return set_string(vrs, values.texts);
    case VariableType::binary: {
      std::vector<std::vector<std::uint8_t>> b;
      for (const auto& t : values.texts) b.push_back(from_hex(t));
      return set_binary(vrs, b);
    }
    case VariableType::clock: break;
  }
  throw Error(ErrorKind::usage, "instance \"" + name_ + "\": Clock variables are not set by value");
}

void Instance::set_scalar(const Variable& variable, double value) {
  ValueReference vr = variable.value_reference;
  auto bad = [&](const std::string& why) {
    throw Error(ErrorKind::usage, "instance \"" + name_ + "\": cannot set \"" + variable.name + "\" to " +
                                      std::to_string(value) + ": " + why);
  };
  if (variable.is_array()) bad("it is an array variable → lsdae sets scalar variables only");
  switch (variable.type) {
    case VariableType::float64:
    case VariableType::float32: {
      if (variable.type == VariableType::float32) bad("Float32 variables are not supported yet → use a Float64 variable");
      set_float64({&vr, 1}, {&value, 1});
      return;
    }
    case VariableType::boolean: {
      if (value != 0.0 && value != 1.0) bad("it is Boolean → use 0/1 or true/false");
      bool b = value != 0.0;
      set_boolean({&vr, 1}, {&b, 1});
      return;
    }
    case VariableType::int32:
    case VariableType::int8:
    case VariableType::int16:
    case VariableType::enumeration: {
      if (variable.type != VariableType::int32 && variable.type != VariableType::enumeration)
        bad(std::string(to_string(variable.type)) + " variables are not supported yet");
      if (std::trunc(value) != value || value < std::numeric_limits<std::int32_t>::min() ||
          value > std::numeric_limits<std::int32_t>::max())
        bad("it is an integer of 32 bits → give a whole number in range");
      if (variable.type == VariableType::enumeration) {
        auto i = static_cast<std::int64_t>(value);
        set_enumeration({&vr, 1}, {&i, 1});
      } else {
        auto i = static_cast<std::int32_t>(value);
        set_int32({&vr, 1}, {&i, 1});
      }
      return;
    }
    case VariableType::int64: {
      if (std::trunc(value) != value || std::fabs(value) > 9.0e15) bad("it is Int64 → give a whole number");
      auto i = static_cast<std::int64_t>(value);
      set_int64({&vr, 1}, {&i, 1});
      return;
    }
    default:
      bad(std::string("variables of type ") + to_string(variable.type) + " cannot be set from a number");
  }
}

}  // namespace lsdae
