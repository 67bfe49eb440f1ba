// models/psse/io/raw_records.h -- one record of each section of a .raw file
// that the reader keeps (raw_reader.h), field by field. Internal to the
// reader.
//
// Each record type has its field names in PSS/E order for each version; a
// field is found by position in that layout, or by name in the section's
// "@!" column header when the file has one. A field missing at the end of a
// record takes PSS/E's default.
#ifndef LSDAE_MODELS_PSSE_IO_RAW_RECORDS_H
#define LSDAE_MODELS_PSSE_IO_RAW_RECORDS_H

#include <string>
#include <vector>

#include "psse/io/psse_text.h"
#include "psse/io/raw_case.h"

namespace lsdae::psse::raw {

// Where a record comes from, and the section's column header (may be empty).
struct Source {
  const std::string& file;
  int version;
  double sbase;
  const std::vector<std::string>& header;  // normalized names ("I", "ID", "PG", ...)
};

// Upper-case names without quotes and blanks, from a "@!" line.
std::vector<std::string> parse_column_header(const std::string& line);

RawBus bus(const Source& s, std::vector<Field> fields, int line);
RawLoad load(const Source& s, std::vector<Field> fields, int line);
RawFixedShunt fixed_shunt(const Source& s, std::vector<Field> fields, int line);
RawGenerator generator(const Source& s, std::vector<Field> fields, int line);
RawBranch branch(const Source& s, std::vector<Field> fields, int line);
RawBranch switching_device(const Source& s, std::vector<Field> fields, int line);
RawSwitchedShunt switched_shunt(const Source& s, std::vector<Field> fields, int line);
// An impedance correction table: v32/33 one line; v34 the fields of all its
// lines (ended by the point 0, 0, 0), `line` the first one's number.
RawImpedanceCorrection impedance_correction(const Source& s, std::vector<Field> fields, int line);
// v34: whether this line ends a table (its last three fields are zero, or it has fewer than three).
bool ends_impedance_correction(const std::vector<Field>& fields);
// The 4 (two windings) or 5 lines of a transformer; `lines` their numbers.
RawTransformer transformer(const Source& s, const std::vector<std::vector<Field>>& records, const std::vector<int>& lines);

}  // namespace lsdae::psse::raw

#endif  // LSDAE_MODELS_PSSE_IO_RAW_RECORDS_H
