// tests/models/kit_partial_table_test.cpp -- the kit's PartialTable
// (models/kit/partial_table.h): whatever sequence of points it sees (the same
// pattern again, one that differs in the middle, a shorter or a longer one,
// values set in place or collected first), its tables are those a table that
// never saw another point builds, bit for bit.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "kit/partial_table.h"

namespace lsdae::kit {
namespace {

using Entries = std::vector<PartialTable::Entry>;

void fill(PartialTable& t, const Entries& entries, bool collect = false) {
  t.begin(collect);
  for (const auto& e : entries) t.add(e.unknown, e.known, e.value);
  t.finish();
}

std::vector<std::uint64_t> bits(const std::vector<double>& v) {
  std::vector<std::uint64_t> out;
  for (double x : v) out.push_back(std::bit_cast<std::uint64_t>(x));
  return out;
}

// `t` holds what a fresh table given `entries` holds.
void expect_fresh(const PartialTable& t, const Entries& entries, std::size_t n) {
  PartialTable fresh;
  fresh.reset(n);
  fill(fresh, entries);
  EXPECT_EQ(t.row_start(), fresh.row_start());
  EXPECT_EQ(t.known(), fresh.known());
  EXPECT_EQ(bits(t.value()), bits(fresh.value()));
  EXPECT_EQ(t.column_start(), fresh.column_start());
  EXPECT_EQ(t.unknown(), fresh.unknown());
  EXPECT_EQ(t.nonfinite_rows(), fresh.nonfinite_rows());
}

TEST(KitPartialTable, BuildsRowsInTheModelsOrderAndTheTranspose) {
  PartialTable t;
  t.reset(4);
  fill(t, {{2, 1, 5.0}, {0, 3, 1.0}, {2, 0, -2.0}, {0, 1, 4.0}});
  EXPECT_EQ(t.row_start(), (std::vector<std::size_t>{0, 2, 2, 4, 4}));
  EXPECT_EQ(t.known(), (std::vector<ValueRef>{3, 1, 1, 0}));
  EXPECT_EQ(t.value(), (std::vector<double>{1.0, 4.0, 5.0, -2.0}));
  EXPECT_EQ(t.column_start(), (std::vector<std::size_t>{0, 1, 3, 3, 4}));
  EXPECT_EQ(t.unknown(), (std::vector<ValueRef>{2, 2, 0, 0}));
  EXPECT_TRUE(t.nonfinite_rows().empty());
}

TEST(KitPartialTable, EveryKindOfNextPointGivesTheFreshTables) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  const Entries first{{1, 0, 1.0}, {0, 2, 2.0}, {1, 2, 3.0}, {3, 1, 4.0}, {0, 0, 5.0}};
  const std::vector<Entries> next{
      {{1, 0, -1.0}, {0, 2, -0.0}, {1, 2, nan}, {3, 1, 7.0}, {0, 0, inf}},  // same pattern, new values
      {{1, 0, 1.0}, {0, 2, 2.0}, {2, 2, 3.0}, {3, 1, 4.0}, {0, 0, 5.0}},    // differs in the middle
      {{1, 0, 1.0}, {0, 2, 2.0}, {1, 2, 3.0}},                              // shorter
      {{1, 0, 1.0}, {0, 2, 2.0}, {1, 2, 3.0}, {3, 1, 4.0}, {0, 0, 5.0}, {2, 3, 6.0}},  // longer
      {},                                                                   // none
      {{1, 0, 8.0}, {0, 2, 9.0}, {1, 2, 3.0}, {3, 1, 4.0}, {0, 0, 5.0}},    // the first pattern again
  };
  for (bool collect : {false, true}) {
    PartialTable t;
    t.reset(4);
    fill(t, first, collect);
    expect_fresh(t, first, 4);
    for (std::size_t k = 0; k < next.size(); ++k) {
      SCOPED_TRACE("point " + std::to_string(k) + (collect ? ", collected" : ""));
      fill(t, next[k], collect);
      expect_fresh(t, next[k], 4);
    }
  }
}

TEST(KitPartialTable, CollectedEntriesMayBeChangedBeforeFinish) {
  PartialTable t;
  t.reset(3);
  fill(t, {{0, 1, 1.0}, {2, 0, 2.0}});
  t.begin(true);
  t.add(0, 1, 1.0);
  t.add(2, 0, 2.0);
  for (auto& e : t.entries()) e.value *= 10.0;
  t.finish();
  EXPECT_EQ(t.value(), (std::vector<double>{10.0, 20.0}));
}

TEST(KitPartialTable, RefusesAReferenceOutOfRange) {
  PartialTable t;
  t.reset(3);
  t.begin();
  EXPECT_THROW(t.add(3, 0, 1.0), std::logic_error);
  EXPECT_THROW(t.add(0, 7, 1.0), std::logic_error);
}

}  // namespace
}  // namespace lsdae::kit
