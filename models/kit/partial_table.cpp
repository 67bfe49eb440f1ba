// models/kit/partial_table.cpp -- see partial_table.h.
#include "kit/partial_table.h"

#include <stdexcept>
#include <string>

namespace lsdae::kit {

void PartialTable::reset(std::size_t n) {
  n_ = n;
  entries_.clear();
  has_pattern_ = false;
  matching_ = false;
}

void PartialTable::begin(bool collect) {
  entries_.clear();
  nonfinite_rows_.clear();
  matching_ = has_pattern_ && !collect;
  matched_ = 0;
}

void PartialTable::add(ValueRef unknown, ValueRef known, double value) {
  if (unknown >= n_ || known >= n_)
    throw std::logic_error("partials(): value reference out of range (" + std::to_string(unknown) + ", " +
                           std::to_string(known) + ")");
  if (matching_) {
    const std::size_t i = matched_;
    if (i < position_.size() && pattern_unknown_[i] == unknown && pattern_known_[i] == known) {
      value_[position_[i]] = value;
      note_nonfinite(unknown, value);
      matched_ = i + 1;
      return;
    }
    diverge();
  }
  entries_.push_back({unknown, known, value});
}

void PartialTable::diverge() {
  matching_ = false;
  entries_.clear();
  for (std::size_t i = 0; i < matched_; ++i) entries_.push_back({pattern_unknown_[i], pattern_known_[i], value_[position_[i]]});
}

bool PartialTable::same_pattern() const {
  if (!has_pattern_ || entries_.size() != position_.size()) return false;
  const ValueRef* u = pattern_unknown_.data();
  const ValueRef* k = pattern_known_.data();
  unsigned differ = 0;
  for (std::size_t i = 0; i < entries_.size(); ++i)
    differ |= static_cast<unsigned>(entries_[i].unknown != u[i]) | static_cast<unsigned>(entries_[i].known != k[i]);
  return differ == 0;
}

void PartialTable::finish() {
  if (matching_) {
    if (matched_ == position_.size()) return;  // the whole pattern again: every value in place
    diverge();                                 // fewer entries than before
  }
  nonfinite_rows_.clear();
  if (same_pattern()) {
    const std::size_t* at = position_.data();
    double* value = value_.data();
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      const Entry& e = entries_[i];
      value[at[i]] = e.value;
      note_nonfinite(e.unknown, e.value);
    }
    return;
  }
  rebuild();
}

void PartialTable::rebuild() {
  has_pattern_ = false;  // until the tables are whole
  row_start_.assign(n_ + 1, 0);
  for (const Entry& e : entries_) ++row_start_[e.unknown + 1];
  for (std::size_t i = 0; i < n_; ++i) row_start_[i + 1] += row_start_[i];
  known_.resize(entries_.size());
  value_.resize(entries_.size());
  position_.resize(entries_.size());
  pattern_unknown_.resize(entries_.size());
  pattern_known_.resize(entries_.size());
  next_.assign(row_start_.begin(), row_start_.end() - 1);
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    const Entry& e = entries_[i];
    const std::size_t at = next_[e.unknown]++;
    known_[at] = e.known;
    value_[at] = e.value;
    position_[i] = at;
    pattern_unknown_[i] = e.unknown;
    pattern_known_[i] = e.known;
    note_nonfinite(e.unknown, e.value);
  }
  // The transpose of the pattern (which unknowns each known reaches), for
  // get_directional_derivative() to sum only the rows its seeds reach.
  column_start_.assign(n_ + 1, 0);
  for (const Entry& e : entries_) ++column_start_[e.known + 1];
  for (std::size_t i = 0; i < n_; ++i) column_start_[i + 1] += column_start_[i];
  unknown_.resize(entries_.size());
  next_.assign(column_start_.begin(), column_start_.end() - 1);
  for (const Entry& e : entries_) unknown_[next_[e.known]++] = e.unknown;
  has_pattern_ = true;
}

}  // namespace lsdae::kit
