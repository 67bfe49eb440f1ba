// runtime/sweep/summary_hdf5.h -- a sweep's summary as HDF5: the writer,
// the reader and the test of what is a summary, for summary_file.cpp, which
// chooses the format by the extension. The layout (/id, /status, /message,
// /reached_time, /steps, /wall_time_s, /metrics, /metric_names, /columns;
// chunks of 64 rows; each row flushed, then the root attribute
// complete_rows raised and flushed: it counts the complete rows), the resume rules and the
// errors are those of summary_file.h. Private to runtime/sweep/; it needs
// summary_format.h only, not summary_file.h.
#ifndef LSDAE_RUNTIME_SWEEP_SUMMARY_HDF5_H
#define LSDAE_RUNTIME_SWEEP_SUMMARY_HDF5_H

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "sweep/summary_format.h"

namespace lsdae::sweep {

// open_summary's HDF5 file: created, or continued when `existing` (resume).
std::unique_ptr<SummaryFile> make_hdf5_summary(const std::filesystem::path& path,
                                               const std::vector<std::string>& metrics, bool existing,
                                               const std::string& model, const SummaryWording& wording);
// read_summary of an HDF5 file: its complete rows.
SummaryTable read_hdf5_summary(const std::filesystem::path& path);
// is_summary of an HDF5 file: it opens, and has /columns, /id and /status.
bool is_hdf5_summary(const std::filesystem::path& path);

}  // namespace lsdae::sweep

#endif  // LSDAE_RUNTIME_SWEEP_SUMMARY_HDF5_H
