// models/kit/xml_text.h -- the text pieces both XML writers use
// (xml_writer.cpp for FMI 3.0 and the manifest, xml_writer_fmi2.cpp for FMI 2.0):
// attribute escaping and shortest round-trip numbers (std::to_chars), so an
// FMU's start values read back exactly.
#ifndef LSDAE_MODELS_KIT_XML_TEXT_H
#define LSDAE_MODELS_KIT_XML_TEXT_H

#include <charconv>
#include <string>

namespace lsdae::kit::xml {

inline std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

inline std::string number(double value) {
  char buffer[32];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  (void)ec;
  return std::string(buffer, end);
}

}  // namespace lsdae::kit::xml

#endif  // LSDAE_MODELS_KIT_XML_TEXT_H
