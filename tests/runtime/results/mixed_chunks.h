// tests/runtime/results/mixed_chunks.h -- an HDF5 result whose value dataset
// mixes deflated and raw chunks in one dataset (hdf5_writer.h): 256 Float64
// columns, chunked 1024 rows × 128 columns; columns 0..127 slowly varying
// (deflate shrinks them: compressed chunks), columns 128..255 random bit
// patterns of finite doubles (deflate cannot: raw chunks, filter mask 0b11);
// 2048 rows, two full blocks (the zeros padding a partial block's chunks
// would let deflate shrink even noise).
// Shared by results_test.cpp and write_mixed_chunks.cpp (which writes the
// file read_results.py and tests/python read with h5py and lsdae.read_result).
#ifndef LSDAE_TESTS_RUNTIME_RESULTS_MIXED_CHUNKS_H
#define LSDAE_TESTS_RUNTIME_RESULTS_MIXED_CHUNKS_H

#include <bit>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "results/hdf5_writer.h"
#include "results/row_values.h"

namespace lsdae::results::mixed_chunks {

constexpr std::size_t kColumns = 256, kRows = 2048, kSmoothColumns = 128;

inline std::uint64_t splitmix64(std::uint64_t x) {
  std::uint64_t z = x + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// The value of row r, column c (read_results.py computes the same).
inline double value(std::size_t r, std::size_t c) {
  if (c < kSmoothColumns) return static_cast<double>(r) + static_cast<double>(c) / 1024.0;
  std::uint64_t bits = splitmix64(r * kColumns + c);
  const std::uint64_t exponent = (bits >> 52) & 0x7FF;
  if (exponent == 0 || exponent == 0x7FF) bits = (bits & ~(0x7FFull << 52)) | (0x3FFull << 52);  // finite, normal
  return std::bit_cast<double>(bits);
}

struct Row final : RowValues {
  std::size_t row = 0;
  std::size_t size() const override { return kColumns; }
  ValueStorage storage(std::size_t) const override { return ValueStorage::real; }
  double real(std::size_t c) const override { return value(row, c); }
  std::int64_t integer(std::size_t) const override { return 0; }
  std::uint64_t unsigned_integer(std::size_t) const override { return 0; }
  std::string text(std::size_t) const override { return {}; }
  void append_text(std::size_t, std::string&) const override {}
};

inline std::vector<Column> columns() {
  std::vector<Column> out(kColumns);
  for (std::size_t c = 0; c < kColumns; ++c) {
    out[c].name = "m" + std::to_string(c);
    out[c].unit = "V";
  }
  return out;
}

// Writes the file (every chunk it can compress compressed: deterministic)
// and returns the writer's statistics.
inline std::vector<std::pair<std::string, std::uint64_t>> write(const std::filesystem::path& path) {
  Hdf5Writer w(path, columns(), "MixedChunks", 1, true);
  Row row;
  for (row.row = 0; row.row < kRows; ++row.row) w.write_row(0.25 * static_cast<double>(row.row), row, RowKind::ordinary);
  w.close_rows();
  auto statistics = w.statistics();
  std::string json = "{\"completed\": true, \"rows_written\": " + std::to_string(kRows) + ", \"results\": {";
  for (std::size_t k = 0; k < statistics.size(); ++k)
    json += (k == 0 ? "\"" : ", \"") + statistics[k].first + "\": " + std::to_string(statistics[k].second);
  w.finish(json + "}}");
  return statistics;
}

}  // namespace lsdae::results::mixed_chunks

#endif  // LSDAE_TESTS_RUNTIME_RESULTS_MIXED_CHUNKS_H
