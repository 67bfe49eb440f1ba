// runtime/results/hdf5_reader.cpp -- reading an HDF5 result (hdf5_writer.h's
// layout) with libhdf5's C API, for result_reader.h. Only the selected
// columns' values are read (one hyperslab per column), so plotting two
// variables of a 10^5-column file reads two columns.
#include <hdf5.h>

#include <array>
#include <system_error>

#include "lsdae/error.h"
#include "results/hdf5_handle.h"
#include "results/result_reader.h"

namespace lsdae::results {
namespace {

[[noreturn]] void refuse_hdf5(const std::filesystem::path& path, const std::string& what, const std::string& seen,
                      const std::string& todo) {
  throw Error(ErrorKind::usage, "result file " + path.string() + " → " + what + " → " + seen + " → " + todo);
}

bool exists(hid_t where, const char* name) { return H5Lexists(where, name, H5P_DEFAULT) > 0; }

// The extent of dataset `set` (rank 1 or 2).
std::array<hsize_t, 2> extent(hid_t set) {
  hdf5::Handle space(H5Dget_space(set), H5Sclose);
  std::array<hsize_t, 2> d{0, 1};
  if (!space.valid() || H5Sget_simple_extent_ndims(space.get()) > 2) return {0, 0};
  H5Sget_simple_extent_dims(space.get(), d.data(), nullptr);
  return d;
}

std::vector<std::string> read_strings(const std::filesystem::path& path, hid_t group, const char* name) {
  hdf5::Handle set(H5Dopen2(group, name, H5P_DEFAULT), H5Dclose);
  if (!set.valid()) refuse_hdf5(path, "has no dataset " + std::string(name), "it is missing", "give a file written by lsdae simulate");
  hdf5::Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
  H5Tset_size(type.get(), H5T_VARIABLE);
  H5Tset_cset(type.get(), H5T_CSET_UTF8);
  const auto d = extent(set.get());
  std::vector<char*> raw(d[0], nullptr);
  if (!raw.empty() && H5Dread(set.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, raw.data()) < 0)
    refuse_hdf5(path, "dataset " + std::string(name) + " cannot be read", "HDF5 refused it", "the file is damaged");
  std::vector<std::string> out;
  for (char* s : raw) out.emplace_back(s ? s : "");
  if (!raw.empty()) {
    hdf5::Handle space(H5Dget_space(set.get()), H5Sclose);
    H5Dvlen_reclaim(type.get(), space.get(), H5P_DEFAULT, raw.data());
  }
  return out;
}

}  // namespace

ResultTable read_hdf5_result(const std::filesystem::path& path, const NameFilter& wanted, NonNumeric non_numeric) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    refuse_hdf5(path, "cannot be opened", "no such file", "check the path (write it with lsdae simulate -o r.h5)");
  if (H5Fis_hdf5(path.c_str()) <= 0)
    refuse_hdf5(path, "is not an HDF5 file", "its signature is missing", "give a file written by lsdae simulate -o r.h5");
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // lsdae reports the errors itself
  hdf5::Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (!file.valid()) refuse_hdf5(path, "cannot be opened", "HDF5 refused it", "the file is damaged");
  if (!exists(file.get(), "time"))
    refuse_hdf5(path, "is not an lsdae result", "it has no /time dataset", "give a file written by lsdae simulate");
  ResultTable table;
  {
    hdf5::Handle set(H5Dopen2(file.get(), "time", H5P_DEFAULT), H5Dclose);
    table.time.resize(extent(set.get())[0]);
    if (!table.time.empty() &&
        H5Dread(set.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, table.time.data()) < 0)
      refuse_hdf5(path, "/time cannot be read", "HDF5 refused it", "the file is damaged");
  }
  const hsize_t rows = table.time.size();
  struct Found {
    std::size_t column;
    std::string group;
    hsize_t index;
    ResultSeries series;
  };
  std::vector<Found> found;
  static const char* const kNumeric[] = {"Float64", "Float32", "Int8",   "UInt8",   "Int16",       "UInt16", "Int32",
                                         "UInt32",  "Int64",   "UInt64", "Boolean", "Enumeration"};
  for (const char* type_name : {"Float64", "Float32", "Int8", "UInt8", "Int16", "UInt16", "Int32", "UInt32", "Int64",
                                "UInt64", "Boolean", "Enumeration", "String", "Binary"}) {
    if (!exists(file.get(), type_name)) continue;
    bool numeric = false;
    for (const char* n : kNumeric) numeric = numeric || std::string(n) == type_name;
    hdf5::Handle group(H5Gopen2(file.get(), type_name, H5P_DEFAULT), H5Gclose);
    const auto names = read_strings(path, group.get(), "name");
    std::vector<std::string> units = exists(group.get(), "unit") ? read_strings(path, group.get(), "unit")
                                                                 : std::vector<std::string>(names.size());
    std::vector<unsigned long long> columns(names.size());
    if (exists(group.get(), "column")) {
      hdf5::Handle set(H5Dopen2(group.get(), "column", H5P_DEFAULT), H5Dclose);
      if (extent(set.get())[0] == names.size() && !columns.empty())
        H5Dread(set.get(), H5T_NATIVE_ULLONG, H5S_ALL, H5S_ALL, H5P_DEFAULT, columns.data());
    }
    for (std::size_t k = 0; k < names.size(); ++k) {
      table.all_names.push_back(names[k]);
      if (!wanted(names[k])) continue;
      if (!numeric && non_numeric == NonNumeric::skip) {
        table.skipped.push_back(names[k]);
        continue;
      }
      if (!numeric)
        refuse_hdf5(path, "column \"" + names[k] + "\" is not numeric", std::string("a ") + type_name + " variable",
            "leave it out of --vars (only numbers can be plotted)");
      found.push_back({static_cast<std::size_t>(columns[k]), type_name, k,
                       {names[k], k < units.size() ? units[k] : "", {}}});
    }
  }
  std::stable_sort(found.begin(), found.end(), [](const Found& a, const Found& b) { return a.column < b.column; });
  for (auto& f : found) {
    hdf5::Handle group(H5Gopen2(file.get(), f.group.c_str(), H5P_DEFAULT), H5Gclose);
    hdf5::Handle set(H5Dopen2(group.get(), "values", H5P_DEFAULT), H5Dclose);
    const auto d = extent(set.get());
    if (!set.valid() || d[0] < rows || f.index >= d[1])
      refuse_hdf5(path, "/" + f.group + "/values is too small", std::to_string(d[0]) + " × " + std::to_string(d[1]),
          "the file is damaged");
    f.series.values.resize(rows);
    if (rows > 0) {
      hdf5::Handle space(H5Dget_space(set.get()), H5Sclose);
      const hsize_t start[2] = {0, f.index}, count[2] = {rows, 1};
      H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, start, nullptr, count, nullptr);
      hdf5::Handle memory(H5Screate_simple(2, count, nullptr), H5Sclose);
      if (H5Dread(set.get(), H5T_NATIVE_DOUBLE, memory.get(), space.get(), H5P_DEFAULT, f.series.values.data()) < 0)
        refuse_hdf5(path, "the values of \"" + f.series.name + "\" cannot be read", "HDF5 refused them", "the file is damaged");
    }
    table.series.push_back(std::move(f.series));
  }
  return table;
}

std::string read_hdf5_statistics(const std::filesystem::path& path) {
  if (H5Fis_hdf5(path.c_str()) <= 0) return {};
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  hdf5::Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (!file.valid() || H5Aexists(file.get(), "statistics") <= 0) return {};
  hdf5::Handle attribute(H5Aopen(file.get(), "statistics", H5P_DEFAULT), H5Aclose);
  hdf5::Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
  H5Tset_size(type.get(), H5T_VARIABLE);
  H5Tset_cset(type.get(), H5T_CSET_UTF8);
  char* text = nullptr;
  if (!attribute.valid() || H5Aread(attribute.get(), type.get(), &text) < 0 || text == nullptr) return {};
  std::string out(text);
  H5free_memory(text);
  return out;
}

}  // namespace lsdae::results
