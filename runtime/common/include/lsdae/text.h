// lsdae/text.h -- the text helpers of the readers of small input files (a
// sweep's scenario table, a model's change table): a whole file as text,
// trimming, and a strict number parse.
//
// Contract:
//   read_text_file  the file's bytes as they are (binary read, no newline
//                   translation); Error(usage) "<what> "<path>": cannot be
//                   read → check the path" when it cannot be opened, `what`
//                   naming the option or field that gave the path
//                   (e.g. "--scenarios").
//   trim            without leading and trailing blanks (space, tab, CR, LF).
//   parse_double    the whole trimmed text as one finite double in C's
//                   locale-independent form (std::from_chars; a leading '+'
//                   accepted), else nullopt: empty text, trailing characters,
//                   inf and nan are not numbers.
// Cost: linear in the text. Public (models/ may use only lsdae/*.h).
#ifndef LSDAE_TEXT_H
#define LSDAE_TEXT_H

#include <filesystem>
#include <optional>
#include <string>

namespace lsdae {

std::string read_text_file(const std::filesystem::path& path, const std::string& what);
std::string trim(const std::string& s);
std::optional<double> parse_double(const std::string& text);

}  // namespace lsdae

#endif  // LSDAE_TEXT_H
