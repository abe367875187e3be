#include "gpuplan/i18n.h"

#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

#include "catalog/json_fields.h"

namespace gpuplan {
namespace {

struct Table {
  std::vector<std::pair<std::string, std::string>> messages;  // sorted by the English key
};

Table& TableFor(Lang lang) {
  static Table tables[2];
  return tables[static_cast<int>(lang)];
}

}  // namespace

Result<std::size_t> LoadMessages(Lang lang, std::string_view json_text) {
  const nlohmann::json doc = detail::ParseJson(json_text);
  if (doc.is_discarded())
    return Error{std::string("messages (") + LangCode(lang) + "): " + detail::JsonErrorAt(json_text)};
  if (!doc.is_object()) return Error{std::string("messages (") + LangCode(lang) + "): not a JSON object of strings"};
  Table table;
  for (auto it = doc.begin(); it != doc.end(); ++it) {
    if (!it.value().is_string())
      return Error{std::string("messages (") + LangCode(lang) + "): the value of '" + it.key() + "' is not a string"};
    if (it.key().empty() || it.key() == "$comment") continue;  // the note for translators
    table.messages.emplace_back(it.key(), it.value().get<std::string>());
  }
  std::sort(table.messages.begin(), table.messages.end());
  TableFor(lang) = std::move(table);
  return TableFor(lang).messages.size();
}

bool HasMessages(Lang lang) {
  return !TableFor(lang).messages.empty();
}
std::size_t MessageCount(Lang lang) {
  return TableFor(lang).messages.size();
}
std::string_view MessageKey(Lang lang, std::size_t index) {
  const Table& t = TableFor(lang);
  return index < t.messages.size() ? std::string_view(t.messages[index].first) : std::string_view();
}

std::string_view MessageValue(Lang lang, std::size_t index) {
  const Table& t = TableFor(lang);
  return index < t.messages.size() ? std::string_view(t.messages[index].second) : std::string_view();
}

const char* FindMessage(Lang lang, std::string_view english) {
  const auto& m = TableFor(lang).messages;
  auto it =
      std::lower_bound(m.begin(), m.end(), english,
                       [](const std::pair<std::string, std::string>& e, std::string_view k) { return e.first < k; });
  return it != m.end() && it->first == english ? it->second.c_str() : nullptr;
}

const char* Tr(const char* english) {
  const Lang lang = CurrentLang();
  if (lang == Lang::kEn || !english) return english;
  const char* found = FindMessage(lang, english);
  return found ? found : english;
}

std::string TrF(const char* english, std::initializer_list<std::string_view> args) {
  const std::string_view text = Tr(english);
  std::string out;
  out.reserve(text.size() + 16);
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '{' && i + 2 < text.size() && text[i + 1] >= '0' && text[i + 1] <= '9' && text[i + 2] == '}') {
      const std::size_t n = static_cast<std::size_t>(text[i + 1] - '0');
      if (n < args.size()) out += *(args.begin() + n);
      i += 2;
      continue;
    }
    out += text[i];
  }
  return out;
}

std::string Placeholders(std::string_view message) {
  std::string digits;
  for (std::size_t i = 0; i + 2 < message.size(); ++i)
    if (message[i] == '{' && message[i + 1] >= '0' && message[i + 1] <= '9' && message[i + 2] == '}')
      digits += message[i + 1];
  std::sort(digits.begin(), digits.end());
  return digits;
}

}  // namespace gpuplan
