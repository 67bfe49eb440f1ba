// runtime/common/diagnostics.cpp -- see lsdae/diagnostics.h.
#include "lsdae/diagnostics.h"

#include <string_view>

namespace lsdae {

namespace {

// The text with every run of digits replaced by '#', and the insides of
// "quotes" and <angle brackets> by '…' (to the end when unclosed).
void append_masked(std::string& out, std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    char c = text[i];
    if (c >= '0' && c <= '9') {
      out += '#';
      while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    } else if (c == '"' || c == '<') {
      const char close = c == '"' ? '"' : '>';
      std::size_t end = text.find(close, i + 1);
      out += c;
      out += "\xe2\x80\xa6";  // …
      if (end == std::string_view::npos) break;
      out += close;
      i = end + 1;
    } else {
      out += c;
      ++i;
    }
  }
}

std::string summary_message(std::size_t more) { return "\xe2\x80\xa6 and " + std::to_string(more) + " more like this"; }

}  // namespace

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

std::size_t Diagnostics::kind_of(const Diagnostic& d) {
  std::string key;
  key.reserve(d.file.size() + d.message.size() + d.hint.size() + 8);
  key += static_cast<char>('0' + static_cast<int>(d.severity));
  key += '\x1f';
  key += d.file;
  key += '\x1f';
  append_masked(key, d.message);
  key += '\x1f';
  append_masked(key, d.hint);
  auto [it, inserted] = kind_index_.emplace(std::move(key), kinds_.size());
  if (inserted) kinds_.emplace_back();
  return it->second;
}

void Diagnostics::count_more(std::size_t kind, std::size_t n) {
  kinds_[kind].more += n;
  summarised_ += n;
  view_stale_ = true;
}

void Diagnostics::add(Severity severity, std::string file, int line, std::string message, std::string hint) {
  Diagnostic d{severity, std::move(file), line, std::move(message), std::move(hint)};
  const std::size_t kind = kind_of(d);
  ++counts_[static_cast<std::size_t>(severity)];
  last_kind_ = kind;
  Kind& k = kinds_[kind];
  if (k.kept >= kKeptPerKind) {
    count_more(kind, 1);
    return;
  }
  ++k.kept;
  k.last_kept = kept_.size();
  kept_.push_back(std::move(d));
  kept_kind_.push_back(kind);
  view_stale_ = true;
}

void Diagnostics::add(const Diagnostic& d) {
  if (d.more_like_this == 0) {
    add(d.severity, d.file, d.line, d.message, d.hint);
    return;
  }
  counts_[static_cast<std::size_t>(d.severity)] += d.more_like_this;
  if (last_kind_ == SIZE_MAX) {
    // A summary with nothing before it: keep it as it is.
    last_kind_ = kind_of(d);
    Kind& k = kinds_[last_kind_];
    ++k.kept;
    k.last_kept = kept_.size();
    kept_.push_back(d);
    kept_kind_.push_back(last_kind_);
    view_stale_ = true;
    return;
  }
  count_more(last_kind_, d.more_like_this);
}

void Diagnostics::append(const Diagnostics& other) {
  for (const auto& d : other.items()) add(d);
}

const std::vector<Diagnostic>& Diagnostics::items() const {
  if (summarised_ == 0) return kept_;
  std::lock_guard<std::mutex> lock(view_lock_.mutex);
  if (view_stale_) {
    view_.clear();
    view_.reserve(kept_.size() + kinds_.size());
    for (std::size_t i = 0; i < kept_.size(); ++i) {
      view_.push_back(kept_[i]);
      const Kind& k = kinds_[kept_kind_[i]];
      if (k.more > 0 && k.last_kept == i) {
        Diagnostic summary{kept_[i].severity, kept_[i].file, 0, summary_message(k.more), {}};
        summary.more_like_this = k.more;
        view_.push_back(std::move(summary));
      }
    }
    view_stale_ = false;
  }
  return view_;
}

}  // namespace lsdae
