// runtime/import/archive.h -- safe extraction of an .fmu (zip) archive.
//
// Algorithm: open with libzip (read-only; not ZIP_CHECKCONS, which rejects
// the data-descriptor archives that common zip writers produce -- a truncated
// archive fails anyway, for lack of its central directory or on a CRC
// mismatch while inflating). Pass 1 checks every member before anything is
// written:
//   - names are split on '/' and '\\'; absolute names, drive letters, empty
//     names, `..` components and NUL bytes are refused;
//   - the Unix mode in the external attributes: symlinks, devices, FIFOs and
//     sockets are refused; a mode with permission bits but no file-type bits
//     (S_IFMT == 0, as Python's zipfile.writestr writes 0600) is a regular
//     file, or a folder when the name ends in '/', as unzip reads it;
//   - members landing on the same path ("a/x", "a\\x", "./a/x"): a file and a
//     folder there are refused; two files are refused when their declared
//     sizes or CRC-32s differ, and otherwise compared byte by byte in pass 2
//     (the Reference-FMUs' Roberts.fmu lists six members twice);
//   - declared sizes (central directory): the member count, each member's
//     size and the total are capped by ArchiveLimits, and so is the declared
//     compression ratio of members over ratio_check_bytes (default: more
//     than 1000:1 above 8 MiB is refused; deflate itself cannot exceed about
//     1032:1, so only a run of identical bytes gets there);
// then pass 2 extracts member by member, counting the bytes actually
// inflated: a member that inflates one byte past its declared size is
// refused on the spot (zip_fread is asked for at most one byte more), so a
// lying directory cannot get past the checks and nothing beyond the checked
// sizes is ever written. Files
// are created with O_CREAT | O_EXCL | O_NOFOLLOW below a directory lsdae
// created itself, so nothing can land outside it; a second copy of a file is
// read back and compared instead of written, and an identical one gives a
// single warning naming the members.
// A failure throws lsdae::Error(archive) naming the archive, the member and
// the limit or rule; the caller's TempDir removes what was written.
// Cost: one pass over the compressed data (two reads of a duplicated
// member); memory O(size of the central directory).
#ifndef LSDAE_RUNTIME_IMPORT_ARCHIVE_H
#define LSDAE_RUNTIME_IMPORT_ARCHIVE_H

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "lsdae/diagnostics.h"
#include "lsdae/archive_limits.h"

namespace lsdae::import {

struct ExtractionReport {
  std::uint64_t entries = 0;
  std::uint64_t bytes = 0;  // inflated, duplicates included
  // Files listed more than once with identical bytes (the first name of each).
  std::vector<std::string> identical_duplicates;
};

// Extracts `archive` into the existing, empty directory `destination`. Adds
// the warning about identical duplicates to `diagnostics` when given.
ExtractionReport extract_archive(const std::filesystem::path& archive,
                                 const std::filesystem::path& destination, const ArchiveLimits& limits,
                                 Diagnostics* diagnostics = nullptr);

// Checks one member name; returns an empty string when it is safe, else the reason.
std::string unsafe_member_reason(const std::string& name);

}  // namespace lsdae::import

#endif  // LSDAE_RUNTIME_IMPORT_ARCHIVE_H
