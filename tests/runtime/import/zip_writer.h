// tests/runtime/import/zip_writer.h -- writes small zip archives for the
// archive tests (arbitrary member names, Unix modes, sizes).
#ifndef LSDAE_TESTS_RUNTIME_IMPORT_ZIP_WRITER_H
#define LSDAE_TESTS_RUNTIME_IMPORT_ZIP_WRITER_H

#include <sys/stat.h>
#include <zip.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace lsdae::test {

struct ZipMember {
  std::string name;
  std::string content;
  unsigned mode = S_IFREG | 0644;  // Unix mode stored in the external attributes
};

inline void write_zip(const std::filesystem::path& path, const std::vector<ZipMember>& members) {
  int error = 0;
  zip_t* zip = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &error);
  if (zip == nullptr) throw std::runtime_error("write_zip: cannot create " + path.string());
  for (const auto& m : members) {
    // libzip copies nothing until zip_close: keep the bytes alive in a heap buffer it frees.
    void* data = std::malloc(m.content.size() + 1);
    std::memcpy(data, m.content.data(), m.content.size());
    zip_source_t* source = zip_source_buffer(zip, data, m.content.size(), 1);
    zip_int64_t index = m.name.back() == '/' ? zip_dir_add(zip, m.name.c_str(), ZIP_FL_ENC_UTF_8)
                                             : zip_file_add(zip, m.name.c_str(), source, ZIP_FL_ENC_UTF_8);
    if (m.name.back() == '/') zip_source_free(source);
    if (index < 0) throw std::runtime_error("write_zip: cannot add " + m.name + ": " + zip_strerror(zip));
    zip_file_set_external_attributes(zip, static_cast<zip_uint64_t>(index), 0, ZIP_OPSYS_UNIX,
                                     static_cast<zip_uint32_t>(m.mode) << 16);
  }
  if (zip_close(zip) != 0) throw std::runtime_error("write_zip: cannot write " + path.string());
}

}  // namespace lsdae::test

#endif  // LSDAE_TESTS_RUNTIME_IMPORT_ZIP_WRITER_H
