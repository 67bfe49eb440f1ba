// tests/runtime/import/zip_writer.h -- writes small zip archives for the
// archive tests (arbitrary member names, Unix modes, sizes).
//
// write_zip() goes through libzip, as a well-behaved zip tool would.
// write_raw_zip() writes the bytes itself (APPNOTE 6.3.x: local headers,
// data, central directory, end record; no zip64, no data descriptors), so a
// test can make what libzip refuses to write: the same name twice, external
// attributes as other tools store them, and central-directory sizes that lie.
#ifndef LSDAE_TESTS_RUNTIME_IMPORT_ZIP_WRITER_H
#define LSDAE_TESTS_RUNTIME_IMPORT_ZIP_WRITER_H

#include <sys/stat.h>
#include <zip.h>
#include <zlib.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
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
    const bool is_dir = m.name.back() == '/';
    zip_int64_t index = -1;
    if (is_dir) {
      index = zip_dir_add(zip, m.name.c_str(), ZIP_FL_ENC_UTF_8);
    } else {
      // libzip copies nothing until zip_close: keep the bytes alive in a heap
      // buffer it frees. It takes ownership of a non-empty buffer only, so an
      // empty member gets no buffer at all (the old malloc(1) leaked).
      void* data = nullptr;
      if (!m.content.empty()) {
        data = std::malloc(m.content.size());
        std::memcpy(data, m.content.data(), m.content.size());
      }
      zip_source_t* source = zip_source_buffer(zip, data, m.content.size(), data != nullptr ? 1 : 0);
      if (source == nullptr) {
        std::free(data);
        throw std::runtime_error("write_zip: cannot make a source for " + m.name);
      }
      index = zip_file_add(zip, m.name.c_str(), source, ZIP_FL_ENC_UTF_8);
      if (index < 0) zip_source_free(source);
    }
    if (index < 0) {
      std::string message = "write_zip: cannot add " + m.name + ": " + zip_strerror(zip);
      zip_discard(zip);
      throw std::runtime_error(message);
    }
    zip_file_set_external_attributes(zip, static_cast<zip_uint64_t>(index), 0, ZIP_OPSYS_UNIX,
                                     static_cast<zip_uint32_t>(m.mode) << 16);
  }
  if (zip_close(zip) != 0) {
    std::string message = "write_zip: cannot write " + path.string() + ": " + zip_strerror(zip);
    zip_discard(zip);
    throw std::runtime_error(message);
  }
}

struct RawZipMember {
  RawZipMember(std::string member_name, std::string member_content = {})
      : name(std::move(member_name)), content(std::move(member_content)) {}
  std::string name;
  std::string content;
  std::uint32_t external_attributes = (S_IFREG | 0644u) << 16;
  std::uint8_t made_by_system = 3;  // 3 = Unix, 0 = MS-DOS
  bool deflate = true;
  // Sizes to write in the headers instead of the true ones (a lying archive).
  std::optional<std::uint32_t> declared_size;
  std::optional<std::uint32_t> declared_crc;
};

namespace detail {
inline void put16(std::string& out, unsigned v) {
  out += static_cast<char>(v & 0xff);
  out += static_cast<char>((v >> 8) & 0xff);
}
inline void put32(std::string& out, std::uint32_t v) {
  put16(out, v & 0xffff);
  put16(out, v >> 16);
}
inline std::string raw_deflate(const std::string& in) {
  z_stream s{};
  if (deflateInit2(&s, 9, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("raw_deflate: deflateInit2 failed");
  std::string out(deflateBound(&s, in.size()), '\0');
  s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  s.avail_in = static_cast<uInt>(in.size());
  s.next_out = reinterpret_cast<Bytef*>(out.data());
  s.avail_out = static_cast<uInt>(out.size());
  int rc = deflate(&s, Z_FINISH);
  out.resize(s.total_out);
  deflateEnd(&s);
  if (rc != Z_STREAM_END) throw std::runtime_error("raw_deflate: deflate failed");
  return out;
}
}  // namespace detail

// Writes the members in order, duplicates included. Contents up to 4 GiB - 1.
inline void write_raw_zip(const std::filesystem::path& path, const std::vector<RawZipMember>& members) {
  using detail::put16;
  using detail::put32;
  std::string body, directory;
  for (const auto& m : members) {
    const bool is_dir = !m.name.empty() && m.name.back() == '/';
    const bool deflate = m.deflate && !is_dir;
    const std::string data = deflate ? detail::raw_deflate(m.content) : m.content;
    const auto crc = m.declared_crc.value_or(static_cast<std::uint32_t>(
        crc32(0, reinterpret_cast<const Bytef*>(m.content.data()), static_cast<uInt>(m.content.size()))));
    const auto size = m.declared_size.value_or(static_cast<std::uint32_t>(m.content.size()));
    const auto offset = static_cast<std::uint32_t>(body.size());
    auto common = [&](std::string& out) {
      put16(out, 20);                  // version needed to extract
      put16(out, 0x0800);              // flags: UTF-8 names
      put16(out, deflate ? 8 : 0);     // method
      put16(out, 0);                   // time
      put16(out, (45 << 9) | (1 << 5) | 1);  // date: 2025-01-01
      put32(out, crc);
      put32(out, static_cast<std::uint32_t>(data.size()));
      put32(out, size);
      put16(out, static_cast<unsigned>(m.name.size()));
      put16(out, 0);                   // extra field length
    };
    put32(body, 0x04034b50);
    common(body);
    body += m.name;
    body += data;

    put32(directory, 0x02014b50);
    put16(directory, (static_cast<unsigned>(m.made_by_system) << 8) | 20);
    common(directory);
    put16(directory, 0);  // comment length
    put16(directory, 0);  // disk
    put16(directory, 0);  // internal attributes
    put32(directory, m.external_attributes);
    put32(directory, offset);
    directory += m.name;
  }
  std::string end;
  put32(end, 0x06054b50);
  put16(end, 0);
  put16(end, 0);
  put16(end, static_cast<unsigned>(members.size()));
  put16(end, static_cast<unsigned>(members.size()));
  put32(end, static_cast<std::uint32_t>(directory.size()));
  put32(end, static_cast<std::uint32_t>(body.size()));
  put16(end, 0);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << body << directory << end;
  if (!out) throw std::runtime_error("write_raw_zip: cannot write " + path.string());
}

}  // namespace lsdae::test

#endif  // LSDAE_TESTS_RUNTIME_IMPORT_ZIP_WRITER_H
