// tests/runtime/cli/broken_fmus.h -- builds broken and hostile FMUs at test
// time from a good one.
//
// An FmuImage is the list of an FMU's zip members in memory: read a good
// unpacked FMU with from_directory(), break it with the edit helpers, write
// it with write() (libzip). Edits that do not find their target throw, so a
// change in the model kit's output breaks the test loudly instead of quietly
// producing a valid "broken" FMU. Byte-level damage (truncation, garbage)
// works on the written file.
#ifndef LSDAE_TESTS_RUNTIME_CLI_BROKEN_FMUS_H
#define LSDAE_TESTS_RUNTIME_CLI_BROKEN_FMUS_H

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace lsdae::test {

inline constexpr const char* kModelDescription = "modelDescription.xml";
inline constexpr const char* kManifest = "extra/org.fmi-standard.fmi-ls-dae/fmi-ls-manifest.xml";

struct ZipMember {
  enum class Kind { file, directory, symlink };
  std::string name;  // as stored: any bytes, including "../x" and "/abs"
  std::string data;  // file contents, or the link target of a symlink
  Kind kind = Kind::file;
  bool executable = false;  // Unix mode 0755 instead of 0644
  bool store = false;       // no compression (for big, incompressible members)
};

class FmuImage {
 public:
  // Every file below `dir`, with '/'-separated relative names, sorted.
  static FmuImage from_directory(const std::filesystem::path& dir);

  bool has(std::string_view name) const;
  // The member's bytes; throws std::runtime_error when absent.
  std::string& data(std::string_view name);
  // Replaces the first occurrence of `from` in the member; throws when absent.
  FmuImage& replace(std::string_view name, std::string_view from, std::string_view to);
  // Replaces every occurrence; throws when there is none. Returns the count.
  std::size_t replace_all(std::string_view name, std::string_view from, std::string_view to);
  // Adds or overwrites a regular file.
  FmuImage& put(const std::string& name, std::string data, bool executable = false);
  FmuImage& add(ZipMember member);
  FmuImage& remove(std::string_view name);  // throws when absent
  // Moves every member below `folder/`: the "zipped the folder, not its contents" mistake.
  FmuImage& nest_under(const std::string& folder);

  // Writes the archive with libzip (deflate unless a member says store).
  void write(const std::filesystem::path& zip_file) const;

  std::vector<ZipMember> members;
};

// Path of the binary for this platform in an FMU whose modelIdentifier is `id`.
std::string binary_member(const std::string& id);

std::string read_file(const std::filesystem::path& file);
void write_file(const std::filesystem::path& file, std::string_view data);
// Keeps the first `bytes` bytes of `file`.
void truncate_file(const std::filesystem::path& file, std::uintmax_t bytes);
// `bytes` pseudo-random bytes from a fixed seed (reproducible garbage).
std::string random_bytes(std::size_t bytes, std::uint32_t seed);

// The model description of the hand-written faulty FMU (faulty_fmu.c) as an
// ODE: state x (17), der(x) (18), output y (30), parameter k (42); its binary
// does the fault named in resources/fault.txt.
extern const char* const kFaultyOdeDescription;

}  // namespace lsdae::test

#endif  // LSDAE_TESTS_RUNTIME_CLI_BROKEN_FMUS_H
