// runtime/cli/option_values.cpp -- see option_values.h.
#include "cli/option_values.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <system_error>

#include "cli/did_you_mean.h"
#include "common/format.h"

namespace lsdae::cli {

namespace {

// The whole text as a finite-or-not double; nullopt when it is not a decimal
// number or has anything after it. `out_of_range` is set for 1e400 and the like.
std::optional<double> parse_real(const std::string& text, bool& out_of_range) {
  out_of_range = false;
  const char* first = text.data();
  const char* last = text.data() + text.size();
  if (first != last && *first == '+') ++first;  // from_chars takes '-' only
  if (first == last) return std::nullopt;
  // No "inf", "nan", "infinity": from_chars accepts them, a time does not.
  const char c = *(*first == '-' ? first + 1 : first);
  if (!(c == '.' || (c >= '0' && c <= '9'))) return std::nullopt;
  double value = 0;
  auto [end, ec] = std::from_chars(first, last, value, std::chars_format::general);
  if (end != last) return std::nullopt;
  if (ec == std::errc::result_out_of_range) {
    out_of_range = true;
    return std::nullopt;
  }
  if (ec != std::errc()) return std::nullopt;
  return value;
}

// "inf", "-Infinity", "nan", "NaN(0x1)": what strtod would have accepted.
bool is_infinity_or_nan(const std::string& text) {
  std::string word;
  for (char c : text)
    if (c != '+' && c != '-') word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return word.rfind("inf", 0) == 0 || word.rfind("nan", 0) == 0;
}

bool inside(const RealRange& r, double v) {
  const bool above = r.low_inclusive ? v >= r.low : v > r.low;
  const bool below = r.high_inclusive ? v <= r.high : v < r.high;
  return above && below;
}

}  // namespace

std::string quoted_value(const std::string& text) {
  constexpr std::size_t kShown = 80;
  if (text.size() <= kShown) return "\"" + text + "\"";
  return "\"" + text.substr(0, kShown - 1) + "…\" (" + std::to_string(text.size()) + " characters)";
}

std::string describe_range(const RealRange& r) {
  const bool has_low = std::isfinite(r.low), has_high = std::isfinite(r.high);
  if (has_low && has_high) {
    if (r.low_inclusive && r.high_inclusive) return "from " + format_number(r.low) + " to " + format_number(r.high);
    return std::string(r.low_inclusive ? "at least " : "greater than ") + format_number(r.low) + " and " +
           (r.high_inclusive ? "at most " : "less than ") + format_number(r.high);
  }
  if (has_low) return std::string(r.low_inclusive ? "at least " : "greater than ") + format_number(r.low);
  if (has_high) return std::string(r.high_inclusive ? "at most " : "less than ") + format_number(r.high);
  return "a finite number";
}

CLI::Validator real_value(const RealRange& range) {
  return CLI::Validator(
      [range](std::string& text) -> std::string {
        const std::string todo = " → e.g. " + range.example;
        bool out_of_range = false;
        std::optional<double> value = parse_real(text, out_of_range);
        if (out_of_range)
          return quoted_value(text) + " is beyond double precision: " + range.meaning + " must be " +
                 describe_range(range) + todo;
        if (!value && is_infinity_or_nan(text))
          return quoted_value(text) + " is not a finite number: " + range.meaning + " must be " +
                 describe_range(range) + todo;
        if (!value)
          return quoted_value(text) + " is not a number: " + range.meaning + " must be " + describe_range(range) +
                 " (decimal, like 0.5 or 1e-6)" + todo;
        if (!std::isfinite(*value) || !inside(range, *value))
          return quoted_value(text) + " is out of range: " + range.meaning + " must be " + describe_range(range) + todo;
        return {};
      },
      "", "real");
}

CLI::Validator count_value(std::int64_t low, std::int64_t high, const std::string& meaning,
                           const std::string& example) {
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        const std::string allowed =
            meaning + " must be a whole number " +
            (high == std::numeric_limits<std::int64_t>::max() ? "of at least " + std::to_string(low)
                                                              : "from " + std::to_string(low) + " to " + std::to_string(high)) +
            " → e.g. " + example;
        const char* first = text.data();
        const char* last = text.data() + text.size();
        if (first != last && *first == '+') ++first;
        std::int64_t n = 0;
        auto [end, ec] = std::from_chars(first, last, n);
        if (first == last || end != last || ec != std::errc()) {
          // Not plain digits: maybe 1e6, which is a whole number too.
          bool out_of_range = false;
          std::optional<double> value = parse_real(text, out_of_range);
          if (out_of_range || (value && std::isfinite(*value) && std::trunc(*value) == *value &&
                               (*value < static_cast<double>(low) || *value > static_cast<double>(high))))
            return quoted_value(text) + " is out of range: " + allowed;
          if (!value || !std::isfinite(*value) || std::trunc(*value) != *value)
            return quoted_value(text) + " is not a whole number: " + allowed;
          n = static_cast<std::int64_t>(*value);
        }
        if (n < low || n > high) return quoted_value(text) + " is out of range: " + allowed;
        text = std::to_string(n);  // what CLI11 converts
        return {};
      },
      "", "count");
}

CLI::Validator one_of(const std::vector<std::string>& words) {
  std::string list;
  for (const auto& w : words) list += (list.empty() ? "" : ", ") + w;
  return CLI::Validator(
      [words, list](std::string& text) -> std::string {
        for (const auto& w : words)
          if (text == w) return {};
        const std::string hint = did_you_mean(text, words);
        return quoted_value(text) + " is not one of " + list + " → " + (hint.empty() ? "use one of them" : hint);
      },
      "", "one of");
}

}  // namespace lsdae::cli
