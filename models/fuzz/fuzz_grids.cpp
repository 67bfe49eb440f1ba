// models/fuzz/fuzz_grids.cpp -- libFuzzer target for the grid readers: PSS/E
// .raw, .dyr and .con files, the case builder that lsdae-grid runs on a .raw
// and a .dyr before packing an FMU, MATPOWER case files and change tables
// (docs/fuzzing.md, "Grid files").
//
// Input: the first byte's low three bits choose the mode (the seeds write it
// as a digit, so every seed is a text file); the rest is the file:
//   0  a .raw: parse_raw (version from its header), then build_network
//   1  a .dyr: parse_dyr
//   2  a .raw, the line "LSDAE-FUZZ-DYR", a .dyr: build_case (power flow, the
//      components) with skip_unsupported, then System (every model's
//      initialization), semi-explicit -- what `lsdae-grid --check` runs
//   3  the same, strict options (unsupported models refused), fully implicit
//   4  a .con: parse_con
//   5  a MATPOWER case: parse_matpower_case, then, for a case it accepts,
//      what lsdae_grid_data runs (solve_and_build_grid_data: the power flow,
//      flat start then the stored voltages, the machines, the grid data) and
//      the grid data written to memory and read back (parse_grid_data): what
//      the generator writes, the FMU must read
//   6  a MATPOWER change table: parse_chgtab
//   7  a MATPOWER case read as `lsdae sweep --case` reads it: parse_branch_ends
//      and parse_branch_from_buses
//
// Refusals by contract (each reader's header) are caught: TextError and
// ModelError (PSS/E), CaseError (MATPOWER case), lsdae::Error of kind usage
// (.con, change table); after the MATPOWER reader, CaseError naming the file
// (lsdae_grid_data's refusals, exit 1). Anything else escaping is a finding (abort), and so is
// a refusal that does not name the file: a reader's message starts with the
// file name, and the .raw and .dyr readers' with "file:LINE:".
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <sstream>
#include <string>
#include <string_view>
#include <typeinfo>

#include "lsdae/error.h"
#include "powergrid/grid_builder.h"
#include "powergrid/matpower_case.h"
#include "powergrid/scenarios/matpower_changes.h"
#include "psse/case/case_builder.h"
#include "psse/core/parameters.h"
#include "psse/io/dyr_reader.h"
#include "psse/io/psse_text.h"
#include "psse/io/raw_reader.h"
#include "psse/network/network.h"
#include "psse/scenarios/con_file.h"
#include "psse/system/system.h"

namespace {

constexpr const char* kRaw = "fuzz.raw";
constexpr const char* kDyr = "fuzz.dyr";
constexpr std::string_view kSeparator = "\nLSDAE-FUZZ-DYR\n";

// LSDAE_FUZZ_GRIDS_VERBOSE=1: print each refusal (to see how far the seeds get).
void refused(const std::string& message) {
  static const bool verbose = std::getenv("LSDAE_FUZZ_GRIDS_VERBOSE") != nullptr;
  if (verbose) std::fprintf(stderr, "refused: %s\n", message.c_str());
}

[[noreturn]] void finding(const char* what, const std::string& message) {
  std::fprintf(stderr, "lsdae_fuzz_grids: %s: %s\n", what, message.c_str());
  std::abort();
}

// "fuzz.raw:12: ..." : the file, a colon, a line number.
void expect_file_and_line(const std::string& message, const char* file) {
  refused(message);
  const std::size_t n = std::strlen(file);
  if (message.compare(0, n, file) != 0 || message.size() <= n + 1 || message[n] != ':' ||
      message[n + 1] < '0' || message[n + 1] > '9')
    finding("a refusal without \"file:line:\"", message);
}

void expect_file(const std::string& message, const char* file) {
  refused(message);
  if (message.find(file) == std::string::npos) finding("a refusal that does not name the file", message);
}

void build(std::string_view data, bool strict) {
  const std::size_t cut = data.find(kSeparator);
  const std::string_view raw_text = cut == std::string_view::npos ? data : data.substr(0, cut);
  const std::string_view dyr_text =
      cut == std::string_view::npos ? std::string_view{} : data.substr(cut + kSeparator.size());
  lsdae::psse::RawCase raw = lsdae::psse::parse_raw(raw_text, kRaw);
  std::vector<lsdae::psse::DyrRecord> dyr = lsdae::psse::parse_dyr(dyr_text, kDyr);
  lsdae::psse::CaseOptions options;
  options.skip_unsupported = !strict;
  lsdae::psse::BuiltCase c = lsdae::psse::build_case(std::move(raw), std::move(dyr), options);
  const lsdae::kit::Form form = strict ? lsdae::kit::Form::fully_implicit : lsdae::kit::Form::semi_explicit;
  lsdae::psse::System system(std::move(c.input), form);
  (void)system.report();
}

// `read` refused by the documented lsdae::Error of kind usage, naming `file`
// (the .con reader and the MATPOWER tables lsdae sweep reads).
template <class Read>
void usage_refusal(Read read, const char* what, const char* file) {
  try {
    read();
  } catch (const lsdae::Error& e) {
    if (e.kind() != lsdae::ErrorKind::usage)
      finding((std::string("a ") + what + " refusal of another kind than usage").c_str(), e.what());
    expect_file(e.what(), file);
  }
}

// What lsdae_grid_data runs on a case read, and the file it would write read back.
void grid_data(const lsdae::powergrid::Case& c) {
  lsdae::powergrid::GridData d;
  try {
    d = lsdae::powergrid::solve_and_build_grid_data(c, 60.0, [](const std::string&) {});
  } catch (const lsdae::powergrid::CaseError& e) {
    expect_file(e.what(), "fuzz.m");
    return;
  }
  std::ostringstream file;
  lsdae::powergrid::write_grid_data(d, file);
  try {
    (void)lsdae::powergrid::parse_grid_data(file.str(), "fuzz.grid");
  } catch (const std::runtime_error& e) {
    finding("a grid data file written that its reader refuses", e.what());
  }
}

void run(int mode, std::string_view data) {
  switch (mode) {
    case 0: {
      try {
        const lsdae::psse::RawCase raw = lsdae::psse::parse_raw(data, kRaw);
        (void)lsdae::psse::build_network(raw);
      } catch (const lsdae::psse::TextError& e) {
        expect_file_and_line(e.what(), kRaw);
      }
      return;
    }
    case 1:
      try {
        (void)lsdae::psse::parse_dyr(data, kDyr);
      } catch (const lsdae::psse::TextError& e) {
        expect_file_and_line(e.what(), kDyr);
      }
      return;
    case 2:
    case 3:
      try {
        build(data, mode == 3);
      } catch (const lsdae::psse::TextError& e) {
        const std::string message = e.what();
        refused(message);
        if (message.find(kRaw) == std::string::npos && message.find(kDyr) == std::string::npos)
          finding("a refusal that does not name the file", message);
      } catch (const lsdae::psse::ModelError& e) {
        refused(e.what());
      }
      return;
    case 4:
      usage_refusal([&] { (void)lsdae::psse::parse_con(std::string(data), "fuzz.con"); }, ".con", "fuzz.con");
      return;
    case 5: {
      lsdae::powergrid::Case c;
      try {
        c = lsdae::powergrid::parse_matpower_case(data, "fuzz.m");
      } catch (const lsdae::powergrid::CaseError& e) {
        expect_file_and_line(e.what(), "fuzz.m");
        return;
      }
      grid_data(c);
      return;
    }
    case 6:
      usage_refusal([&] { (void)lsdae::powergrid::parse_chgtab(std::string(data), "fuzz_chgtab.m"); }, "change-table",
                    "fuzz_chgtab.m");
      return;
    default:
      usage_refusal([&] { (void)lsdae::powergrid::parse_branch_ends(std::string(data), "fuzz.m"); }, "--case",
                    "fuzz.m");
      usage_refusal([&] { (void)lsdae::powergrid::parse_branch_from_buses(std::string(data), "fuzz.m"); }, "--case",
                    "fuzz.m");
      return;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
  if (size == 0) return 0;
  const int mode = bytes[0] & 7;
  const std::string_view data(reinterpret_cast<const char*>(bytes) + 1, size - 1);
  try {
    run(mode, data);
  } catch (const std::exception& e) {
    // Not the reader's documented refusal: std::out_of_range from a
    // conversion, std::bad_alloc from a size read from the file, ...
    finding("an exception outside the contract", std::string(typeid(e).name()) + ": " + e.what());
  }
  return 0;
}
