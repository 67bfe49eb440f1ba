// tests/runtime/sweep/summary_rows.h -- reading a sweep's CSV summary in the
// tests: the file's text, its records (sweep::parse_csv_record, the parser
// --resume uses), and the rows by scenario id without the wall time
// (column 6), which differs from run to run; an id twice is a failure.
#ifndef LSDAE_TESTS_RUNTIME_SWEEP_SUMMARY_ROWS_H
#define LSDAE_TESTS_RUNTIME_SWEEP_SUMMARY_ROWS_H

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "sweep/csv_line.h"

namespace lsdae::test {

inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline std::vector<std::vector<std::string>> read_csv(const std::filesystem::path& path) {
  const std::string text = read_text(path);
  std::vector<std::vector<std::string>> rows;
  std::size_t pos = 0;
  while (pos < text.size()) rows.push_back(sweep::parse_csv_record(text, pos));
  return rows;
}

inline std::map<std::string, std::vector<std::string>> rows_by_id(const std::filesystem::path& summary) {
  auto rows = read_csv(summary);
  std::map<std::string, std::vector<std::string>> out;
  EXPECT_FALSE(rows.empty()) << summary;
  for (std::size_t r = 1; r < rows.size(); ++r) {
    auto row = rows[r];
    EXPECT_GE(row.size(), 6u);
    if (row.size() >= 6) row[5].clear();
    EXPECT_TRUE(out.emplace(row[0], row).second) << "id " << row[0] << " twice";
  }
  return out;
}

}  // namespace lsdae::test

#endif  // LSDAE_TESTS_RUNTIME_SWEEP_SUMMARY_ROWS_H
