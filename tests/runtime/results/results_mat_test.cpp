// tests/runtime/results/results_mat_test.cpp -- runtime/results/mat_writer:
// the MAT file read back with matio: Dymola's layout, numbers bitwise, a file
// cut back to its counted rows after a kill, a full disk as an output error.
#include <gtest/gtest.h>
#include <matio.h>

#include <fcntl.h>
#include <sys/resource.h>
#include <csignal>
#include <unistd.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "lsdae/error.h"
#include "results/mat_writer.h"
#include "results/result_writer.h"
#include "results_fixture.h"

namespace lsdae::results {
namespace {

namespace fs = std::filesystem;
using test_rows::FakeRow;
using test_rows::ResultsTest;
using test_rows::typed_row;
using test_rows::writer_options;

std::vector<std::string> text_columns(matvar_t* v) {
  std::vector<std::string> out;
  const char* chars = static_cast<const char*>(v->data);
  for (std::size_t c = 0; c < v->dims[1]; ++c) {
    std::string s(chars + c * v->dims[0], v->dims[0]);
    s.erase(s.find_last_not_of(' ') + 1);
    out.push_back(s);
  }
  return out;
}

TEST_F(ResultsTest, MatHasTheDymolaLayoutAndRoundTripsNumbersBitwise) {
  FakeRow row = typed_row();
  const fs::path path = dir_ / "r.mat";
  const std::size_t rows = 50;
  {
    MatWriter w(path, row.columns);
    EXPECT_EQ(w.left_out(), 1u) << "the String column";
    for (std::size_t k = 0; k < rows; ++k) {
      row.set(k);
      w.write_row(0.25 * static_cast<double>(k), row, RowKind::ordinary);
    }
    w.finish("{}");
  }
  mat_t* mat = Mat_Open(path.c_str(), MAT_ACC_RDONLY);
  ASSERT_NE(mat, nullptr);
  EXPECT_EQ(Mat_GetVersion(mat), MAT_FT_MAT4);
  std::map<std::string, matvar_t*> vars;
  for (matvar_t* v; (v = Mat_VarReadNext(mat)) != nullptr;) vars[v->name] = v;
  for (const char* name : {"Aclass", "name", "description", "dataInfo", "data_1", "data_2"})
    ASSERT_TRUE(vars.count(name)) << name;
  EXPECT_EQ(text_columns(vars["Aclass"]).size(), 11u);
  const auto names = text_columns(vars["name"]);
  EXPECT_EQ(names, (std::vector<std::string>{"time", "tiny", "x", "f", "count", "on", "big"}));
  const auto descriptions = text_columns(vars["description"]);
  EXPECT_EQ(descriptions[2], "the x [m]");
  EXPECT_EQ(descriptions[3], "the f [kg]");
  matvar_t* info = vars["dataInfo"];
  ASSERT_EQ(info->dims[0], 4u);
  ASSERT_EQ(info->dims[1], 7u);
  // The file holds int32 (MAT v4 type 20); matio reads v4 numbers as doubles.
  std::vector<std::int32_t> di(28);
  for (std::size_t k = 0; k < 28; ++k)
    di[k] = info->data_type == MAT_T_INT32 ? static_cast<const std::int32_t*>(info->data)[k]
                                           : static_cast<std::int32_t>(static_cast<const double*>(info->data)[k]);
  EXPECT_EQ(di[0], 0);
  EXPECT_EQ(di[1], 1);
  EXPECT_EQ(di[4 * 1 + 0], 1) << "tiny is a parameter: data_1";
  EXPECT_EQ(di[4 * 1 + 1], 2);
  EXPECT_EQ(di[4 * 2 + 0], 2) << "x is a series: data_2";
  EXPECT_EQ(di[4 * 2 + 1], 2);
  EXPECT_EQ(di[4 * 6 + 1], 6);
  matvar_t* d1 = vars["data_1"];
  ASSERT_EQ(d1->dims[0], 2u);
  ASSERT_EQ(d1->dims[1], 2u);
  const auto* p = static_cast<const double*>(d1->data);
  row.set(0);
  EXPECT_EQ(p[0], 0.0);
  EXPECT_EQ(std::bit_cast<std::uint64_t>(p[1]), std::bit_cast<std::uint64_t>(row.reals[3]));
  EXPECT_EQ(p[2], 0.25 * (rows - 1)) << "the second time point: the last row's";
  matvar_t* d2 = vars["data_2"];
  ASSERT_EQ(d2->dims[0], 6u);
  ASSERT_EQ(d2->dims[1], rows);
  const auto* s = static_cast<const double*>(d2->data);
  for (std::size_t k = 0; k < rows; ++k) {
    row.set(k);
    const double* c = s + 6 * k;
    ASSERT_EQ(c[0], 0.25 * static_cast<double>(k));
    ASSERT_EQ(std::bit_cast<std::uint64_t>(c[1]), std::bit_cast<std::uint64_t>(row.reals[1]));
    ASSERT_EQ(c[2], row.reals[2]);
    ASSERT_EQ(c[3], static_cast<double>(row.integers[4]));
    ASSERT_EQ(c[4], static_cast<double>(row.integers[5]));
    ASSERT_EQ(c[5], static_cast<double>(row.unsigned_integers[6]));
  }
  for (auto& [name, v] : vars) Mat_VarFree(v);
  Mat_Close(mat);
}

TEST_F(ResultsTest, MatAfterAKillIsCutBackToItsCountedRows) {
  FakeRow row = typed_row();
  const fs::path path = dir_ / "r.mat";
  {
    MatWriter w(path, row.columns);
    for (std::size_t k = 0; k < 4; ++k) {
      row.set(k);
      w.write_row(static_cast<double>(k), row, RowKind::ordinary);
    }
  }
  const auto complete = fs::file_size(path);
  {  // half a row more, as a process killed while appending leaves it
    std::ofstream out(path, std::ios::app | std::ios::binary);
    out << std::string(20, '\x7f');
  }
  keep_complete_rows(path, ResultFormat::mat);
  EXPECT_EQ(fs::file_size(path), complete);
  mat_t* mat = Mat_Open(path.c_str(), MAT_ACC_RDONLY);
  ASSERT_NE(mat, nullptr);
  matvar_t* d2 = Mat_VarRead(mat, "data_2");
  ASSERT_NE(d2, nullptr);
  EXPECT_EQ(d2->dims[1], 4u);
  Mat_VarFree(d2);
  Mat_Close(mat);
}

TEST_F(ResultsTest, MatOnAFullDiskIsAnOutputError) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  FakeRow row = typed_row();
  row.set(0);
  try {
    MatWriter w("/dev/full", row.columns);
    w.write_row(0.0, row, RowKind::ordinary);
    FAIL() << "a full device cannot hold the rows";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::output) << e.what();
  }
}

}  // namespace
}  // namespace lsdae::results
