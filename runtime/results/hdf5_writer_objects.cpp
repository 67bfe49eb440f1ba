// runtime/results/hdf5_writer_objects.cpp -- the HDF5 objects an Hdf5Writer's layout is made
// of (hdf5_writer.h, "Layout" and "Chunks and compression"): a dataset of strings, a string
// attribute, an extendible chunked dataset (optionally shuffled and deflated, its chunk cache
// sized to hold a whole block row of chunks), and the one message of every failed write
// (Error(output): the file, the rows so far, what failed with HDF5's own cause, the rows on disk
// since the last flush, and what to do for ENOSPC / EFBIG / anything else).
#include <hdf5.h>

#include <algorithm>
#include <cerrno>
#include <string>
#include <vector>

#include "lsdae/error.h"
#include "results/hdf5_handle.h"
#include "results/hdf5_writer_impl.h"

namespace lsdae::results {

using hdf5::Handle;

[[noreturn]] void Hdf5Writer::Impl::fail(const std::string& what, std::size_t rows_so_far, std::size_t on_disk) {
  const std::string cause = hdf5::error_message();
  const int error_number = errno;
  throw Error(ErrorKind::output,
              "results: writing \"" + path.string() + "\" failed after " + std::to_string(rows_so_far) + " row" +
                  (rows_so_far == 1 ? "" : "s") + " (" + what + (cause.empty() ? "" : ": " + cause) +
                  "); the file holds the " + std::to_string(on_disk) + " rows of its last flush → " +
                  (error_number == ENOSPC ? "free disk space"
                   : error_number == EFBIG ? "raise the file-size limit (ulimit -f) or write fewer rows"
                                           : "check the disk and the path"));
}

void Hdf5Writer::Impl::check(herr_t status, const char* what) {
  if (status < 0) fail(what);
}

void Hdf5Writer::Impl::write_strings(hid_t parent, const char* name, const std::vector<std::string>& texts) {
  const hsize_t n = texts.size();
  Handle space(H5Screate_simple(1, &n, nullptr), H5Sclose);
  Handle set(H5Dcreate2(parent, name, vlen_string.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
             H5Dclose);
  if (!set.valid()) fail(std::string("creating ") + name);
  std::vector<const char*> pointers;
  pointers.reserve(texts.size());
  for (const auto& t : texts) pointers.push_back(t.c_str());
  if (n > 0) check(H5Dwrite(set.get(), vlen_string.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, pointers.data()), name);
}

void Hdf5Writer::Impl::string_attribute(hid_t object, const char* name, const std::string& value) {
  Handle space(H5Screate(H5S_SCALAR), H5Sclose);
  if (H5Aexists(object, name) > 0) H5Adelete(object, name);
  Handle attribute(H5Acreate2(object, name, vlen_string.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  if (!attribute.valid()) fail(std::string("creating the attribute ") + name);
  const char* text = value.c_str();
  check(H5Awrite(attribute.get(), vlen_string.get(), &text), name);
}

Handle Hdf5Writer::Impl::extendible(hid_t parent, const char* name, hid_t type, std::size_t width, std::size_t chunk_rows,
                  std::size_t chunk_columns, bool compress) {
  const int rank = width == 0 ? 1 : 2;
  const hsize_t dims[2] = {0, width}, max[2] = {H5S_UNLIMITED, width};
  const hsize_t chunk[2] = {chunk_rows, std::max<std::size_t>(chunk_columns, 1)};
  Handle space(H5Screate_simple(rank, dims, max), H5Sclose);
  Handle dcpl(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
  check(H5Pset_chunk(dcpl.get(), rank, chunk), "setting the chunk size");
  if (compress && filtered) {
    H5Pset_shuffle(dcpl.get());
    H5Pset_deflate(dcpl.get(), static_cast<unsigned>(deflate));
  }
  // The chunk cache holds a whole block row of chunks (written once per flush).
  Handle dapl(H5Pcreate(H5P_DATASET_ACCESS), H5Pclose);
  const std::size_t element = H5Tget_size(type);
  const std::size_t across = rank == 1 ? 1 : (width + chunk[1] - 1) / chunk[1];
  const std::size_t cache = std::max<std::size_t>(1u << 20, 2 * across * chunk[0] * chunk[1] * element);
  H5Pset_chunk_cache(dapl.get(), 12421, cache, 1.0);
  Handle set(H5Dcreate2(parent, name, type, space.get(), H5P_DEFAULT, dcpl.get(), dapl.get()), H5Dclose);
  if (!set.valid()) fail(std::string("creating ") + name);
  return set;
}

}  // namespace lsdae::results
