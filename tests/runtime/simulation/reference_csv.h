// tests/runtime/simulation/reference_csv.h -- the models' reference solutions
// (models/<model>/reference/*.csv: a header of names, '#' comments, numbers).
#ifndef LSDAE_TESTS_RUNTIME_SIMULATION_REFERENCE_CSV_H
#define LSDAE_TESTS_RUNTIME_SIMULATION_REFERENCE_CSV_H

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace lsdae::test {

struct Csv {
  std::vector<std::string> names;
  std::vector<std::vector<double>> rows;
  std::size_t column(const std::string& name) const {
    for (std::size_t i = 0; i < names.size(); ++i)
      if (names[i] == name) return i;
    throw std::runtime_error("no column " + name);
  }
};

inline Csv read_csv(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in) << path;
  Csv csv;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::stringstream fields(line);
    std::string field;
    if (csv.names.empty()) {
      while (std::getline(fields, field, ',')) csv.names.push_back(field);
      continue;
    }
    std::vector<double> row;
    while (std::getline(fields, field, ',')) row.push_back(std::stod(field));
    csv.rows.push_back(std::move(row));
  }
  return csv;
}

// models/<relative> in the source tree (LSDAE_SOURCE_DIR).
inline std::string reference(const std::string& relative) {
  return std::string(LSDAE_SOURCE_DIR) + "/models/" + relative;
}

}  // namespace lsdae::test

#endif  // LSDAE_TESTS_RUNTIME_SIMULATION_REFERENCE_CSV_H
