// runtime/common/diagnostics.cpp -- see lsdae/diagnostics.h.
#include "lsdae/diagnostics.h"

#include <algorithm>

namespace lsdae {

const char* to_string(Severity severity) noexcept {
  switch (severity) {
    case Severity::note: return "note";
    case Severity::warning: return "warning";
    case Severity::conformance: return "conformance error";
    case Severity::error: return "error";
  }
  return "error";
}

std::string Diagnostic::format() const {
  std::string out;
  if (!file.empty()) {
    out += file;
    if (line > 0) out += ":" + std::to_string(line);
    out += ": ";
  }
  out += to_string(severity);
  out += ": ";
  out += message;
  if (!hint.empty()) out += " → " + hint;
  return out;
}

void Diagnostics::add(Severity severity, std::string file, int line, std::string message, std::string hint) {
  items_.push_back(Diagnostic{severity, std::move(file), line, std::move(message), std::move(hint)});
}

void Diagnostics::append(const Diagnostics& other) {
  items_.insert(items_.end(), other.items_.begin(), other.items_.end());
}

std::size_t Diagnostics::count(Severity severity) const {
  return static_cast<std::size_t>(
      std::count_if(items_.begin(), items_.end(), [&](const Diagnostic& d) { return d.severity == severity; }));
}

}  // namespace lsdae
