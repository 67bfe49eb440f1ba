// models/psse/core/signals.h -- the names of the signals through which the
// dynamic models of one unit talk to each other.
//
// A unit is one generator (bus number + machine id of the .raw generator
// record) with everything the .dyr attaches to it: the machine, its exciter,
// stabilizer, governor, ... (or one load, or one renewable plant). A model
// declares the signals it reads (Layout::input) and those it writes
// (Layout::output, always one of its own states or algebraic variables). The
// framework binds each input to the output of that name in the same unit; an
// input nobody writes is held constant at its initial value, as an FMU
// parameter named "<unit>.<signal>" (e.g. gen[102_1].efd), so a user can step
// it.
//
// Every value is in per unit on the MACHINE base (MBASE of the generator
// record) unless said otherwise; the bus voltage is always available to every
// model of a unit (Frame::vr, Frame::vi), in per unit of the bus base voltage.
//
// At initialization (component.h, InitContext) each signal's value is written
// once, by the side that determines it: "machine → controller" signals by the
// consumer (the machine says which Efd and Pm it needs; the exciter and the
// governor then back-compute their states and references to deliver them),
// "controller ← machine" signals by their producer. The column "set by" says
// which.
//
// | name  | meaning                                                        | producer      | set by at init |
// |-------|----------------------------------------------------------------|---------------|----------------|
// | efd   | field voltage Efd, p.u. (1 p.u. gives 1 p.u. open-circuit E'q)   | exciter       | machine        |
// | pm    | mechanical power Pm, p.u. on MBASE                              | governor      | machine        |
// | speed | rotor speed deviation Δω = ω − 1, p.u.                          | machine       | machine        |
// | pe    | electrical power at the terminal, p.u. on MBASE                 | machine       | machine        |
// | ifd   | field current XadIfd, p.u. (= Efd in steady state unsaturated)  | machine       | machine        |
// | vs    | stabilizer output, added at the exciter's summing point, p.u.   | stabilizer    | stabilizer (0) |
// | vuel  | under-excitation limiter output, p.u.                           | UEL model     | UEL (0)        |
// | voel  | over-excitation limiter output, p.u.                            | OEL model     | OEL (0)        |
//
// New models may add signals: a name is any identifier; add a row here.
#ifndef LSDAE_MODELS_PSSE_CORE_SIGNALS_H
#define LSDAE_MODELS_PSSE_CORE_SIGNALS_H

namespace lsdae::psse::signal {

inline constexpr const char* efd = "efd";
inline constexpr const char* pm = "pm";
inline constexpr const char* speed = "speed";
inline constexpr const char* pe = "pe";
inline constexpr const char* ifd = "ifd";
inline constexpr const char* vs = "vs";
inline constexpr const char* vuel = "vuel";
inline constexpr const char* voel = "voel";
inline constexpr const char* itr = "itr";
inline constexpr const char* iti = "iti";
inline constexpr const char* qe = "qe";
inline constexpr const char* ipcmd = "ipcmd";
inline constexpr const char* iqcmd = "iqcmd";
inline constexpr const char* pref = "pref";
inline constexpr const char* qext = "qext";

}  // namespace lsdae::psse::signal

#endif  // LSDAE_MODELS_PSSE_CORE_SIGNALS_H
