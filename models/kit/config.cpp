// models/kit/config.cpp -- typed access to a variant's key=value settings.
#include "kit/model.h"

#include <algorithm>
#include <charconv>
#include <stdexcept>

namespace lsdae::kit {

namespace {
const std::string* find(const std::map<std::string, std::string>& values, const std::string& key) {
  auto it = values.find(key);
  return it == values.end() ? nullptr : &it->second;
}
}  // namespace

long Config::get_int(const std::string& key, long fallback) const {
  const std::string* text = find(values_, key);
  if (text == nullptr) return fallback;
  long value = 0;
  auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), value);
  if (ec != std::errc() || end != text->data() + text->size())
    throw std::invalid_argument("model configuration: key \"" + key + "\" must be an integer, got \"" +
                                *text + "\"");
  return value;
}

double Config::get_double(const std::string& key, double fallback) const {
  const std::string* text = find(values_, key);
  if (text == nullptr) return fallback;
  double value = 0;
  auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), value);
  if (ec != std::errc() || end != text->data() + text->size())
    throw std::invalid_argument("model configuration: key \"" + key + "\" must be a number, got \"" +
                                *text + "\"");
  return value;
}

std::string Config::get_string(const std::string& key, const std::string& fallback) const {
  const std::string* text = find(values_, key);
  return text == nullptr ? fallback : *text;
}

std::string Config::get_choice(const std::string& key, const std::vector<std::string>& allowed) const {
  const std::string* text = find(values_, key);
  std::string list;
  for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
  if (text == nullptr)
    throw std::invalid_argument("model configuration: key \"" + key + "\" is missing; set it to one of " + list);
  if (std::find(allowed.begin(), allowed.end(), *text) == allowed.end())
    throw std::invalid_argument("model configuration: key \"" + key + "\" is \"" + *text +
                                "\"; allowed values: " + list);
  return *text;
}

void Config::set_resource_dir(std::string dir) {
  if (!dir.empty() && dir.back() != '/') dir += '/';
  resource_dir_ = std::move(dir);
}

DiscreteUpdate Model::update_discrete(Context& /*ctx*/) { return {}; }

}  // namespace lsdae::kit
