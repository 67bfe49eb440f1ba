// tests/runtime/results/results_fixture.h -- what the result writers' tests
// share (results_test.cpp, results_mat_test.cpp): FakeRow, a row of typed
// values in an order unlike the runtime's, the ResultsTest fixture (a folder
// of its own per test) and the writers' options.
#ifndef LSDAE_TESTS_RUNTIME_RESULTS_RESULTS_FIXTURE_H
#define LSDAE_TESTS_RUNTIME_RESULTS_RESULTS_FIXTURE_H

#include <gtest/gtest.h>
#include <unistd.h>

#include <charconv>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "results/result_writer.h"

namespace lsdae::results::test_rows {

namespace fs = std::filesystem;

// A row of typed values, set by the test. Columns in an order unlike the
// runtime's: a String between numbers, a Boolean before the reals.
struct FakeRow final : RowValues {
  std::vector<Column> columns;
  std::vector<double> reals;
  std::vector<std::int64_t> integers;
  std::vector<std::uint64_t> unsigned_integers;
  std::vector<std::string> texts;
  std::size_t size() const override { return columns.size(); }
  ValueStorage storage(std::size_t c) const override { return storage_of(columns[c].type); }
  double real(std::size_t c) const override { return reals[c]; }
  std::int64_t integer(std::size_t c) const override { return integers[c]; }
  std::uint64_t unsigned_integer(std::size_t c) const override { return unsigned_integers[c]; }
  std::string text(std::size_t c) const override {
    if (storage(c) == ValueStorage::text) return texts[c];
    std::string out;
    append_text(c, out);
    return out;
  }
  void append_text(std::size_t c, std::string& out) const override {
    char buffer[32];
    std::to_chars_result r{};
    switch (storage(c)) {
      case ValueStorage::real:
        r = columns[c].type == VariableType::float32
                ? std::to_chars(buffer, buffer + sizeof buffer, static_cast<float>(reals[c]))
                : std::to_chars(buffer, buffer + sizeof buffer, reals[c]);
        break;
      case ValueStorage::integer: r = std::to_chars(buffer, buffer + sizeof buffer, integers[c]); break;
      case ValueStorage::unsigned_integer: r = std::to_chars(buffer, buffer + sizeof buffer, unsigned_integers[c]); break;
      case ValueStorage::text: out += texts[c]; return;
    }
    out.append(buffer, r.ptr);
  }

  void set(std::size_t row) {  // values of row `row`, awkward on purpose
    const double k = static_cast<double>(row);
    reals = {0.0, 0.1 * k + 1.0 / 3.0, 0.0, std::nextafter(1e-300 * (k + 1), 1.0), 0.0, 0.0, 0.0};
    reals[2] = static_cast<double>(static_cast<float>(0.3f * static_cast<float>(k)));
    integers = {0, 0, 0, 0, -2147483647 + static_cast<std::int64_t>(row), static_cast<std::int64_t>(row % 2), 0};
    unsigned_integers = {0, 0, 0, 0, 0, 0, std::numeric_limits<std::uint64_t>::max() - row};
    texts = {"s,\"" + std::to_string(row), "", "", "", "", "", ""};
  }
};

inline FakeRow typed_row() {
  FakeRow r;
  auto col = [](std::string name, VariableType type, std::string unit, Variability v = Variability::continuous) {
    Column c;
    c.name = std::move(name);
    c.type = type;
    c.unit = std::move(unit);
    c.description = "the " + c.name;
    c.variability = v;
    c.causality = Causality::output;
    c.value_reference = 1000 + static_cast<ValueReference>(c.name.size());
    return c;
  };
  r.columns = {col("label", VariableType::string, ""),    col("x", VariableType::float64, "m"),
               col("f", VariableType::float32, "kg"),     col("tiny", VariableType::float64, ""),
               col("count", VariableType::int32, "1"),    col("on", VariableType::boolean, ""),
               col("big", VariableType::uint64, "")};
  r.columns[3].variability = Variability::fixed;  // a parameter: data_1 in MAT
  r.columns[3].causality = Causality::parameter;
  return r;
}

class ResultsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("lsdae-results-test-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

inline WriterOptions writer_options(bool csv_units, bool csv_events, const std::string& model) {
  WriterOptions o;
  o.csv_units = csv_units;
  o.csv_events = csv_events;
  o.model_name = model;
  return o;
}


}  // namespace lsdae::results::test_rows

#endif  // LSDAE_TESTS_RUNTIME_RESULTS_RESULTS_FIXTURE_H
