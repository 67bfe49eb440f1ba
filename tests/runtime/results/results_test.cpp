// tests/runtime/results/results_test.cpp -- runtime/results/: the format
// choice, and the CSV and HDF5 writers' files read back (HDF5's C API):
// values bitwise, names, units, events, typed columns. MAT: results_mat_test.cpp.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <fcntl.h>
#include <sys/resource.h>
#include <csignal>
#include <unistd.h>

#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "lsdae/error.h"
#include "results/csv_writer.h"
#include "results/hdf5_writer.h"
#include "results/result_reader.h"
#include "results/result_writer.h"
#include "mixed_chunks.h"
#include "results_fixture.h"

namespace lsdae::results {
namespace {

namespace fs = std::filesystem;

using test_rows::FakeRow;
using test_rows::ResultsTest;
using test_rows::typed_row;
using test_rows::writer_options;

TEST(ResultFormat, FollowsTheExtensionOrFormat) {
  EXPECT_EQ(result_format_for("r.csv", ""), ResultFormat::csv);
  EXPECT_EQ(result_format_for("r.H5", ""), ResultFormat::hdf5);
  EXPECT_EQ(result_format_for("dir.x/r.hdf5", ""), ResultFormat::hdf5);
  EXPECT_EQ(result_format_for("r.mat", ""), ResultFormat::mat);
  EXPECT_EQ(result_format_for("/dev/full", ""), ResultFormat::csv) << "no extension: CSV, as before";
  EXPECT_EQ(result_format_for("-", ""), ResultFormat::csv);
  EXPECT_EQ(result_format_for("r.out", "mat"), ResultFormat::mat);
  try {
    result_format_for("r.txt", "");
    FAIL() << "an unknown extension is refused";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::usage);
    EXPECT_NE(std::string(e.what()).find(".txt"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("--format"), std::string::npos) << e.what();
  }
  EXPECT_THROW(result_format_for("-", "hdf5"), Error);
  EXPECT_THROW(result_format_for("r.csv", "xlsx"), Error);
}

TEST_F(ResultsTest, CsvHasTypedColumnsAndAUnitsLine) {
  FakeRow row = typed_row();
  const fs::path path = dir_ / "r.csv";
  {
    auto w = open_result_writer(ResultFormat::csv, path, row.columns, writer_options(true, false, "M"));
    row.set(0);
    w->write_row(0.0, row, RowKind::ordinary);
    row.set(1);
    row.reals[2] = static_cast<double>(0.1f);
    w->write_row(0.5, row, RowKind::before_event);
    w->finish("{}");
    EXPECT_EQ(w->rows(), 2u);
  }
  std::ifstream in(path);
  std::string header, units, first, second;
  std::getline(in, header);
  std::getline(in, units);
  std::getline(in, first);
  std::getline(in, second);
  EXPECT_NE(second.find(",0.1,"), std::string::npos) << "a Float32 prints as the float it is: " << second;
  EXPECT_EQ(header, "time,label,x,f,tiny,count,on,big");
  EXPECT_EQ(units, "s,,m,kg,,1,,");
  EXPECT_EQ(first, "0,\"s,\"\"0\",0.3333333333333333,0,1.0000000000000002e-300,-2147483647,0,18446744073709551615");
}

// --csv-events: an "event" column after time, 1 and 2 on the rows around an
// event (same time), 0 elsewhere; a variable already named "event" is refused.
TEST_F(ResultsTest, CsvEventColumnMarksTheRowsAroundAnEvent) {
  FakeRow row = typed_row();
  row.columns.resize(2);  // label, x
  const fs::path path = dir_ / "e.csv";
  {
    auto w = open_result_writer(ResultFormat::csv, path, row.columns, writer_options(true, true, "M"));
    row.set(0);
    w->write_row(0.0, row, RowKind::ordinary);
    w->write_row(0.25, row, RowKind::before_event);
    row.set(1);
    w->write_row(0.25, row, RowKind::after_event);
    w->write_row(0.5, row, RowKind::ordinary);
    w->finish("{}");
  }
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), 6u);
  EXPECT_EQ(lines[0], "time,event,label,x");
  EXPECT_EQ(lines[1], "s,,,m");
  EXPECT_EQ(lines[2].substr(0, 4), "0,0,");
  EXPECT_EQ(lines[3].substr(0, 7), "0.25,1,");
  EXPECT_EQ(lines[4].substr(0, 7), "0.25,2,");
  EXPECT_EQ(lines[5].substr(0, 6), "0.5,0,");
  row.columns[1].name = "event";
  try {
    open_result_writer(ResultFormat::csv, dir_ / "f.csv", row.columns, writer_options(false, true, "M"));
    FAIL() << "a second column named event";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::usage);
    EXPECT_NE(std::string(e.what()).find("--csv-events"), std::string::npos) << e.what();
  }
}

// HDF5 read-back helpers (the C API, as another program would).
template <typename T>
std::vector<T> read_all(hid_t file, const char* name, hid_t memory_type, std::vector<hsize_t>* dims = nullptr) {
  hid_t set = H5Dopen2(file, name, H5P_DEFAULT);
  EXPECT_GE(set, 0) << name;
  hid_t space = H5Dget_space(set);
  hsize_t d[2] = {0, 1};
  const int rank = H5Sget_simple_extent_dims(space, d, nullptr);
  std::vector<T> out(static_cast<std::size_t>(d[0] * (rank == 2 ? d[1] : 1)));
  if (!out.empty()) {
    EXPECT_GE(H5Dread(set, memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()), 0) << name;
  }
  if (dims) dims->assign(d, d + rank);
  H5Sclose(space);
  H5Dclose(set);
  return out;
}

std::vector<std::string> read_strings(hid_t file, const char* name) {
  hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, H5T_VARIABLE);
  H5Tset_cset(type, H5T_CSET_UTF8);
  std::vector<char*> raw = read_all<char*>(file, name, type);
  std::vector<std::string> out(raw.begin(), raw.end());
  hid_t set = H5Dopen2(file, name, H5P_DEFAULT);
  hid_t space = H5Dget_space(set);
  if (!raw.empty()) H5Dvlen_reclaim(type, space, H5P_DEFAULT, raw.data());
  H5Sclose(space);
  H5Dclose(set);
  H5Tclose(type);
  return out;
}

TEST_F(ResultsTest, Hdf5RoundTripsEveryTypeBitwiseWithNamesUnitsAndEvents) {
  FakeRow row = typed_row();
  const fs::path path = dir_ / "r.h5";
  const std::size_t rows = 2500;  // more than one block of 1024 rows
  {
    auto w = open_result_writer(ResultFormat::hdf5, path, row.columns, writer_options(false, false, "Model \"M\""));
    for (std::size_t k = 0; k < rows; ++k) {
      row.set(k);
      const RowKind kind = k == 7 ? RowKind::before_event : k == 8 ? RowKind::after_event : RowKind::ordinary;
      w->write_row(0.1 * static_cast<double>(k == 8 ? 7 : k), row, kind);
    }
    w->finish("{\"completed\": true}");
    EXPECT_EQ(w->rows(), rows);
  }
  hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  std::vector<hsize_t> dims;
  auto time = read_all<double>(file, "time", H5T_NATIVE_DOUBLE, &dims);
  ASSERT_EQ(time.size(), rows);
  EXPECT_EQ(time[7], time[8]) << "the rows before and after an event share the time";
  auto events = read_all<signed char>(file, "event", H5T_NATIVE_SCHAR);
  EXPECT_EQ(events[6], 0);
  EXPECT_EQ(events[7], 1);
  EXPECT_EQ(events[8], 2);
  auto x = read_all<double>(file, "Float64/values", H5T_NATIVE_DOUBLE, &dims);
  ASSERT_EQ(dims, (std::vector<hsize_t>{rows, 2}));
  EXPECT_EQ(read_strings(file, "Float64/name"), (std::vector<std::string>{"x", "tiny"}));
  EXPECT_EQ(read_strings(file, "Float64/unit"), (std::vector<std::string>{"m", ""}));
  EXPECT_EQ(read_strings(file, "Float64/causality"), (std::vector<std::string>{"output", "parameter"}));
  EXPECT_EQ(read_all<std::uint64_t>(file, "Float64/column", H5T_NATIVE_UINT64), (std::vector<std::uint64_t>{1, 3}));
  auto f = read_all<float>(file, "Float32/values", H5T_NATIVE_FLOAT);
  auto count = read_all<std::int32_t>(file, "Int32/values", H5T_NATIVE_INT32);
  auto on = read_all<std::uint8_t>(file, "Boolean/values", H5T_NATIVE_UINT8);
  auto big = read_all<std::uint64_t>(file, "UInt64/values", H5T_NATIVE_UINT64);
  auto label = read_strings(file, "String/values");
  for (std::size_t k = 0; k < rows; ++k) {
    row.set(k);
    ASSERT_EQ(std::bit_cast<std::uint64_t>(x[2 * k]), std::bit_cast<std::uint64_t>(row.reals[1])) << k;
    ASSERT_EQ(std::bit_cast<std::uint64_t>(x[2 * k + 1]), std::bit_cast<std::uint64_t>(row.reals[3])) << k;
    ASSERT_EQ(static_cast<double>(f[k]), row.reals[2]) << k;
    ASSERT_EQ(count[k], row.integers[4]) << k;
    ASSERT_EQ(on[k], row.integers[5]) << k;
    ASSERT_EQ(big[k], row.unsigned_integers[6]) << k;
    ASSERT_EQ(label[k], row.texts[0]) << k;
  }
  // Read back for plotting: the String column is refused, or skipped when asked.
  EXPECT_THROW(read_hdf5_result(path, [](const std::string&) { return true; }), Error);
  const ResultTable numeric =
      read_hdf5_result(path, [](const std::string&) { return true; }, NonNumeric::skip);
  EXPECT_EQ(numeric.series.size(), row.columns.size() - 1);
  EXPECT_EQ(numeric.skipped, (std::vector<std::string>{"label"}));
  // The file's attributes: model and the statistics.
  hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, H5T_VARIABLE);
  for (const auto& [name, expected] : {std::pair<std::string, std::string>{"statistics", "{\"completed\": true}"},
                                       {"model", "Model \"M\""}}) {
    hid_t a = H5Aopen(file, name.c_str(), H5P_DEFAULT);
    ASSERT_GE(a, 0) << name;
    char* text = nullptr;
    ASSERT_GE(H5Aread(a, type, &text), 0);
    EXPECT_EQ(std::string(text), expected);
    H5free_memory(text);
    H5Aclose(a);
  }
  H5Tclose(type);
  H5Fclose(file);
}

TEST_F(ResultsTest, Hdf5WithoutFinishStillHoldsTheFlushedRows) {
  FakeRow row = typed_row();
  const fs::path path = dir_ / "r.h5";
  {
    Hdf5Writer w(path, row.columns, "M");
    for (std::size_t k = 0; k < 3; ++k) {
      row.set(k);
      w.write_row(static_cast<double>(k), row, RowKind::ordinary);
    }
    // Read while the writer is open, as after a kill: the first row is flushed at once.
    hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ASSERT_GE(file, 0) << "the file opens while being written";
    auto time = read_all<double>(file, "time", H5T_NATIVE_DOUBLE);
    EXPECT_GE(time.size(), 1u);
    H5Fclose(file);
  }
}

TEST_F(ResultsTest, Hdf5BlockFitsWideRows) {
  std::vector<Column> wide(200000);
  for (std::size_t c = 0; c < wide.size(); ++c) wide[c].name = "v" + std::to_string(c);
  Hdf5Writer w(dir_ / "wide.h5", wide, "M");
  EXPECT_EQ(w.block_rows(), 2u) << "about 4 MiB of 1.6 MB rows";
}

TEST_F(ResultsTest, Hdf5DeflateLevelZeroWritesNoFilter) {
  FakeRow row = typed_row();
  for (int level : {0, 1}) {
    const fs::path path = dir_ / ("d" + std::to_string(level) + ".h5");
    {
      Hdf5Writer w(path, row.columns, "M", level);
      row.set(0);
      w.write_row(0.0, row, RowKind::ordinary);
      w.finish("{}");
    }
    hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t set = H5Dopen2(file, "Float64/values", H5P_DEFAULT);
    hid_t dcpl = H5Dget_create_plist(set);
    EXPECT_EQ(H5Pget_nfilters(dcpl), level == 0 ? 0 : 2) << "shuffle and deflate at level " << level;
    H5Pclose(dcpl);
    H5Dclose(set);
    H5Fclose(file);
  }
}

// The writer thread writes and flushes behind the run: many blocks of wide
// rows, read back whole, every value bitwise and in order.
TEST_F(ResultsTest, Hdf5WriterThreadKeepsEveryBlockInOrder) {
  std::vector<Column> wide(3000);
  for (std::size_t c = 0; c < wide.size(); ++c) wide[c].name = "w" + std::to_string(wide.size() - c);
  struct Wide final : RowValues {
    std::size_t n = 0, row = 0;
    std::size_t size() const override { return n; }
    ValueStorage storage(std::size_t) const override { return ValueStorage::real; }
    double real(std::size_t c) const override { return std::sin(1e-3 * static_cast<double>(row * n + c)) / 7.0; }
    std::int64_t integer(std::size_t) const override { return 0; }
    std::uint64_t unsigned_integer(std::size_t) const override { return 0; }
    std::string text(std::size_t) const override { return {}; }
    void append_text(std::size_t, std::string&) const override {}
  } row;
  row.n = wide.size();
  const fs::path path = dir_ / "wide.h5";
  const std::size_t rows = 1000;  // block of 174 rows: five full blocks and a partial one
  {
    Hdf5Writer w(path, wide, "M");
    ASSERT_LT(w.block_rows() * 5, rows);
    for (row.row = 0; row.row < rows; ++row.row) w.write_row(0.5 * static_cast<double>(row.row), row, RowKind::ordinary);
    w.finish("{}");
  }
  hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  std::vector<hsize_t> dims;
  auto values = read_all<double>(file, "Float64/values", H5T_NATIVE_DOUBLE, &dims);
  auto time = read_all<double>(file, "time", H5T_NATIVE_DOUBLE);
  H5Fclose(file);
  ASSERT_EQ(dims, (std::vector<hsize_t>{rows, wide.size()}));
  for (row.row = 0; row.row < rows; ++row.row) {
    ASSERT_EQ(time[row.row], 0.5 * static_cast<double>(row.row));
    for (std::size_t c = 0; c < wide.size(); c += 7)
      ASSERT_EQ(std::bit_cast<std::uint64_t>(values[row.row * wide.size() + c]),
                std::bit_cast<std::uint64_t>(row.real(c)))
          << row.row << " " << c;
  }
}

// A failure of the writer thread (here the file-size limit) reaches the run
// as Error(output) from write_row() or finish(), never lost, never a crash.
TEST_F(ResultsTest, Hdf5WriterThreadFailureIsAnOutputError) {
  std::vector<Column> wide(2000);
  for (std::size_t c = 0; c < wide.size(); ++c) wide[c].name = "v" + std::to_string(c);
  struct Noise final : RowValues {
    std::size_t row = 0;
    std::size_t size() const override { return 2000; }
    ValueStorage storage(std::size_t) const override { return ValueStorage::real; }
    double real(std::size_t c) const override { return std::cos(static_cast<double>(row * 2000 + c)); }
    std::int64_t integer(std::size_t) const override { return 0; }
    std::uint64_t unsigned_integer(std::size_t) const override { return 0; }
    std::string text(std::size_t) const override { return {}; }
    void append_text(std::size_t, std::string&) const override {}
  } row;
  rlimit old{};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old), 0);
  auto previous_handler = std::signal(SIGXFSZ, SIG_IGN);
  rlimit small = old;
  small.rlim_cur = 2u << 20;  // 2 MiB: half a block of these rows
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  std::string message;
  try {
    Hdf5Writer w(dir_ / "limited.h5", wide, "M");
    for (row.row = 0; row.row < 5000; ++row.row) w.write_row(static_cast<double>(row.row), row, RowKind::ordinary);
    w.finish("{}");
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::output);
    message = e.what();
  }
  ::setrlimit(RLIMIT_FSIZE, &old);
  std::signal(SIGXFSZ, previous_handler);
  ASSERT_FALSE(message.empty()) << "40 MB of rows under a 2 MiB limit must fail";
  EXPECT_NE(message.find("limited.h5"), std::string::npos) << message;
  EXPECT_NE(message.find("rows of its last flush"), std::string::npos) << message;
}

std::uint64_t statistic(const std::vector<std::pair<std::string, std::uint64_t>>& statistics, const std::string& name) {
  for (const auto& [key, count] : statistics)
    if (key == name) return count;
  ADD_FAILURE() << "no statistic " << name;
  return 0;
}

// One dataset holding deflated and raw chunks (H5Dwrite_chunk's filter mask)
// reads back bitwise through HDF5's C API and lsdae's own reader; the
// statistics count each kind.
TEST_F(ResultsTest, Hdf5DatasetMixingCompressedAndRawChunksReadsBackBitwise) {
  namespace mixed = mixed_chunks;
  const fs::path path = dir_ / "mixed.h5";
  const auto statistics = mixed::write(path);
  EXPECT_EQ(statistic(statistics, "chunks"), 4u) << "2 row blocks × 2 chunk columns";
  EXPECT_EQ(statistic(statistics, "chunks_compressed"), 2u);
  EXPECT_EQ(statistic(statistics, "chunks_raw_incompressible"), 2u);
  EXPECT_EQ(statistic(statistics, "chunks_raw_writer_behind"), 0u) << "--hdf5-compress-all never stores raw to keep up";

  hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  hid_t set = H5Dopen2(file, "Float64/values", H5P_DEFAULT);
  ASSERT_GE(set, 0);
  for (hsize_t row : {hsize_t{0}, hsize_t{1024}})
    for (hsize_t column : {hsize_t{0}, hsize_t{128}}) {
      const hsize_t offset[2] = {row, column};
      unsigned mask = 99;
      haddr_t address = 0;
      hsize_t size = 0;
      ASSERT_GE(H5Dget_chunk_info_by_coord(set, offset, &mask, &address, &size), 0);
      if (column == 0) {
        EXPECT_EQ(mask, 0u) << "smooth columns: shuffled and deflated, chunk " << row;
        EXPECT_LT(size, 1024u * 128u * 8u / 2u);
      } else {
        EXPECT_EQ(mask, 0b11u) << "noise: both filters skipped, chunk " << row;
        EXPECT_EQ(size, 1024u * 128u * 8u);
      }
    }
  H5Dclose(set);
  std::vector<hsize_t> dims;
  auto values = read_all<double>(file, "Float64/values", H5T_NATIVE_DOUBLE, &dims);
  H5Fclose(file);
  ASSERT_EQ(dims, (std::vector<hsize_t>{mixed::kRows, mixed::kColumns}));
  for (std::size_t r = 0; r < mixed::kRows; ++r)
    for (std::size_t c = 0; c < mixed::kColumns; ++c)
      ASSERT_EQ(std::bit_cast<std::uint64_t>(values[r * mixed::kColumns + c]),
                std::bit_cast<std::uint64_t>(mixed::value(r, c)))
          << r << " " << c;

  const ResultTable table = read_hdf5_result(path, [](const std::string&) { return true; });
  ASSERT_EQ(table.series.size(), mixed::kColumns);
  ASSERT_EQ(table.time.size(), mixed::kRows);
  for (std::size_t c = 0; c < mixed::kColumns; ++c) {
    EXPECT_EQ(table.series[c].name, "m" + std::to_string(c));
    EXPECT_EQ(table.series[c].unit, "V");
    for (std::size_t r = 0; r < mixed::kRows; ++r)
      ASSERT_EQ(std::bit_cast<std::uint64_t>(table.series[c].values[r]),
                std::bit_cast<std::uint64_t>(mixed::value(r, c)))
          << r << " " << c;
  }
  EXPECT_NE(read_hdf5_statistics(path).find("\"chunks_raw_incompressible\": 2"), std::string::npos);
}

// A short run (all its rows in one block, written after the last row) is
// compressed whole by default, however late the writer thread runs: the
// first MiB after the last row is compressed regardless of the time.
TEST_F(ResultsTest, Hdf5ShortRunIsCompressedWhole) {
  FakeRow row = typed_row();
  const fs::path path = dir_ / "short.h5";
  Hdf5Writer w(path, row.columns, "M");
  for (std::size_t k = 0; k < 500; ++k) {
    row.set(k);
    w.write_row(static_cast<double>(k), row, RowKind::ordinary);
  }
  w.close_rows();
  const auto statistics = w.statistics();
  w.finish("{}");
  EXPECT_EQ(statistic(statistics, "chunks"), 5u) << "Float64, Float32, Int32, Boolean, UInt64: a chunk each";
  EXPECT_EQ(statistic(statistics, "chunks_compressed"), 5u);
  hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  for (const char* name : {"Float64/values", "Float32/values", "Int32/values", "Boolean/values", "UInt64/values"}) {
    hid_t set = H5Dopen2(file, name, H5P_DEFAULT);
    const hsize_t origin[2] = {0, 0};
    unsigned mask = 99;
    haddr_t address = 0;
    hsize_t size = 0;
    ASSERT_GE(H5Dget_chunk_info_by_coord(set, origin, &mask, &address, &size), 0) << name;
    EXPECT_EQ(mask, 0u) << name;
    H5Dclose(set);
  }
  H5Fclose(file);
}

// By default the writer thread stores chunks raw rather than make the run
// wait: rows come much faster than deflate level 9 compresses them, so some
// chunks are raw, every value still bitwise; with compress_all none is.
TEST_F(ResultsTest, Hdf5StoresChunksRawWhenTheWriterThreadIsBehindUnlessToldToCompressAll) {
  std::vector<Column> wide(4000);
  for (std::size_t c = 0; c < wide.size(); ++c) wide[c].name = "v" + std::to_string(c);
  struct Slow final : RowValues {  // compressible, but slowly at level 9
    std::size_t row = 0;
    std::size_t size() const override { return 4000; }
    ValueStorage storage(std::size_t) const override { return ValueStorage::real; }
    double real(std::size_t c) const override {
      return std::round(std::sin(0.37 * static_cast<double>(row * 4000 + c)) * 4096.0) / 64.0;
    }
    std::int64_t integer(std::size_t) const override { return 0; }
    std::uint64_t unsigned_integer(std::size_t) const override { return 0; }
    std::string text(std::size_t) const override { return {}; }
    void append_text(std::size_t, std::string&) const override {}
  } row;
  const std::size_t rows = 2000;  // blocks of 131 rows: 16 blocks of 4 chunks
  for (bool compress_all : {false, true}) {
    const fs::path path = dir_ / (compress_all ? "all.h5" : "keep-up.h5");
    std::vector<std::pair<std::string, std::uint64_t>> statistics;
    {
      Hdf5Writer w(path, wide, "M", 9, compress_all);
      for (row.row = 0; row.row < rows; ++row.row) w.write_row(static_cast<double>(row.row), row, RowKind::ordinary);
      w.close_rows();
      statistics = w.statistics();
      w.finish("{}");
    }
    const std::uint64_t chunks = statistic(statistics, "chunks");
    EXPECT_EQ(chunks, 16u * 4u) << "every chunk of the 16 blocks counted once (the interim copies are not)";
    EXPECT_EQ(statistic(statistics, "chunks_compressed") + statistic(statistics, "chunks_raw_writer_behind") +
                  statistic(statistics, "chunks_raw_incompressible"),
              chunks);
    if (compress_all) {
      EXPECT_EQ(statistic(statistics, "chunks_raw_writer_behind"), 0u);
      EXPECT_EQ(statistic(statistics, "chunks_compressed"), chunks);
    } else {
      EXPECT_GT(statistic(statistics, "chunks_raw_writer_behind"), 0u) << "the run never waited for deflate 9";
    }
    hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ASSERT_GE(file, 0);
    std::vector<hsize_t> dims;
    auto values = read_all<double>(file, "Float64/values", H5T_NATIVE_DOUBLE, &dims);
    H5Fclose(file);
    ASSERT_EQ(dims, (std::vector<hsize_t>{rows, wide.size()}));
    for (row.row = 0; row.row < rows; ++row.row)
      for (std::size_t c = 0; c < wide.size(); c += 3)
        ASSERT_EQ(std::bit_cast<std::uint64_t>(values[row.row * wide.size() + c]),
                  std::bit_cast<std::uint64_t>(row.real(c)))
            << compress_all << " " << row.row << " " << c;
  }
}

TEST_F(ResultsTest, Hdf5CannotCreateIsAnOutputError) {
  try {
    Hdf5Writer w(dir_ / "no" / "such.h5", typed_row().columns, "M");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::output);
    EXPECT_NE(std::string(e.what()).find("such.h5"), std::string::npos) << e.what();
  }
}

// MAT read-back with matio.
}  // namespace
}  // namespace lsdae::results
