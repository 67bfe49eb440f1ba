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

}  // namespace lsdae

#endif  // LSDAE_RUNTIME_COMMON_FORMAT_H
