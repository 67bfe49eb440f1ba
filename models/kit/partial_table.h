// models/kit/partial_table.h -- the partial derivatives of one point as the
// instance keeps them (instance.h): what Model::partials() adds, in a CSR
// table by unknown value reference, its pattern transposed (by known), and
// the rows that hold a non-finite partial.
//
// Algorithm: collect() receives the entries in the model's order; finish()
// builds the tables. The model adds the same (unknown, known) sequence at
// every point between mode changes, so finish() compares the sequence with
// the previous one's and, when it is the same, only writes each value into
// the position it had (recorded then); otherwise it builds the tables anew
// (a counting sort by unknown, entries of a row in the model's order, and
// the transpose). Either way the tables are those a fresh build gives, bit
// for bit. The entry buffer and the tables keep their capacity from point to
// point: no allocation once the largest point was seen.
//
// Cost: an unchanged pattern O(entries), one pass comparing and scattering;
// a new one O(entries + variables) twice (the table and its transpose).
// Contract: add() throws std::logic_error for a value reference >= the
// variable count given to reset(); finish() after the last add().
#ifndef LSDAE_MODELS_KIT_PARTIAL_TABLE_H
#define LSDAE_MODELS_KIT_PARTIAL_TABLE_H

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
  // Starts a new point: no entries (the capacity is kept).
  void begin() { entries_.clear(); }
  void add(ValueRef unknown, ValueRef known, double value) override;
  // The entries of this point in the model's order, to be scaled in place
  // before finish() (a variant's false claim, claims.h).
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

  std::size_t n_ = 0;
  std::vector<Entry> entries_;
  // The last pattern: per entry its (unknown, known) and its position in the table.
  std::vector<ValueRef> pattern_unknown_, pattern_known_;
  std::vector<std::size_t> position_;
  bool has_pattern_ = false;
  std::vector<std::size_t> row_start_, next_;
  std::vector<ValueRef> known_;
  std::vector<double> value_;
  std::vector<std::size_t> column_start_;
  std::vector<ValueRef> unknown_;
  std::vector<ValueRef> nonfinite_rows_;
};

}  // namespace lsdae::kit

#endif  // LSDAE_MODELS_KIT_PARTIAL_TABLE_H
