// models/psse/io/dyr_record.h -- one record of a PSS/E dynamics data file
// (.dyr), as the reader keeps it: where it is, which bus, model and id, and
// its parameters in file order, uninterpreted.
//
// PSS/E Program Operation Manual, "Dynamics Data File": a record is
//     IBUS 'MODEL' ID  p1 p2 ... /
// free format (blanks or commas), spanning any number of lines, ended by a
// slash; the model name is quoted; the id is a quoted or bare token. Models
// of other shapes (two-bus relay and branch models, 'USRMDL' user models,
// load models with a bus number 0 for "all") are kept with their tokens as
// read, so that a message can name them.
#ifndef LSDAE_MODELS_PSSE_IO_DYR_RECORD_H
#define LSDAE_MODELS_PSSE_IO_DYR_RECORD_H

#include <string>
#include <vector>

namespace lsdae::psse {

struct DyrRecord {
  std::string file;            // path as given to the reader
  int line = 0;                // line of the bus number (1-based)
  int bus = 0;                 // IBUS
  std::string model;           // upper case, without quotes
  std::string id;              // machine / load id, trimmed, without quotes
  std::vector<double> values;  // the numeric parameters after the id, in order
  std::vector<int> value_lines;  // the line of each value
  std::vector<std::string> tokens;  // every token after the id, as written (also non-numeric ones)
  bool numeric = true;         // all tokens after the id are numbers
  std::string where() const { return file + ":" + std::to_string(line); }
};

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_IO_DYR_RECORD_H
