// runtime/common/format.h -- how numbers appear in lsdae's messages.
#ifndef LSDAE_RUNTIME_COMMON_FORMAT_H
#define LSDAE_RUNTIME_COMMON_FORMAT_H

#include <cstdio>
#include <string>

namespace lsdae {

// Six significant digits ("%.6g"): times, step sizes, violations in messages.
inline std::string format_number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

// A count and its noun, singular for exactly 1: "1 event", "3 events",
// "0 errors"; `plural` for nouns that do not take an "s".
template <typename Count>
std::string count_of(Count n, const std::string& singular, const std::string& plural = std::string()) {
  return std::to_string(n) + " " + (n == 1 ? singular : plural.empty() ? singular + "s" : plural);
}

}  // namespace lsdae

#endif  // LSDAE_RUNTIME_COMMON_FORMAT_H
