// tests/runtime/cli/mini_json.h -- a strict JSON reader (RFC 8259) for checking
// `lsdae ... --json` output: enough to prove the output parses and to read
// keys back. Throws std::runtime_error with the byte offset on any syntax
// error, including trailing garbage. Not for production use: recursion depth
// is unbounded and \u escapes of surrogate pairs are not combined.
#ifndef LSDAE_TESTS_RUNTIME_CLI_MINI_JSON_H
#define LSDAE_TESTS_RUNTIME_CLI_MINI_JSON_H

#include <cstdlib>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace lsdae::test {

struct Json {
  enum class Kind { null, boolean, number, string, array, object };
  Kind kind = Kind::null;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<Json> array;
  std::map<std::string, Json> object;

  bool has(const std::string& key) const { return kind == Kind::object && object.count(key) > 0; }
  // The member `key` of an object; throws when this is not an object or the key is absent.
  const Json& operator[](const std::string& key) const {
    if (kind != Kind::object) throw std::runtime_error("json: not an object (looking for \"" + key + "\")");
    auto it = object.find(key);
    if (it == object.end()) throw std::runtime_error("json: no key \"" + key + "\"");
    return it->second;
  }
};

class JsonReader {
 public:
  static Json parse(std::string_view text) {
    JsonReader r(text);
    r.skip_ws();
    Json value = r.value();
    r.skip_ws();
    if (r.pos_ != text.size()) r.fail("trailing characters after the JSON value");
    return value;
  }

 private:
  explicit JsonReader(std::string_view text) : text_(text) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error("json: offset " + std::to_string(pos_) + ": " + what);
  }
  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  void expect(char c) {
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++pos_;
  }
  void skip_ws() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r'))
      ++pos_;
  }
  void literal(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) fail("bad literal");
    pos_ += word.size();
  }

  Json value() {
    Json v;
    char c = peek();
    if (c == '{') {
      v.kind = Json::Kind::object;
      ++pos_;
      skip_ws();
      if (peek() == '}') { ++pos_; return v; }
      for (;;) {
        skip_ws();
        std::string key = string();
        skip_ws();
        expect(':');
        skip_ws();
        if (v.object.count(key)) fail("duplicate key \"" + key + "\"");
        v.object[key] = value();
        skip_ws();
        if (peek() == ',') { ++pos_; continue; }
        expect('}');
        return v;
      }
    }
    if (c == '[') {
      v.kind = Json::Kind::array;
      ++pos_;
      skip_ws();
      if (peek() == ']') { ++pos_; return v; }
      for (;;) {
        skip_ws();
        v.array.push_back(value());
        skip_ws();
        if (peek() == ',') { ++pos_; continue; }
        expect(']');
        return v;
      }
    }
    if (c == '"') {
      v.kind = Json::Kind::string;
      v.string = string();
      return v;
    }
    if (c == 't') { literal("true"); v.kind = Json::Kind::boolean; v.boolean = true; return v; }
    if (c == 'f') { literal("false"); v.kind = Json::Kind::boolean; return v; }
    if (c == 'n') { literal("null"); return v; }
    v.kind = Json::Kind::number;
    v.number = number();
    return v;
  }

  double number() {
    std::size_t start = pos_;
    if (peek() == '-') ++pos_;
    if (peek() == '0') ++pos_;
    else if (peek() >= '1' && peek() <= '9') while (digit()) ++pos_;
    else fail("expected a value");
    if (peek() == '.') {
      ++pos_;
      if (!digit()) fail("expected digits after '.'");
      while (digit()) ++pos_;
    }
    if (peek() == 'e' || peek() == 'E') {
      ++pos_;
      if (peek() == '+' || peek() == '-') ++pos_;
      if (!digit()) fail("expected exponent digits");
      while (digit()) ++pos_;
    }
    return std::strtod(std::string(text_.substr(start, pos_ - start)).c_str(), nullptr);
  }
  bool digit() const { return peek() >= '0' && peek() <= '9'; }

  std::string string() {
    expect('"');
    std::string out;
    for (;;) {
      if (pos_ >= text_.size()) fail("unterminated string");
      char c = text_[pos_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) fail("unescaped control character in a string");
      if (c != '\\') { out += c; continue; }
      char e = peek();
      ++pos_;
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          if (pos_ + 4 > text_.size()) fail("short \\u escape");
          unsigned code = 0;
          for (int i = 0; i < 4; ++i) {
            char h = text_[pos_++];
            code <<= 4;
            if (h >= '0' && h <= '9') code |= static_cast<unsigned>(h - '0');
            else if (h >= 'a' && h <= 'f') code |= static_cast<unsigned>(h - 'a' + 10);
            else if (h >= 'A' && h <= 'F') code |= static_cast<unsigned>(h - 'A' + 10);
            else fail("bad hex digit in \\u escape");
          }
          if (code < 0x80) {
            out += static_cast<char>(code);
          } else if (code < 0x800) {
            out += static_cast<char>(0xc0 | (code >> 6));
            out += static_cast<char>(0x80 | (code & 0x3f));
          } else {
            out += static_cast<char>(0xe0 | (code >> 12));
            out += static_cast<char>(0x80 | ((code >> 6) & 0x3f));
            out += static_cast<char>(0x80 | (code & 0x3f));
          }
          break;
        }
        default: fail("bad escape");
      }
    }
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

}  // namespace lsdae::test

#endif  // LSDAE_TESTS_RUNTIME_CLI_MINI_JSON_H
