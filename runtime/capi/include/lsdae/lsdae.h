/* lsdae/lsdae.h -- the plain C interface to lsdae, for pipelines written in C
 * (or any language with a C FFI). It wraps lsdae::Simulation (lsdae/simulation.h).
 *
 *   lsdae_options options;
 *   lsdae_options_init(&options);            // every field "use the default"
 *   options.threads = 2;
 *   lsdae_simulation* sim = NULL;
 *   if (lsdae_open("model.fmu", &options, &sim) != LSDAE_OK) {
 *     fprintf(stderr, "%s\n", lsdae_last_error(NULL));  // errors before a handle exists
 *     return 1;
 *   }
 *   lsdae_set(sim, "l", 2.5e-7);
 *   uint32_t vr;
 *   lsdae_value_reference(sim, "C[1280].v", &vr); // once; then lsdae_get_values per point
 *   lsdae_initialize(sim);
 *   double t = 0, v = 0;
 *   for (long k = 1; t < lsdae_stop_time(sim) && !lsdae_terminated(sim); ++k) {
 *     if (lsdae_advance_to(sim, k * 1e-9, &t) != LSDAE_OK) break;   // output points k·dt
 *     lsdae_get_values(sim, &vr, 1, &v);
 *   }
 *   lsdae_free(sim);
 *
 * Every function that can fail returns an lsdae_status (the others return
 * NaN, 0 or NULL for a NULL handle); the values equal the exit codes of
 * the `lsdae` program (README.md). After a failure, lsdae_last_error(sim)
 * (or lsdae_last_error(NULL) for lsdae_open) returns the message, in the
 * `where → what → value seen → what to do` shape; the string stays valid
 * until the next call on that handle (NULL: on that thread).
 * No function throws or aborts.
 *
 * Threads: a handle is used by one thread at a time; different handles may
 * be used on different threads at once (several simulations in one process).
 * Exceptions, marked "Thread-safe" below: lsdae_version, lsdae_cancel (made
 * to be called from another thread while lsdae_advance_to runs), and
 * lsdae_last_error(NULL) (per thread). lsdae_set_log_callback is
 * process-wide: set it before simulations start.
 *
 * Pipelines that read many variables per output step look the value
 * references up once (lsdae_value_reference) and read them all with one
 * call per step (lsdae_get_values); see examples/simulate_c.c.
 *
 * Structs grow at the end only, so source written against an older header
 * keeps compiling; a program must be recompiled against the header of the
 * library it links (there is no size or version field).
 */
#ifndef LSDAE_LSDAE_H
#define LSDAE_LSDAE_H

#include <stddef.h>
#include <stdint.h>

#include "lsdae/version.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  LSDAE_OK = 0,
  LSDAE_ERR_INVALID = 1,       /* the FMU breaks a rule, or structural analysis failed */
  LSDAE_ERR_USAGE = 2,         /* bad argument, unknown variable, wrong call order */
  LSDAE_ERR_ARCHIVE = 3,
  LSDAE_ERR_XML = 4,
  LSDAE_ERR_BINARY = 5,
  LSDAE_ERR_FMU_CALL = 6,      /* the FMU returned fmi3Error/fmi3Fatal */
  LSDAE_ERR_SOLVER = 7,        /* IDA failed; lsdae_time() tells where it stopped */
  LSDAE_ERR_STRUCTURE = 8,     /* structural analysis failed (unbalanced, singular) */
  LSDAE_ERR_OUTPUT = 9,        /* a result file could not be written */
  LSDAE_ERR_FMU_CRASH = 10,    /* the FMU crashed the process running it (supervised runs: lsdae_run_isolated) */
  LSDAE_ERR_TIMEOUT = 11,      /* a watchdog limit was hit (supervised runs: lsdae_run_isolated) */
  LSDAE_ERR_INTERRUPTED = 130,
  LSDAE_ERR_INTERNAL = 70
} lsdae_status;

typedef enum {
  LSDAE_JACOBIAN_AUTO = 0,
  LSDAE_JACOBIAN_FINITE_DIFFERENCES = 1,
  LSDAE_JACOBIAN_DIRECTIONAL = 2,
  LSDAE_JACOBIAN_CHECK = 3,         /* directional, compared with finite differences at the start (lsdae_run);
                                       a false claim of the FMU (derivative, dependency, constant entry)
                                       stops the run */
  LSDAE_JACOBIAN_TRUST = 4          /* as AUTO, the FMU's claims used unchecked */
} lsdae_jacobian;

/* How a higher-index model is kept on its constraints (SimulationOptions::constraints). */
typedef enum {
  LSDAE_CONSTRAINTS_DEFAULT = 0,            /* dummy derivatives */
  LSDAE_CONSTRAINTS_DUMMY_DERIVATIVES = 1,  /* lower formulations are rows; dummies re-selected at run time */
  LSDAE_CONSTRAINTS_PROJECTION = 2,         /* index-1 formulations, projected onto the lower ones after steps */
  LSDAE_CONSTRAINTS_NONE = 3                /* index-1 formulations only; the drift is measured, not enforced */
} lsdae_constraint_method;

/* The order of IDA's rows (SimulationOptions::match_rows). */
typedef enum {
  LSDAE_ROW_ORDER_DEFAULT = 0,   /* matched */
  LSDAE_ROW_ORDER_MATCHED = 1,   /* permuted onto a structural matching: a zero-free diagonal for KLU */
  LSDAE_ROW_ORDER_DECLARED = 2   /* the manifest's order of residuals */
} lsdae_row_order;

/* Always fill with lsdae_options_init first, then change fields: it sets
 * every field to its "use the default" value (NaN in most double fields, so
 * a zeroed struct is NOT the defaults). The fields are the simulation options
 * of lsdae's one options table (docs/run.md: the same keys, values, ranges and
 * defaults as `lsdae simulate --rtol ...`, Python's rtol=, a sweep's); lsdae_open
 * checks them there and returns LSDAE_ERR_USAGE with one line per bad field,
 * naming it and the value seen ("lsdae_open: options.rtol = 5 is out of
 * range: ..."); the simulation then checks the values against the model.
 * An enum field must hold one of its values.
 * Defaults: DefaultExperiment, else lsdae's (lsdae/simulation.h). */
typedef struct {
  double start_time, stop_time, rtol, atol, output_interval;  /* NaN: default; rtol from 1e-15 to 1, atol and
                                                                 output_interval > 0 */
  int threads;                      /* 1 to 1024; 0: default (1) */
  lsdae_jacobian jacobian;          /* init: LSDAE_JACOBIAN_AUTO */
  long max_steps;                   /* IDA steps between two output points, at least 1 (init: 100000) */
  /* -- appended later (index reduction, KLU, step size); lsdae_options_init sets them too -- */
  lsdae_constraint_method constraints;  /* init: LSDAE_CONSTRAINTS_DEFAULT */
  double projection_tolerance;      /* projection: project when max |constraint| exceeds this;
                                       NaN: default (every step); else positive and finite */
  const char* klu_ordering;         /* "amd", "colamd" or "metis"; NULL: default (amd). Copied by lsdae_open */
  lsdae_row_order row_order;        /* init: LSDAE_ROW_ORDER_DEFAULT */
  int reselect;                     /* 1: re-select dummy derivatives when conditioning degrades (init, the
                                       default); 0: keep the initial choice */
  double max_step;                  /* largest IDA step; 0, NaN or +inf: no limit (init: NaN); else positive */
  /* -- appended: run-time elimination of linear algebraic unknowns (--eliminate) -- */
  int eliminate;                    /* 1: auto (eliminate where the cost model allows; init, the default); 0: off */
  /* -- appended: the benchmark baselines, so that every option of the table is here -- */
  const char* linear_solver;        /* "klu" or "dense" (a baseline); NULL: default (klu) */
  int coloring;                     /* 1: coloured Jacobians (init); 0: one column at a time (a baseline) */
  int constant_entries;             /* 1: constant Jacobian entries evaluated once (init); 0: every time */
  int klu_reanalyze;                /* 0: KLU's analysis kept at events (init); 1: redone at each (a baseline) */
  /* -- appended: Jacobian reuse (--jacobian-reuse) -- */
  int jacobian_reuse;               /* 1: the last Jacobian re-formed for a new cj where possible (init); 0: fresh */
  /* -- appended: IDA's cj band for a new Newton matrix (--newton-dcj) -- */
  double newton_dcj;                /* greater than 0 and less than 1; NaN: default (init: NaN, 0.25) */
} lsdae_options;

/* SimulationStats as plain numbers (counters: for the whole run so far). */
typedef struct {
  size_t unknowns, differential, algebraic, jacobian_nonzeros, colors, threads;
  long steps, residual_calls, jacobian_evaluations, jacobian_residual_calls, directional_calls;
  long nonlinear_iterations, error_test_failures;
  long klu_lnz, klu_unz;
  double time_structure, time_initialize, time_integrate, reached_time;
  /* -- appended -- */
  long time_events, state_events, step_events;  /* events handled */
  long reselections;                  /* dummy-derivative re-selections */
  long projections;                   /* projections onto the constraints */
  long nonlinear_convergence_failures, linear_solver_setups;
  double time_instantiate;            /* wall time, seconds, to load the binary and instantiate */
  /* -- appended: constant Jacobian entries and KLU's analyses (SimulationStats) -- */
  size_t varying_colors;              /* colours evaluated per Jacobian (= colors when no entry is constant) */
  size_t constant_entries;            /* Jacobian entries evaluated once (per run, or per segment between events) */
  long constant_evaluations;          /* times the constant entries were evaluated */
  long constant_calls;                /* FMU calls spent on them (included in the two call counters above) */
  long klu_symbolic_analyses;         /* KLU symbolic analyses: once per run, not at every event */
  long klu_restart_factorizations;    /* full numeric factorizations at events with the analysis kept */
  /* -- appended: constraint handling (SimulationStats) -- */
  long synthesis_evaluations;         /* FMU residual evaluations spent on constraint derivatives lsdae
                                         synthesizes (not in residual_calls; 0 when none is synthesized) */
  long projection_rejections;         /* steps taken again, smaller, because a projection would have
                                         corrected them by more than IDA's error test allows */
  /* -- appended: elimination and KLU's analysis across runs (SimulationStats) -- */
  size_t eliminated;                  /* algebraic unknowns eliminated before IDA (0 with eliminate = 0) */
  long klu_analyses_carried_over;     /* KLU analyses taken over from the previous run on a reset model */
  /* -- appended: IDA's first steps (SimulationStats) -- */
  long first_step_retries;            /* first steps from a start (the initial point, an event) that failed
                                         IDA's error test down to its limit and were tried again smaller */
  /* -- appended: the rest of the statistics' numbers (docs/run.md lists every one) -- */
  size_t structural_index;            /* the DAE's structural index */
  double largest_projection;          /* the largest projection correction, in IDA's error norm */
  double largest_drift;               /* the largest constraint drift (constraints projection or none) */
  int terminated_by_fmu;              /* 1 when the FMU asked to terminate */
  double klu_fill_ratio;              /* (klu_lnz + klu_unz) / jacobian_nonzeros */
  /* -- appended: Jacobian reuse (SimulationStats) -- */
  long jacobian_reforms;              /* IDA setups that re-formed the last Jacobian for a new cj (no model call;
                                         not in jacobian_evaluations) */
  /* -- appended: events and root finding (SimulationStats) -- */
  long events_continued;              /* state events after which IDA went on from its history (no restart) */
  long root_function_calls;           /* event-indicator evaluations: IDA's root finding and lsdae's scan
                                         inside each step (one FMU indicator call at a new point each) */
} lsdae_stats;

typedef struct lsdae_simulation lsdae_simulation;

/* The library's version, "major.minor.patch" (LSDAE_VERSION_STRING of the
 * lsdae/version.h it was built with; a program compiled against other
 * headers can compare). A static string. Thread-safe. */
const char* lsdae_version(void);

void lsdae_options_init(lsdae_options* options);
/* fmu_path: an .fmu, an unpacked FMU folder, or a system of FMUs (.ssp,
 * .ssd: every variable named "component.variable"). */
lsdae_status lsdae_open(const char* fmu_path, const lsdae_options* options, lsdae_simulation** simulation);
void lsdae_free(lsdae_simulation* simulation);

/* Before lsdae_initialize: parameters, inputs, start values. `name` may be
 * one element of an array variable ("A[2,3]"). lsdae_set takes a number that
 * must be a value of the variable's type (an Int8 takes -128..127, a Boolean
 * 0 or 1, a Float64 a finite number); lsdae_set_text parses text strictly for
 * the type (any FMI 3.0 type: "true", enumeration item names, Strings,
 * Binary as hex, a whole array as space-separated values). Otherwise
 * LSDAE_ERR_USAGE naming the variable, its type and the value. */
lsdae_status lsdae_set(lsdae_simulation* simulation, const char* name, double value);
lsdae_status lsdae_set_text(lsdae_simulation* simulation, const char* name, const char* text);
/* Before lsdae_initialize: time-varying inputs from a CSV table (`lsdae
 * simulate --input`: a time column, one column per input). */
lsdae_status lsdae_set_input_file(lsdae_simulation* simulation, const char* csv_path);
lsdae_status lsdae_initialize(lsdae_simulation* simulation);
/* Integrates to t (clipped to the stop time); *reached (may be NULL) gets the
 * time reached. t equal to lsdae_time() does nothing; NaN or an earlier time is
 * LSDAE_ERR_USAGE (integration goes forward only). */
lsdae_status lsdae_advance_to(lsdae_simulation* simulation, double t, double* reached);
/* The value of a numeric or Boolean variable (or array element) at lsdae_time(). */
lsdae_status lsdae_get(lsdae_simulation* simulation, const char* name, double* value);
/* An integer, Boolean (0/1) or Enumeration variable exactly (UInt64 values
 * above INT64_MAX are LSDAE_ERR_USAGE: read them with lsdae_get_text). */
lsdae_status lsdae_get_int64(lsdae_simulation* simulation, const char* name, int64_t* value);
/* Any variable (or array element) as exact text: integers in decimal, reals
 * in the shortest form that reads back to the same double, Booleans 0/1,
 * Strings as they are, Binary as hex, an array's elements space-separated.
 * Writes at most `size` bytes including the terminating NUL into `buffer`;
 * *needed (may be NULL) gets the full length + 1, so a call with size 0
 * asks for the size. A buffer that is too small is LSDAE_ERR_USAGE. */
lsdae_status lsdae_get_text(lsdae_simulation* simulation, const char* name, char* buffer, size_t size,
                            size_t* needed);

/* Bulk reads. lsdae_value_reference: *vr gets the value reference of the
 * Float64 variable `name` (LSDAE_ERR_USAGE, naming it, for an unknown name or
 * another type). lsdae_get_values: values[i] gets the variable vrs[i] at
 * lsdae_time() (before lsdae_initialize: the start values), i < n, with one
 * FMU call. Every vrs[i] must be a Float64 variable's value reference
 * (LSDAE_ERR_USAGE naming the index and the value otherwise); vrs and values
 * may be NULL only when n == 0. */
lsdae_status lsdae_value_reference(lsdae_simulation* simulation, const char* name, uint32_t* vr);
lsdae_status lsdae_get_values(lsdae_simulation* simulation, const uint32_t* vrs, size_t n, double* values);

double lsdae_time(const lsdae_simulation* simulation);
double lsdae_stop_time(const lsdae_simulation* simulation);
double lsdae_output_interval(const lsdae_simulation* simulation);
/* 1 when the FMU asked to terminate (lsdae_advance_to then stops early,
 * lsdae_time() < the time asked for, with LSDAE_OK); 0 otherwise and for NULL. */
int lsdae_terminated(const lsdae_simulation* simulation);
lsdae_status lsdae_statistics(lsdae_simulation* simulation, lsdae_stats* stats);
/* The structural analysis report (the text of `lsdae info --structure`):
 * index, index reduction, row order, colouring. The string belongs to the
 * handle and stays valid until the next lsdae_structure_report on it or
 * lsdae_free. NULL (with lsdae_last_error) on failure or a NULL handle. */
const char* lsdae_structure_report(lsdae_simulation* simulation);
const char* lsdae_last_error(const lsdae_simulation* simulation);

/* ---- A whole run, as `lsdae simulate` makes it (docs/run.md) -----------------
 * lsdae_run integrates from where the simulation stands (initializing it
 * first when needed) to its stop time through lsdae's one run loop: a row at
 * the start, at every output point and on both sides of every event, written
 * to `result_file` as it is computed (CSV, HDF5 or MAT: the file `lsdae
 * simulate -o` writes for the same run, byte for byte in CSV), and the
 * statistics JSON (`lsdae simulate --stats`: the same document) to
 * `statistics_file`. With jacobian LSDAE_JACOBIAN_CHECK the Jacobians are
 * compared at the start and the verdict logged. The files are created only
 * once the simulation has initialised; a failure keeps the rows so far,
 * writes the statistics with the error and returns its status (the message
 * says where it stopped and what was kept); lsdae_cancel from another thread
 * ends it with LSDAE_ERR_INTERRUPTED, the same way. Neither file may be
 * the model's (the .fmu, a file of an unpacked FMU, a system's .ssp/.ssd or
 * a component's FMU) or the lsdae_set_input_file table, nor both one file:
 * LSDAE_ERR_USAGE before anything is written.
 * The other fields are the output and result-file options of the options
 * table (docs/run.md), spelled output.<field> in messages; fill the struct
 * with lsdae_output_init first (a bad value: LSDAE_ERR_USAGE naming it). */
typedef struct {
  const char* result_file;          /* .csv, .h5/.hdf5 or .mat; NULL: none (init) */
  const char* statistics_file;      /* the statistics JSON; NULL: none (init) */
  const char* const* output_vars;   /* output_var_count names or globs ("C[*].v"); 0: outputs and states */
  size_t output_var_count;
  const char* format;               /* "csv", "hdf5" or "mat"; NULL: from the file's extension (init) */
  int csv_units, csv_events;        /* CSV: a units line; an event column (init 0) */
  int hdf5_deflate;                 /* HDF5: 0 (none) to 9 (init 1) */
  int hdf5_compress_all;            /* HDF5: compress every chunk, waiting for the writer (init 0) */
  const char* output_roles;         /* "outputs,states,...": variables by role; NULL: none (init) */
  int all;                          /* 1: every variable (init 0) */
  int output_steps;                 /* 1: a row at every step IDA accepts instead of a grid (init 0) */
  const char* output_times;         /* "t1,t2,...": rows at these times only; NULL: none (init) */
  const char* output_grid;          /* "linear" or "log"; NULL: linear (init) */
  double output_first;              /* the log grid's first time after the start; NaN: 1e-6 (init) */
  long long output_per_decade;      /* log grid rows per factor of 10, 1 to 1000; 0: 10 (init) */
  long long output_every;           /* every K-th point or step; 0: 1 (init) */
  long long max_rows;               /* the most rows; 0: 100000000 (init) */
} lsdae_output;

void lsdae_output_init(lsdae_output* output);
lsdae_status lsdae_run(lsdae_simulation* simulation, const lsdae_output* output);
/* The statistics JSON of the run so far (the document of lsdae_run's
 * statistics_file and of `lsdae simulate --stats`, without a result file's
 * part). Writes at most `size` bytes including the terminating NUL; *needed
 * (may be NULL) gets the full length + 1, so a call with size 0 asks for the
 * size. A buffer that is too small is LSDAE_ERR_USAGE. */
lsdae_status lsdae_statistics_json(lsdae_simulation* simulation, char* buffer, size_t size, size_t* needed);

/* ---- Variables -------------------------------------------------------------
 * The model description's variables, in document order, index 0 ..
 * lsdae_variable_count() - 1. The strings belong to the handle (valid until
 * lsdae_free); `start` is the start attribute as written (space-separated for
 * an array), NULL when there is none. The enums follow FMI 3.0's order. */
typedef enum {
  LSDAE_TYPE_FLOAT32 = 0, LSDAE_TYPE_FLOAT64 = 1, LSDAE_TYPE_INT8 = 2, LSDAE_TYPE_UINT8 = 3,
  LSDAE_TYPE_INT16 = 4, LSDAE_TYPE_UINT16 = 5, LSDAE_TYPE_INT32 = 6, LSDAE_TYPE_UINT32 = 7,
  LSDAE_TYPE_INT64 = 8, LSDAE_TYPE_UINT64 = 9, LSDAE_TYPE_BOOLEAN = 10, LSDAE_TYPE_STRING = 11,
  LSDAE_TYPE_BINARY = 12, LSDAE_TYPE_ENUMERATION = 13, LSDAE_TYPE_CLOCK = 14
} lsdae_type;

typedef enum {
  LSDAE_CAUSALITY_PARAMETER = 0, LSDAE_CAUSALITY_CALCULATED_PARAMETER = 1, LSDAE_CAUSALITY_INPUT = 2,
  LSDAE_CAUSALITY_OUTPUT = 3, LSDAE_CAUSALITY_LOCAL = 4, LSDAE_CAUSALITY_INDEPENDENT = 5,
  LSDAE_CAUSALITY_STRUCTURAL_PARAMETER = 6
} lsdae_causality;

typedef enum {
  LSDAE_VARIABILITY_CONSTANT = 0, LSDAE_VARIABILITY_FIXED = 1, LSDAE_VARIABILITY_TUNABLE = 2,
  LSDAE_VARIABILITY_DISCRETE = 3, LSDAE_VARIABILITY_CONTINUOUS = 4
} lsdae_variability;

typedef struct {
  const char* name;
  uint32_t value_reference;
  lsdae_type type;
  lsdae_causality causality;
  lsdae_variability variability;
  const char* unit;         /* "" when none */
  const char* description;  /* "" when none */
  const char* start;        /* NULL when none */
  size_t elements;          /* 1 for a scalar; an array's element count */
} lsdae_variable;

/* 0 for a NULL handle. */
size_t lsdae_variable_count(const lsdae_simulation* simulation);
/* *variable gets variable `index` (LSDAE_ERR_USAGE past the end). */
lsdae_status lsdae_variable_at(lsdae_simulation* simulation, size_t index, lsdae_variable* variable);
/* *index gets the index of the variable named `name` (LSDAE_ERR_USAGE naming it when there is none). */
lsdae_status lsdae_variable_index(lsdae_simulation* simulation, const char* name, size_t* index);
/* The type's name as in modelDescription.xml ("Float64", "Int32", ...); "" for an unknown value. Thread-safe. */
const char* lsdae_type_name(lsdae_type type);

/* ---- Typed values -------------------------------------------------------------
 * Exact, typed access by name (or array element "A[2,3]"); the setters before
 * lsdae_initialize, the getters at lsdae_time(). Each accepts the types listed
 * and answers any other with LSDAE_ERR_USAGE naming the variable, its type and
 * the function to use instead; a value outside the type's range (an Int8 given
 * 300, a Boolean 2) is LSDAE_ERR_USAGE too.
 *   set/get_int64    Int8 ... Int64, UInt8 ... UInt64 (within int64), Enumeration, Boolean (0/1)
 *   set/get_uint64   UInt8 ... UInt64, and the signed integers (non-negative values)
 *   set/get_boolean  Boolean (0 or 1)
 *   set/get_binary   Binary (bytes; get: like lsdae_get_text, size 0 asks for the size)
 *   lsdae_set / lsdae_get            any numeric or Boolean variable as a double
 *   lsdae_set_text / lsdae_get_text  any type as text (String values are their own text) */
lsdae_status lsdae_set_int64(lsdae_simulation* simulation, const char* name, int64_t value);
lsdae_status lsdae_set_uint64(lsdae_simulation* simulation, const char* name, uint64_t value);
lsdae_status lsdae_get_uint64(lsdae_simulation* simulation, const char* name, uint64_t* value);
lsdae_status lsdae_set_boolean(lsdae_simulation* simulation, const char* name, int value);
lsdae_status lsdae_get_boolean(lsdae_simulation* simulation, const char* name, int* value);
lsdae_status lsdae_set_binary(lsdae_simulation* simulation, const char* name, const uint8_t* data, size_t size);
lsdae_status lsdae_get_binary(lsdae_simulation* simulation, const char* name, uint8_t* buffer, size_t size,
                              size_t* needed);

/* ---- Callbacks and cancellation ----------------------------------------------- */
typedef enum {
  LSDAE_LOG_DEBUG = 0, LSDAE_LOG_INFO = 1, LSDAE_LOG_WARNING = 2, LSDAE_LOG_ERROR = 3, LSDAE_LOG_OFF = 4
} lsdae_log_level;

/* instance: the FMU instance that logged (its instance name), NULL for lsdae's own messages. */
typedef void (*lsdae_log_callback)(lsdae_log_level level, const char* instance, const char* message, void* user);

/* Process-wide: lsdae's messages and the FMUs' log messages at `threshold` or
 * above go to callback instead of stderr (NULL: back to stderr; the threshold
 * applies either way, LSDAE_LOG_WARNING is the default; LSDAE_LOG_OFF: none).
 * Calls are serialized and may come from any thread running a simulation;
 * the strings are valid during the call. Set it before simulations start.
 * A threshold outside the enum is LSDAE_ERR_USAGE. */
lsdae_status lsdae_set_log_callback(lsdae_log_callback callback, void* user, lsdae_log_level threshold);

typedef enum { LSDAE_EVENT_TIME = 0, LSDAE_EVENT_STATE = 1, LSDAE_EVENT_STEP = 2 } lsdae_event_kind;
typedef void (*lsdae_event_callback)(double time, lsdae_event_kind kind, void* user);

/* Called at each event lsdae_advance_to handles, on the
 * caller's thread, before the FMU's event iteration: time is the event time,
 * kind a time event, a state event (an event indicator crossed zero) or a step
 * event (fmi3CompletedIntegratorStep asked for one). NULL removes it. The
 * callback must not call functions on the same handle. */
lsdae_status lsdae_set_event_callback(lsdae_simulation* simulation, lsdae_event_callback callback, void* user);

/* Thread-safe (the handle must not be freed meanwhile): asks the
 * lsdae_advance_to running on `simulation` in another thread to stop before
 * its next IDA step; it returns LSDAE_ERR_INTERRUPTED,
 * with lsdae_time() and the values at the last point reached, and a later
 * lsdae_advance_to continues from there. A cancel while no lsdae_advance_to
 * runs stops the next one at its first step. */
lsdae_status lsdae_cancel(lsdae_simulation* simulation);

/* Isolation: run FMU work in a supervised child process, so a crashing or
 * hanging FMU cannot take the calling program down (lsdae/supervise.h has
 * the whole contract). body(user) runs in a child (a fork of the caller)
 * and does its work with the functions above -- lsdae_open, ...,
 * lsdae_free -- writing its results to files (flushed as it goes: whatever
 * it wrote stays); it returns LSDAE_OK or another lsdae_status, and prints
 * its own messages (nothing it changes in memory comes back).
 * lsdae_run_isolated returns:
 *   - what body returned when it returned (an lsdae_status), with
 *     lsdae_last_error(NULL) the message of the last lsdae call that failed
 *     in the child (on the thread that ran body; empty when none failed);
 *   - LSDAE_ERR_FMU_CRASH when the child died (a signal, or exit() called
 *     by the FMU), LSDAE_ERR_TIMEOUT when a limit stopped it,
 *     LSDAE_ERR_INTERNAL when no child could be started;
 * and, for the last three, lsdae_last_error(NULL) says what happened: the
 * signal, the fmi3 function in progress, the instance and the simulation
 * time. The child's temporary folders (FMUs it unpacks) are removed however
 * it ends. Linux only. */
typedef struct {
  double timeout;       /* seconds for the whole run; 0 or NaN: no limit (init: NaN) */
  double call_timeout;  /* seconds for one FMU call; 0: no limit; NaN: the default, 60 (init: NaN) */
} lsdae_isolation;

void lsdae_isolation_init(lsdae_isolation* isolation);
lsdae_status lsdae_run_isolated(int (*body)(void* user), void* user, const lsdae_isolation* isolation);
/* Inside body: 1 when the run's time limit asks it to stop (then it should
 * stop soon, at a convenient point; it is killed after 2 s), else 0. */
int lsdae_stop_requested(void);

/* ---- Sweeps (lsdae/sweep.h, docs/sweeps.md) ------------------------------------
 * lsdae_sweep runs the scenarios of a sweep, each with `options`, in `jobs`
 * worker processes forked from the caller (call it before any FMU binary is
 * loaded or OpenMP has run in this process: lsdae/supervise.h), as `lsdae
 * sweep` does. `model_path` is an FMU (.fmu or an unpacked folder) or a
 * system of FMUs (.ssp, .ssd: names "component.variable").
 * The scenarios come from one source -- a CSV table (scenarios_csv: columns
 * are variable names, an optional "id"), a Monte Carlo study (monte_carlo
 * draws of `draws`, with `seed`), or a MATPOWER contingency table
 * (contingencies with case_file; an FMU only) -- and/or a full factorial
 * grid (grid axes "name=v1,v2,..."), crossed with the source when both are
 * given; `sets` ("name=value") apply to every scenario before its own
 * values. Every finished scenario is one row of the summary file
 * `summary_csv` -- CSV, or HDF5 when the name ends in .h5 or .hdf5 (any
 * case), written as `lsdae sweep --summary` writes it (docs/sweeps.md, "The
 * summary"): id, status, message, reached_time, steps, wall_time_s, one
 * column per metric, each row on disk as soon as its scenario finishes, so
 * a killed sweep keeps what it had. It may not be the model, the scenario
 * table, the contingency table or the case (LSDAE_ERR_USAGE, nothing
 * written). The file is created or truncated; with
 * `resume` = 1 an existing one is continued as `lsdae sweep --resume` does:
 * the scenarios whose ids it holds are skipped (whatever their status), what
 * a kill cut short is dropped, the rest are appended (a missing file is
 * started as a new one). Metrics are "STAT:SELECTOR" texts, stop conditions
 * "SELECTOR OP NUMBER" (docs/sweeps.md).
 * Returns LSDAE_OK when the sweep ran to its end -- *failed (when given)
 * counts the scenarios this call ran whose status is failed (resumed: not
 * those already in the file) -- or the status of what stopped it before
 * (LSDAE_ERR_USAGE for a bad table, metric, draw or name, or a summary to
 * resume whose columns are not this sweep's -- other metrics -- or that is
 * not a summary; LSDAE_ERR_OUTPUT for a summary that cannot be written, or
 * opened to resume; lsdae_last_error(NULL) says what, naming the spec's
 * fields). A refused resume leaves the file as it was.
 *
 * Fill the spec with lsdae_sweep_spec_init first (it sets the "none" and
 * "default" values: NaN times, seed 1). A spec zeroed by older code still
 * works: the fields appended later are then 0 (no grid, no Monte Carlo, no
 * contingencies, no sets, seed 0, no resume). */
typedef struct {
  const char* scenarios_csv;      /* a CSV table, or NULL (then give another source or a grid) */
  const char* const* metrics;     /* metric_count texts (may be NULL when 0) */
  size_t metric_count;
  const char* const* stop_when;   /* stop_when_count texts */
  size_t stop_when_count;
  size_t jobs;                    /* worker processes; 0: 1 */
  const char* summary_csv;        /* the summary file: CSV, or HDF5 for a .h5/.hdf5 name (the name is historical) */
  /* -- appended: the other scenario sources, common values, the settle test -- */
  const char* const* grid;        /* grid_count axes "name=v1,v2,..." (the last varying fastest) */
  size_t grid_count;
  size_t monte_carlo;             /* Monte Carlo scenarios (0: none); needs draws */
  const char* const* draws;       /* draw_count "name=uniform(lo,hi)" or "name=normal(mean,sd[,lo,hi])" */
  size_t draw_count;
  uint64_t seed;                  /* Monte Carlo seed: scenario k's draws depend only on it and k (init: 1) */
  const char* contingencies;      /* MATPOWER chgtab file, or NULL */
  const char* case_file;          /* MATPOWER case (the branches' from-buses); NULL with no_fault */
  double fault_on;                /* contingencies: fault.t_on; NaN: the FMU's own (init: NaN) */
  double clear_after;             /* contingencies: fault.t_off = trip.time = t_on + this; NaN: the FMU's (init) */
  int no_fault;                   /* contingencies: 1 opens the branches without a fault (fault.bus = 0) */
  const char* const* sets;        /* set_count "name=value", applied to every scenario first */
  size_t set_count;
  double settle_tol, settle_duration, settle_from;  /* the settle test (--settle); settle_tol NaN or 0: none;
                                                       settle_from NaN: the start (contingencies: the clearing) */
  int no_reuse;                   /* 0: one model per worker, reset between scenarios (init); 1: a new one each */
  /* -- appended: resume -- */
  int resume;                     /* 0: a new summary_csv (init); 1: continue it, skipping the ids it holds */
} lsdae_sweep_spec;

void lsdae_sweep_spec_init(lsdae_sweep_spec* spec);
lsdae_status lsdae_sweep(const char* model_path, const lsdae_options* options, const lsdae_sweep_spec* spec,
                         size_t* failed);

/* ---- One scenario at a time on a reused model ----------------------------------
 * For a pipeline that drives its own loop (an optimiser, a screening rule
 * that picks the next case from the last result): the model is opened,
 * unpacked and analysed once, its instances made once and reset between
 * scenarios (Simulation::reset, fmi3Reset), and each call runs one scenario
 * in this process as `lsdae sweep` runs it -- the same points sampled, the
 * same metrics, stop conditions and settle test -- and returns its summary
 * row. A row does not depend on the scenarios run before it.
 *
 *   lsdae_scenario_runner* runner = NULL;
 *   lsdae_sweep_spec spec;
 *   lsdae_sweep_spec_init(&spec);            // metrics, stop_when, sets, settle_*, no_reuse are used
 *   spec.metrics = metrics; spec.metric_count = 2;
 *   if (lsdae_scenario_runner_open("grid.fmu", &options, &spec, &runner) != LSDAE_OK) ... lsdae_last_error(NULL)
 *   const char* names[] = {"fault.bus", "trip.branch"};
 *   double values[] = {16, 27}, m[2];
 *   lsdae_scenario_result r;
 *   lsdae_scenario_run_values(runner, "16-27", 2, names, values, &r, m, 2);   // r.status, r.message, m[]
 *   lsdae_scenario_runner_close(runner);
 *
 * lsdae_scenario_runner_open takes the model (.fmu, unpacked folder, .ssp,
 * .ssd), the simulation options and, from `spec` (NULL: none), metrics,
 * stop_when, sets, settle_* and no_reuse; the other fields are ignored. The
 * metrics and names are checked at once (LSDAE_ERR_USAGE naming them). The
 * binary is loaded by the first scenario, in this process (isolate it with
 * lsdae_run_isolated when the FMU is not trusted).
 *
 * lsdae_scenario_run sets names[i] = texts[i] (parsed for the variable's
 * type, as `lsdae simulate --set`; lsdae_scenario_run_values takes numbers)
 * after the common sets, then runs. It returns LSDAE_OK when the scenario
 * ran, whatever its outcome: a scenario's own failure (an unknown name, a
 * bad value, the FMU or the solver failing) is result->status
 * LSDAE_SCENARIO_FAILED with the message, not an error status. An error
 * status means a bad call (NULL runner or result, names without values,
 * metric_capacity below the metric count), with lsdae_scenario_runner_error.
 * `id` (NULL: "") names the scenario in result->csv_row. `metrics` gets the
 * metric values in the order given (NaN: no point sampled or no sample a
 * number); it may be NULL when metric_capacity is 0. The strings of the
 * result belong to the runner, valid until its next run or close.
 * A runner is used by one thread at a time. */
typedef enum {
  LSDAE_SCENARIO_OK = 0,             /* ran to the stop time (or the FMU asked to terminate: see message) */
  LSDAE_SCENARIO_STOPPED_EARLY = 1,  /* a stop condition or the settle test ended it: message says which */
  LSDAE_SCENARIO_FAILED = 2          /* message: the error, in the house shape */
} lsdae_scenario_status;

typedef struct {
  lsdae_scenario_status status;
  const char* message;   /* "" when none */
  double reached_time;   /* NaN when initialisation failed */
  long steps;            /* IDA steps */
  double wall_time;      /* seconds */
  int reused;            /* 1: the model of the previous scenario, reset; 0: made for this one */
  const char* csv_row;   /* the summary row, one CSV record (the columns of lsdae_scenario_runner_header) */
} lsdae_scenario_result;

typedef struct lsdae_scenario_runner lsdae_scenario_runner;

lsdae_status lsdae_scenario_runner_open(const char* model_path, const lsdae_options* options,
                                        const lsdae_sweep_spec* spec, lsdae_scenario_runner** runner);
lsdae_status lsdae_scenario_run(lsdae_scenario_runner* runner, const char* id, size_t n, const char* const* names,
                                const char* const* texts, lsdae_scenario_result* result, double* metrics,
                                size_t metric_capacity);
lsdae_status lsdae_scenario_run_values(lsdae_scenario_runner* runner, const char* id, size_t n,
                                       const char* const* names, const double* values, lsdae_scenario_result* result,
                                       double* metrics, size_t metric_capacity);
/* The number of metrics (0 for NULL), and the summary's header line (CSV,
 * no line break; belongs to the runner). */
size_t lsdae_scenario_metric_count(const lsdae_scenario_runner* runner);
const char* lsdae_scenario_runner_header(const lsdae_scenario_runner* runner);
/* The message of the last failed call on the runner (NULL: lsdae_last_error(NULL)). */
const char* lsdae_scenario_runner_error(const lsdae_scenario_runner* runner);
void lsdae_scenario_runner_close(lsdae_scenario_runner* runner);

#ifdef __cplusplus
}
#endif

#endif /* LSDAE_LSDAE_H */
