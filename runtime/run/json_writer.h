// runtime/run/json_writer.h -- a minimal streaming JSON writer: the run statistics
// (statistics.h) and the CLI's --json outputs (objects, arrays, strings escaped
// per RFC 8259, numbers).
#ifndef LSDAE_RUNTIME_RUN_JSON_WRITER_H
#define LSDAE_RUNTIME_RUN_JSON_WRITER_H

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace lsdae::run {

class JsonWriter {
 public:
  explicit JsonWriter(std::ostream& out) : out_(out) {}

  JsonWriter& begin_object() { value_prefix(); out_ << '{'; stack_.push_back(true); return *this; }
  JsonWriter& end_object() { close('}'); return *this; }
  JsonWriter& begin_array() { value_prefix(); out_ << '['; stack_.push_back(true); return *this; }
  JsonWriter& end_array() { close(']'); return *this; }
  JsonWriter& key(std::string_view k) {
    comma();
    indent();
    write_string(k);
    out_ << ": ";
    after_key_ = true;
    return *this;
  }
  JsonWriter& value(std::string_view s) { value_prefix(); write_string(s); return *this; }
  JsonWriter& value(const char* s) { return value(std::string_view(s)); }
  JsonWriter& value(const std::string& s) { return value(std::string_view(s)); }
  JsonWriter& value(bool b) { value_prefix(); out_ << (b ? "true" : "false"); return *this; }
  JsonWriter& value(std::int64_t i) { value_prefix(); out_ << i; return *this; }
  JsonWriter& value(std::uint64_t i) { value_prefix(); out_ << i; return *this; }
  JsonWriter& value(int i) { return value(static_cast<std::int64_t>(i)); }
  JsonWriter& value(double d) {
    value_prefix();
    if (!std::isfinite(d)) { out_ << "null"; return *this; }
    char text[32];
    std::snprintf(text, sizeof text, "%.17g", d);
    out_ << text;
    return *this;
  }
  JsonWriter& null() { value_prefix(); out_ << "null"; return *this; }
  // A value already rendered as JSON (e.g. a nested report); trailing newline trimmed.
  JsonWriter& raw(std::string_view json) {
    value_prefix();
    while (!json.empty() && (json.back() == '\n' || json.back() == ' ')) json.remove_suffix(1);
    out_ << json;
    return *this;
  }
  template <typename T>
  JsonWriter& field(std::string_view k, const T& v) { key(k); return value(v); }

 private:
  void comma() {
    if (!stack_.empty()) {
      if (!stack_.back()) out_ << ',';
      stack_.back() = false;
    }
  }
  void indent() {
    out_ << '\n';
    for (std::size_t i = 0; i < stack_.size(); ++i) out_ << "  ";
  }
  void value_prefix() {
    if (after_key_) { after_key_ = false; return; }
    if (!stack_.empty()) { comma(); indent(); }
  }
  void close(char c) {
    bool empty = stack_.back();
    stack_.pop_back();
    if (!empty) indent();
    out_ << c;
    if (stack_.empty()) out_ << '\n';
  }
  void write_string(std::string_view s) {
    out_ << '"';
    for (char ch : s) {
      auto c = static_cast<unsigned char>(ch);
      switch (c) {
        case '"': out_ << "\\\""; break;
        case '\\': out_ << "\\\\"; break;
        case '\n': out_ << "\\n"; break;
        case '\r': out_ << "\\r"; break;
        case '\t': out_ << "\\t"; break;
        default:
          if (c < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            out_ << buf;
          } else {
            out_ << static_cast<char>(c);
          }
      }
    }
    out_ << '"';
  }
  std::ostream& out_;
  std::vector<bool> stack_;  // true while the container is still empty
  bool after_key_ = false;
};

}  // namespace lsdae::run

#endif  // LSDAE_RUNTIME_RUN_JSON_WRITER_H
