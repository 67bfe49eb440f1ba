// lsdae/archive_limits.h -- the limits lsdae puts on an archive it unpacks (an .fmu,
// an .ssp): the protections of runtime/import/archive.h against an archive
// that would fill the disk or the memory. An archive is untrusted input.
#ifndef LSDAE_ARCHIVE_LIMITS_H
#define LSDAE_ARCHIVE_LIMITS_H

#include <cstdint>

namespace lsdae {

struct ArchiveLimits {
  std::uint64_t max_entries = 100000;                    // zip members
  std::uint64_t max_total_bytes = 8ull << 30;            // uncompressed, all members
  std::uint64_t max_entry_bytes = 4ull << 30;            // uncompressed, one member
  std::uint64_t max_xml_bytes = 512ull << 20;            // modelDescription.xml / manifest
  // A member declaring more than ratio_check_bytes uncompressed and more than
  // max_compression_ratio times its compressed size is refused before inflating.
  double max_compression_ratio = 1000;
  std::uint64_t ratio_check_bytes = 8ull << 20;
};

}  // namespace lsdae

#endif  // LSDAE_ARCHIVE_LIMITS_H
