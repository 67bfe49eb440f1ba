// runtime/common/text.cpp -- see lsdae/text.h.
#include "lsdae/text.h"

#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>

#include "lsdae/error.h"

namespace lsdae {

std::string read_text_file(const std::filesystem::path& path, const std::string& what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(ErrorKind::usage, what + " \"" + path.string() + "\": cannot be read → check the path");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

std::optional<double> parse_double(const std::string& text) {
  const std::string t = trim(text);
  double value = 0;
  const char* first = t.data() + (t.size() > 1 && t[0] == '+' ? 1 : 0);
  auto [end, ec] = std::from_chars(first, t.data() + t.size(), value);
  if (t.empty() || ec != std::errc() || end != t.data() + t.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

}  // namespace lsdae
