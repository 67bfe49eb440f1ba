// models/psse/io/dyr_reader.h -- reader for PSS/E dynamics data files (.dyr).
//
// Format (PSS/E Program Operation Manual, "Dynamics Model Raw Data File";
// PSS/E Model Library for each model's parameters): free-format records
//     IBUS 'MODEL' ID  CONs ... /
// separated by blanks or commas, over any number of lines, each ended by a
// slash; the rest of the line after the slash is a comment. Every record is
// kept (dyr_record.h): the model is not interpreted here, only its shape.
//
// Contract: throws TextError "file:line: what → seen → fix" for a record
// that does not start with a bus number, lacks a quoted model name or an id,
// or is not ended by a slash before the end of the file; nothing else is
// judged (a model's parameters are checked by the model, parameters.h).
// Cost: one pass, O(size).
#ifndef LSDAE_MODELS_PSSE_IO_DYR_READER_H
#define LSDAE_MODELS_PSSE_IO_DYR_READER_H

#include <string>
#include <string_view>
#include <vector>

#include "psse/io/dyr_record.h"

namespace lsdae::psse {

std::vector<DyrRecord> read_dyr(const std::string& path);
std::vector<DyrRecord> parse_dyr(std::string_view text, const std::string& path);

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_IO_DYR_READER_H
