// tests/models/psse/file_text.h -- a test's data file read whole, so that a
// test can edit a shipped case before parsing it (parse_raw, parse_dyr).
#ifndef LSDAE_TESTS_MODELS_PSSE_FILE_TEXT_H
#define LSDAE_TESTS_MODELS_PSSE_FILE_TEXT_H

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace lsdae::psse::test {

// The file's bytes; a missing file fails the test (and gives "").
inline std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << path;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace lsdae::psse::test

#endif  // LSDAE_TESTS_MODELS_PSSE_FILE_TEXT_H
