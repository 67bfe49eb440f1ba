// runtime/sweep/csv_line.h -- CSV records as RFC 4180 writes them: fields
// separated by commas, a field quoted ("...", a quote doubled) when it holds
// a comma, a quote, a newline or leading/trailing blanks. Used for the
// scenario tables read and the summary rows written (and read back by
// --resume and by a coordinator collecting rows from workers).
#ifndef LSDAE_RUNTIME_SWEEP_CSV_LINE_H
#define LSDAE_RUNTIME_SWEEP_CSV_LINE_H

#include <string>
#include <vector>

namespace lsdae::sweep {

// Parses one record starting at `pos` (which ends after its line break, or
// at the end of the text). A malformed quote sets *error (when given) and
// returns what was read.
std::vector<std::string> parse_csv_record(const std::string& text, std::size_t& pos, std::string* error = nullptr);
std::string csv_field(const std::string& value);
std::string csv_record(const std::vector<std::string>& fields);  // without the line break

}  // namespace lsdae::sweep

#endif  // LSDAE_RUNTIME_SWEEP_CSV_LINE_H
