// The message tables (gpuplan/i18n.h): every key the code marks or a core table holds has a
// Japanese translation with the same placeholders, and the table holds nothing else.
// GPUPLAN_I18N_MISSING=<file> writes the keys without a translation as a JSON object (English to
// "") for the translator.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "gpuplan/catalog.h"
#include "gpuplan/i18n.h"
#include "gpuplan/presets.h"
#include "gpuplan/records.h"
#include "gpuplan/scenario.h"
#include "gpuplan/session.h"
#include "gpuplan/units.h"
#include "gpuplan/views.h"

using namespace gpuplan;
namespace fs = std::filesystem;

namespace {

const fs::path kRoot = fs::path(GPUPLAN_TEST_DATA).parent_path();

std::string ReadFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A C string literal's body as the program sees it (the escapes the sources use).
std::string Unescape(const std::string& body) {
  std::string out;
  for (size_t i = 0; i < body.size(); ++i) {
    if (body[i] != '\\' || i + 1 == body.size()) {
      out += body[i];
      continue;
    }
    const char c = body[++i];
    if (c == 'n')
      out += '\n';
    else if (c == 't')
      out += '\t';
    else if (c == 'x') {
      size_t j = i + 1;
      int v = 0;
      while (j < body.size() && j < i + 3 && std::isxdigit(static_cast<unsigned char>(body[j])))
        v = v * 16 + std::stoi(std::string(1, body[j++]), nullptr, 16);
      out += static_cast<char>(v);
      i = j - 1;
    } else
      out += c;
  }
  return out;
}

// Where each key was found: file:line, for the failure message.
std::map<std::string, std::string> MarkedKeys() {
  std::map<std::string, std::string> keys;
  // One literal, or adjacent literals the compiler joins ("a " "b"), as the first argument.
  const std::regex marked(R"re(\b(Tr|TrF|N_)\(\s*((?:"(?:[^"\\]|\\.)*"\s*)+)[,)])re");
  const std::regex piece(R"re("((?:[^"\\]|\\.)*)")re");
  for (const char* dir :
       {"core/src", "core/include", "web/ui", "web/host", "native/cli", "native/gui", "native/cuda"}) {
    for (const auto& entry : fs::recursive_directory_iterator(kRoot / dir)) {
      const std::string ext = entry.path().extension().string();
      if (ext != ".cpp" && ext != ".h" && ext != ".cu" && ext != ".cuh") continue;
      const std::string text = ReadFile(entry.path());
      for (std::sregex_iterator it(text.begin(), text.end(), marked), end; it != end; ++it) {
        std::string key;
        const std::string pieces = (*it)[2];
        for (std::sregex_iterator p(pieces.begin(), pieces.end(), piece), e; p != e; ++p) key += Unescape((*p)[1]);
        const auto line = std::count(text.begin(), text.begin() + it->position(), '\n') + 1;
        keys.emplace(key, fs::relative(entry.path(), kRoot).string() + ":" + std::to_string(line));
      }
    }
  }
  return keys;
}

std::map<std::string, std::string> AllKeys() {
  std::map<std::string, std::string> keys = MarkedKeys();
  for (const FieldInfo& f : ScenarioFields()) {
    keys.emplace(f.label, std::string("scenario field ") + f.key);
    keys.emplace(f.help, std::string("scenario field ") + f.key);
  }
  for (const FieldInfo& f : ViewFields()) {
    keys.emplace(f.label, std::string("view field ") + f.key);
    keys.emplace(f.help, std::string("view field ") + f.key);
  }
  for (const View& v : Views()) {
    keys.emplace(v.title, std::string("view ") + v.id);
    keys.emplace(v.help, std::string("view ") + v.id);
  }
  for (const CompareColumn& c : CompareColumns()) {
    keys.emplace(c.title, std::string("compare column ") + c.key);
    keys.emplace(c.help, std::string("compare column ") + c.key);
  }
  for (const Preset& p : Presets()) {
    keys.emplace(p.question, "preset " + p.id);
    keys.emplace(p.source, "preset " + p.id + " (source)");
  }
  keys.erase("");
  return keys;
}

}  // namespace

TEST_CASE("Japanese: every message has a translation with the same placeholders, and nothing else") {
  const std::string table = ReadFile(kRoot / "assets/i18n/ja.json");
  REQUIRE(LoadMessages(Lang::kJa, table).ok());
  const auto keys = AllKeys();
  CHECK(keys.size() > 100);
  std::string missing, placeholders;
  nlohmann::ordered_json todo = nlohmann::ordered_json::object();
  for (const auto& [key, where] : keys) {
    const char* ja = FindMessage(Lang::kJa, key);
    if (!ja || !*ja) {
      missing += "  " + where + ": " + key + "\n";
      todo[key] = "";
    } else if (Placeholders(key) != Placeholders(ja)) {
      placeholders += "  " + where + ": " + key + " -> " + ja + "\n";
    }
  }
  if (const char* out = std::getenv("GPUPLAN_I18N_MISSING")) std::ofstream(out) << todo.dump(1) << "\n";
  std::string stale;
  for (size_t i = 0; i < MessageCount(Lang::kJa); ++i)
    if (!keys.count(std::string(MessageKey(Lang::kJa, i))))
      stale += "  " + std::string(MessageKey(Lang::kJa, i)) + "\n";
  INFO("without a translation (" << todo.size() << "):\n" << missing);
  CHECK(missing.empty());
  INFO("placeholders differ:\n" << placeholders);
  CHECK(placeholders.empty());
  INFO("in ja.json but no longer in the code:\n" << stale);
  CHECK(stale.empty());
}

TEST_CASE("Messages: placeholders, fallbacks and bad tables") {
  REQUIRE(LoadMessages(Lang::kJa, R"({"$comment": "x", "{0} of {1}": "{1} のうち {0}", "Fits": "収まる"})").ok());
  CHECK(MessageCount(Lang::kJa) == 2);
  SetLang(Lang::kJa);
  CHECK(std::string(Tr("Fits")) == "収まる");
  CHECK(std::string(Tr("Not in the table")) == "Not in the table");
  CHECK(TrF("{0} of {1}", {"8 GiB", "24 GiB"}) == "24 GiB のうち 8 GiB");
  SetLang(Lang::kEn);
  CHECK(TrF("{0} of {1}", {"8 GiB", "24 GiB"}) == "8 GiB of 24 GiB");
  CHECK(TrF("{0} and {5}", {"a"}) == "a and ");  // a missing argument prints nothing, never garbage
  CHECK(Placeholders("{1} a {0} b {0}") == "001");
  CHECK(!LoadMessages(Lang::kJa, "[1, 2]").ok());
  const auto bad = LoadMessages(Lang::kJa, R"({"Fits": 3})");
  REQUIRE(!bad.ok());
  CHECK(bad.error().find("'Fits'") != std::string::npos);
  CHECK(ParseLang("ja-JP") == Lang::kJa);
  CHECK(ParseLang("EN_us") == Lang::kEn);
  CHECK(!ParseLang("fr").has_value());
  CHECK(!ParseLang("").has_value());
}

TEST_CASE("Japanese readers: yen in 万 and 億, full-width digits from an IME read as digits") {
  const Money yen{"JPY", 155.26, ""};
  SetLang(Lang::kEn);
  CHECK(FormatMoney(3000000 / 155.26, yen) == "¥3,000,000");
  SetLang(Lang::kJa);
  CHECK(FormatMoney(3000000 / 155.26, yen) == "300万円");
  CHECK(FormatMoney(240900 / 155.26, yen) == "24.09万円");
  CHECK(FormatMoney(120000000 / 155.26, yen) == "1.2億円");
  CHECK(FormatMoney(9800 / 155.26, yen) == "¥9,800");
  CHECK(FormatMoney(100.0, Money{}) == "$100");  // dollars stay dollars
  SetLang(Lang::kEn);
  Scenario s;
  const Catalog& cat = EmbeddedCatalog().value();
  REQUIRE(!SetField(s, "context", "３２７６８", cat));
  CHECK(s.context == 32768);
  REQUIRE(!SetField(s, "weights", "ｑ４＿ｋ＿ｍ", cat));
  CHECK(s.weights == "q4_k_m");
  const auto bad = SetField(s, "context", "三万", cat);
  REQUIRE(bad);
  CHECK(bad->message.find("context") != std::string::npos);
}

TEST_CASE("Japanese: errors that reach the page read in Japanese, English ones stay byte-identical") {
  REQUIRE(LoadMessages(Lang::kJa, ReadFile(kRoot / "assets/i18n/ja.json")).ok());
  const Catalog& cat = EmbeddedCatalog().value();
  Scenario s;
  SetLang(Lang::kJa);
  const auto field = SetField(s, "contxt", "1", cat);
  REQUIRE(field);
  CHECK(field->message.rfind("不明なフィールド 'contxt'", 0) == 0);
  const auto gpu = SetField(s, "gpu", "h100", cat);
  REQUIRE(gpu);
  CHECK(gpu->message.find("不明なGPU 'h100'") != std::string::npos);
  const auto json = ImportUserText(cat, "{\"schema\": 1, \"gpus\": [1e999]}", "mine.json");
  REQUIRE(!json.ok());
  CHECK(json.error().find("数値 1e999 が範囲外です") != std::string::npos);
  const auto entry = ImportUserText(cat, R"({"schema": 1, "gpus": [{"id": 3}]})", "mine.json");
  REQUIRE(!entry.ok());
  CHECK(entry.error().find("mine.json: gpus[0]: フィールド 'id': 文字列にしてください") != std::string::npos);
  SetLang(Lang::kEn);
  const auto english = ImportUserText(cat, R"({"schema": 1, "gpus": [{"id": 3}]})", "mine.json");
  REQUIRE(!english.ok());
  CHECK(english.error().find("mine.json: gpus[0]: field 'id' must be a string") != std::string::npos);
  CHECK(SetField(s, "contxt", "1", cat)->message.rfind("unknown field 'contxt': did you mean 'context'?", 0) == 0);
}
