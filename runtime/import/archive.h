// runtime/import/archive.h -- safe extraction of an .fmu (zip) archive.
//
// Algorithm: open with libzip (read-only; not ZIP_CHECKCONS, which rejects
// the data-descriptor archives that common zip writers produce -- a truncated
// archive fails anyway, for lack of its central directory or on a CRC
// mismatch while inflating), then check every member name before anything is
// written, then extract member by member:
//   - names are split on '/' and '\\'; absolute names, drive letters, empty
//     names, `..` components and NUL bytes are rejected;
//   - members whose Unix mode (external attributes) says symlink, device,
//     FIFO or socket are rejected;
//   - the member count, each member's size and the total size are capped by
//     ArchiveLimits; sizes are counted on the bytes actually inflated, not on
//     the (forgeable) sizes in the central directory, so a zip bomb stops at
//     the cap;
//   - files are created with O_CREAT | O_EXCL | O_NOFOLLOW below a directory
//     lsdae created itself, so nothing can land outside it.
// A failure throws lsdae::Error(archive) naming the archive, the member and
// the limit or rule; the caller's TempDir removes what was written.
// Cost: one pass over the compressed data; memory O(1) beyond libzip's
// central directory.
#ifndef LSDAE_RUNTIME_IMPORT_ARCHIVE_H
#define LSDAE_RUNTIME_IMPORT_ARCHIVE_H

#include <cstdint>
#include <filesystem>
#include <string>

#include "lsdae/fmu.h"

namespace lsdae::import {

struct ExtractionReport {
  std::uint64_t entries = 0;
  std::uint64_t bytes = 0;
};

// Extracts `archive` into the existing, empty directory `destination`.
ExtractionReport extract_archive(const std::filesystem::path& archive,
                                 const std::filesystem::path& destination, const ArchiveLimits& limits);

// Checks one member name; returns an empty string when it is safe, else the reason.
std::string unsafe_member_reason(const std::string& name);

}  // namespace lsdae::import

#endif  // LSDAE_RUNTIME_IMPORT_ARCHIVE_H
