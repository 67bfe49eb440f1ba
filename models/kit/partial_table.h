// models/kit/partial_table.h -- the partial derivatives of one point as the
// instance keeps them (instance.h): what Model::partials() adds, in a CSR
// table by unknown value reference, its pattern transposed (by known), and
// the rows that hold a non-finite partial.
//
// Algorithm: add() receives the entries in the model's order; finish()
// completes the tables. The model adds the same (unknown, known) sequence at
// every point between mode changes, so add() compares each entry with the
// one at the same place of the previous sequence and, while they agree,
// writes its value straight into the position it had (recorded then). At
// the first entry that differs, the entries so far are collected (from the
// previous pattern and the values written) and so is the rest; finish()
// then builds the tables anew (a counting sort by unknown, entries of a row
// in the model's order, and the transpose). Either way the tables are those
// a fresh build gives, bit for bit. begin(true) collects every entry first
// (for a caller that changes values before finish(): entries()), and
// finish() compares the whole sequence. The buffers keep their capacity
// from point to point: no allocation once the largest point was seen.
//
// Cost: an unchanged pattern O(entries), one compare and one store per
// entry; a new one O(entries + variables) twice (the table and its
// transpose).
// Contract: add() throws std::logic_error for a value reference >= the
// variable count given to reset(); finish() after the last add().
#ifndef LSDAE_MODELS_KIT_PARTIAL_TABLE_H
#define LSDAE_MODELS_KIT_PARTIAL_TABLE_H

#include <cmath>
#include <cstddef>
#include <vector>

#include "kit/model.h"

namespace lsdae::kit {

class PartialTable final : public PartialSink {
 public:
  struct Entry {
    ValueRef unknown, known;
    double value;
  };

  // n variables (value references 0 .. n-1); forgets every pattern.
  void reset(std::size_t n);
  // Starts a new point (the capacity is kept); `collect`: keep every entry
  // for entries(), else write them in place while the pattern holds.
  void begin(bool collect = false);
  void add(ValueRef unknown, ValueRef known, double value) override;
  // After begin(true): the entries of this point in the model's order, to
  // be scaled in place before finish() (a variant's false claim, claims.h).
  std::vector<Entry>& entries() { return entries_; }
  void finish();

  // CSR by unknown: row r is row_start()[r] .. row_start()[r + 1].
  const std::vector<std::size_t>& row_start() const { return row_start_; }
  const std::vector<ValueRef>& known() const { return known_; }
  const std::vector<double>& value() const { return value_; }
  // The pattern by known (CSC): the unknowns each known reaches.
  const std::vector<std::size_t>& column_start() const { return column_start_; }
  const std::vector<ValueRef>& unknown() const { return unknown_; }
  // Unknowns with a non-finite partial, in the entries' order (a row may be
  // listed more than once).
  const std::vector<ValueRef>& nonfinite_rows() const { return nonfinite_rows_; }

 private:
  bool same_pattern() const;
  void rebuild();
  // The pattern stopped matching at entry `matched_`: the entries so far
  // into entries_, from now on collected.
  void diverge();
  void note_nonfinite(ValueRef unknown, double value) {
    if (!std::isfinite(value) && (nonfinite_rows_.empty() || nonfinite_rows_.back() != unknown))
      nonfinite_rows_.push_back(unknown);  // a row listed twice is harmless
  }

  std::size_t n_ = 0;
  std::vector<Entry> entries_;
  // The last pattern: per entry its (unknown, known) and its position in the table.
  std::vector<ValueRef> pattern_unknown_, pattern_known_;
  std::vector<std::size_t> position_;
  bool has_pattern_ = false;
  bool matching_ = false;    // this point's entries so far are the pattern's first matched_
  std::size_t matched_ = 0;
  std::vector<std::size_t> row_start_, next_;
  std::vector<ValueRef> known_;
  std::vector<double> value_;
  std::vector<std::size_t> column_start_;
  std::vector<ValueRef> unknown_;
  std::vector<ValueRef> nonfinite_rows_;
};

}  // namespace lsdae::kit

#endif  // LSDAE_MODELS_KIT_PARTIAL_TABLE_H
