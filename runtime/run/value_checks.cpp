// runtime/run/value_checks.cpp -- see value_checks.h.
#include "run/value_checks.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <system_error>

#include "common/format.h"
#include "run/did_you_mean.h"

namespace lsdae::run {

namespace {

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

std::string must_be(const RealRange& range) { return range.meaning + " must be " + describe_range(range); }

std::string whole_number(std::int64_t low, std::int64_t high, const std::string& meaning) {
  return meaning + " must be a whole number " +
         (high == std::numeric_limits<std::int64_t>::max() ? "of at least " + std::to_string(low)
                                                           : "from " + std::to_string(low) + " to " + std::to_string(high));
}

}  // namespace

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

std::optional<Refusal> refuse_real_text(const std::string& text, const RealRange& range) {
  const std::string todo = "e.g. " + range.example;
  bool out_of_range = false;
  const std::optional<double> value = parse_real(text, out_of_range);
  if (out_of_range) return Refusal{"is beyond double precision: " + must_be(range), todo};
  if (!value && is_infinity_or_nan(text)) return Refusal{"is not a finite number: " + must_be(range), todo};
  if (!value) return Refusal{"is not a number: " + must_be(range) + " (decimal, like 0.5 or 1e-6)", todo};
  return refuse_real(*value, range);
}

std::optional<Refusal> refuse_real(double value, const RealRange& range) {
  const std::string todo = "e.g. " + range.example;
  if (std::isnan(value) || std::isinf(value)) return Refusal{"is not a finite number: " + must_be(range), todo};
  if (!inside(range, value)) return Refusal{"is out of range: " + must_be(range), todo};
  return std::nullopt;
}

std::optional<Refusal> refuse_count_text(std::string& text, std::int64_t low, std::int64_t high,
                                         const std::string& meaning, const std::string& example) {
  const std::string rule = whole_number(low, high, meaning);
  const std::string todo = "e.g. " + example;
  const char* first = text.data();
  const char* last = text.data() + text.size();
  if (first != last && *first == '+') ++first;
  std::int64_t n = 0;
  auto [end, ec] = std::from_chars(first, last, n);
  if (first == last || end != last || ec != std::errc()) {
    // Not plain digits: maybe 1e6, which is a whole number too.
    bool out_of_range = false;
    const std::optional<double> value = parse_real(text, out_of_range);
    if (out_of_range || (value && std::isfinite(*value) && std::trunc(*value) == *value &&
                         (*value < static_cast<double>(low) || *value > static_cast<double>(high))))
      return Refusal{"is out of range: " + rule, todo};
    if (!value || !std::isfinite(*value) || std::trunc(*value) != *value)
      return Refusal{"is not a whole number: " + rule, todo};
    n = static_cast<std::int64_t>(*value);
  }
  if (n < low || n > high) return Refusal{"is out of range: " + rule, todo};
  text = std::to_string(n);
  return std::nullopt;
}

std::optional<Refusal> refuse_count(std::int64_t value, std::int64_t low, std::int64_t high,
                                    const std::string& meaning, const std::string& example) {
  if (value < low || value > high) return Refusal{"is out of range: " + whole_number(low, high, meaning), "e.g. " + example};
  return std::nullopt;
}

Refusal not_a_whole_number(std::int64_t low, std::int64_t high, const std::string& meaning,
                           const std::string& example) {
  return Refusal{"is not a whole number: " + whole_number(low, high, meaning), "e.g. " + example};
}

std::optional<Refusal> refuse_choice(const std::string& word, const std::vector<std::string>& words,
                                     const std::string& shown) {
  for (const auto& w : words)
    if (word == w) return std::nullopt;
  const std::string hint = did_you_mean(word, words);
  return Refusal{"is not one of " + shown, hint.empty() ? "use one of them" : hint};
}

}  // namespace lsdae::run
