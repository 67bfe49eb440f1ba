// lsdae/system_description.h -- a system of FMUs as data: components,
// causal connections and acausal couplings (docs/systems.md).
//
// A system is what lsdae assembles into one global DAE F(ẋ, x, z, t) = 0
// for IDA (lsdae/system.h): each component's unknowns and residuals, plus
// one equation per connection and per coupling. A single FMU is the system
// of one component with no connections.
//
// Where a description comes from:
//   - an SSP 1.0 file (.ssp archive or a bare .ssd next to its FMUs),
//     read by lsdae::read_system_description (runtime/import/ssp/);
//   - a program, filling these structs directly (the C++ API).
// The reader resolves everything it can without opening an FMU: nested
// systems are flattened (component names become "outer.inner"), connector
// names are the FMU variable names, SSV parameter bindings become text
// values. Checks that need the FMUs' model descriptions (the connector
// exists, types and units match, an output drives at most one continuous
// chain, an input is connected or has a start value) are made when the
// system is validated or assembled.
//
// The equations, for a Connection (causal, output → input):
//     to = factor · from + offset                (SSP LinearTransformation)
// A continuous (Float64, continuous variability) connection makes `to` an
// algebraic unknown of the system's one DAE and this a residual row (so an
// algebraic loop through direct feedthrough is solved by IDA's Newton
// iteration with the whole DAE). A discrete connection (Boolean,
// integer, or discrete Float64) is not an unknown: the value is copied
// after every event iteration, until no component changes.
//
// For a Coupling (acausal; seed 003: rigidly coupled energy storages across
// FMUs), n ports, each an output `potential` p_k and an input `flow` f_k:
//     p_1 = p_k              k = 2..n       (n − 1 rows)
//     Σ_k f_k = 0                            (1 row)
// with the n flows as algebraic unknowns of the global system, each fed
// into its component's input. For n = 2 this is one constraint force:
// f_1 = F, f_2 = −F. The potential rows are lsdae's own equations, so
// lsdae can differentiate them (the constraint usually has index 2 when
// both potentials are states or outputs of states).
#ifndef LSDAE_SYSTEM_DESCRIPTION_H
#define LSDAE_SYSTEM_DESCRIPTION_H

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace lsdae {

// Where an element came from, for messages: "SystemStructure.ssd:42"
// (empty for descriptions built by a program).
using SourceLocation = std::string;

// A connector as the description declares it (SSP: ssd:Connector). The
// FMU's own variable is the truth; this is what the author claimed, for the
// checks against the model description (type and unit agree). Optional: a
// description built by a program may leave the list empty.
struct ConnectorDescription {
  std::string name;  // the FMU variable name
  std::string kind;  // "input", "output", "parameter", "calculatedParameter", "inout"
  std::string type;  // "Real", "Integer", "Boolean", "String", "Enumeration", "Binary"; empty: not given
  std::string unit;  // empty: not given
  SourceLocation where;
};

struct ComponentDescription {
  std::string name;           // unique in the system; result names are "name.variable"
  std::filesystem::path fmu;  // the .fmu archive (or an unpacked FMU folder)
  std::string source;         // as the description wrote it (SSP: the source URI); may be empty
  // Start and parameter values, by FMU variable name, as text (parsed
  // strictly for the variable's type when the component is instantiated).
  std::vector<std::pair<std::string, std::string>> parameters;
  // Where each parameter value was given, same order as `parameters` (may be
  // empty when built by a program).
  std::vector<SourceLocation> parameters_where;
  std::vector<ConnectorDescription> connectors;
  SourceLocation where;
};

// One end of a connection: a variable of a component, by its FMU name.
struct ConnectorRef {
  std::string component;
  std::string variable;
};

struct Connection {
  ConnectorRef from;  // an output (causality output) of a component
  ConnectorRef to;    // an input (causality input) of another (or the same) component
  double factor = 1.0, offset = 0.0;
  SourceLocation where;
};

struct CouplingPort {
  ConnectorRef potential;  // an output
  ConnectorRef flow;       // an input
};

struct Coupling {
  std::string name;  // unique in the system; rows "name.potential[k]", "name.flows"; the flows are the ports' inputs
  std::vector<CouplingPort> ports;  // at least two
  SourceLocation where;
};

struct SystemDescription {
  std::string name;
  std::filesystem::path source;  // the .ssp or .ssd it was read from (empty: built by a program)
  std::vector<ComponentDescription> components;
  std::vector<Connection> connections;
  std::vector<Coupling> couplings;
  // The system's DefaultExperiment (SSP: ssd:DefaultExperiment); unset
  // values fall back to the components' own, then to lsdae's defaults.
  std::optional<double> start_time, stop_time, tolerance, step_size;
  // Keeps the files the description refers to alive: for an .ssp archive,
  // the temporary folder it was unpacked into (removed when the last copy of
  // the description goes away). Null for a bare .ssd or a program's description.
  std::shared_ptr<const void> storage;
  // That folder (empty when there is none): for a caller that must remove it
  // itself when the process is stopped by a signal (no destructor runs then).
  std::filesystem::path unpacked_dir;
};

}  // namespace lsdae

#endif  // LSDAE_SYSTEM_DESCRIPTION_H
