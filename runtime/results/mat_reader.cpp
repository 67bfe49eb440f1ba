// runtime/results/mat_reader.cpp -- reading a MAT result in the Dymola
// layout (mat_writer.h) with matio, for result_reader.h.
#include <matio.h>

#include <map>
#include <memory>
#include <system_error>

#include "lsdae/error.h"
#include "results/result_reader.h"

namespace lsdae::results {
namespace {

[[noreturn]] void refuse_mat(const std::filesystem::path& path, const std::string& what, const std::string& seen,
                      const std::string& todo) {
  throw Error(ErrorKind::usage, "result file " + path.string() + " → " + what + " → " + seen + " → " + todo);
}

struct VarFree {
  void operator()(matvar_t* v) const { Mat_VarFree(v); }
};
using Var = std::unique_ptr<matvar_t, VarFree>;

// The columns of a char matrix (binTrans: one string per column), trailing blanks cut.
std::vector<std::string> text_columns(const matvar_t* v) {
  std::vector<std::string> out;
  if (v->rank != 2 || v->data == nullptr) return out;
  for (std::size_t c = 0; c < v->dims[1]; ++c) {
    std::string s;
    for (std::size_t r = 0; r < v->dims[0]; ++r) {
      const std::size_t k = c * v->dims[0] + r;
      s += v->data_type == MAT_T_DOUBLE ? static_cast<char>(static_cast<const double*>(v->data)[k])
                                        : static_cast<const char*>(v->data)[k];
    }
    s.erase(s.find_last_not_of(' ') + 1);
    out.push_back(s);
  }
  return out;
}

double number_at(const matvar_t* v, std::size_t k) {
  switch (v->data_type) {
    case MAT_T_DOUBLE: return static_cast<const double*>(v->data)[k];
    case MAT_T_SINGLE: return static_cast<double>(static_cast<const float*>(v->data)[k]);
    case MAT_T_INT32: return static_cast<const std::int32_t*>(v->data)[k];
    default: return 0.0;
  }
}

}  // namespace

ResultTable read_mat_result(const std::filesystem::path& path, const NameFilter& wanted) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    refuse_mat(path, "cannot be opened", "no such file", "check the path (write it with lsdae simulate -o r.mat)");
  mat_t* mat = Mat_Open(path.c_str(), MAT_ACC_RDONLY);
  if (mat == nullptr) refuse_mat(path, "is not a MAT file", "matio cannot open it", "give a file written by lsdae simulate -o r.mat");
  std::map<std::string, Var> vars;
  for (const char* name : {"name", "description", "dataInfo", "data_1", "data_2"}) {
    matvar_t* v = Mat_VarRead(mat, name);
    if (v != nullptr) vars[name] = Var(v);
  }
  Mat_Close(mat);
  for (const char* name : {"name", "dataInfo", "data_2"})
    if (!vars.count(name))
      refuse_mat(path, "is not a Dymola-layout result", std::string("it has no ") + name + " matrix",
          "give a file written by lsdae simulate -o r.mat");
  const auto names = text_columns(vars["name"].get());
  const auto descriptions = vars.count("description") ? text_columns(vars["description"].get()) : std::vector<std::string>();
  const matvar_t* info = vars["dataInfo"].get();
  const matvar_t* d1 = vars.count("data_1") ? vars["data_1"].get() : nullptr;
  const matvar_t* d2 = vars["data_2"].get();
  if (info->dims[0] != 4 || info->dims[1] != names.size() || d2->rank != 2 || d2->dims[0] < 1)
    refuse_mat(path, "has matrices of inconsistent sizes", "dataInfo " + std::to_string(info->dims[0]) + " × " +
            std::to_string(info->dims[1]) + " for " + std::to_string(names.size()) + " names",
        "the file is damaged");
  const std::size_t rows = d2->dims[1], height2 = d2->dims[0];
  ResultTable table;
  table.time.resize(rows);
  for (std::size_t j = 0; j < rows; ++j) table.time[j] = number_at(d2, j * height2);
  for (std::size_t k = 1; k < names.size(); ++k) {
    table.all_names.push_back(names[k]);
    if (!wanted(names[k])) continue;
    ResultSeries s{names[k], "", std::vector<double>(rows)};
    if (k < descriptions.size()) {  // "... [unit]"
      const std::string& d = descriptions[k];
      const auto open = d.rfind(" [");
      if (!d.empty() && d.back() == ']' && open != std::string::npos) s.unit = d.substr(open + 2, d.size() - open - 3);
    }
    const int matrix = static_cast<int>(number_at(info, 4 * k));
    const int row = static_cast<int>(number_at(info, 4 * k + 1));
    const std::size_t r = static_cast<std::size_t>(row < 0 ? -row : row) - 1;  // a negative row: negated alias
    const double sign = row < 0 ? -1.0 : 1.0;
    if (matrix == 2 && row != 0 && r < height2) {
      for (std::size_t j = 0; j < rows; ++j) s.values[j] = sign * number_at(d2, j * height2 + r);
    } else if (matrix == 1 && row != 0 && d1 != nullptr && r < d1->dims[0]) {
      for (std::size_t j = 0; j < rows; ++j) s.values[j] = sign * number_at(d1, r);
    } else {
      refuse_mat(path, "dataInfo of \"" + names[k] + "\" points nowhere",
          "matrix " + std::to_string(matrix) + ", row " + std::to_string(row), "the file is damaged");
    }
    table.series.push_back(std::move(s));
  }
  return table;
}

}  // namespace lsdae::results
