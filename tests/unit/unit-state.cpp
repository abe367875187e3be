// Scenario fields and the URL-hash codec: round trips, tolerant decoding that keeps valid
// fields, clear reasons for the rest, and the CLI command twin.
#include <catch2/catch.hpp>

#include "support.h"

#include <algorithm>
#include <random>

#include "gpuplan/inference.h"
#include "gpuplan/presets.h"
#include "gpuplan/records.h"
#include "gpuplan/scenario.h"
#include "gpuplan/session.h"
#include "gpuplan/training.h"
#include "gpuplan/version.h"
#include "gpuplan/views.h"

using namespace gpuplan;
using Catch::Matchers::Contains;
using test::Cat;

TEST_CASE("encode then decode gives the same scenario", "[state]") {
  Scenario s;
  s.model = "llama-3.1-70b";
  s.weights = "q4_k_m";
  s.kv = "fp8";
  s.context = 32768;
  s.batch = 4;
  s.gpu = "rtx-4090";
  s.tp = 2;
  s.overhead_gib = 0.75;
  std::string hash = EncodeState(s);
  // The model, the GPU, and what differs from the defaults: a short link.
  CHECK(hash == "v=1&model=llama-3.1-70b&weights=q4_k_m&kv=fp8&context=32768&batch=4&gpu=rtx-4090&tp=2&overhead-gib=0.75");
  // The long links of before (every field) still read as the same scenario.
  const std::string every =
      "v=1&model=llama-3.1-70b&weights=q4_k_m&kv=fp8&context=32768&prompt=1024&batch=4&gpu=rtx-4090&tp=2&pp=1&ep=0"
      "&split=auto&engine=vllm&graphs=1&mem-util=0&overhead-gib=0.75&ecc=default&mig=none&gpu-mem-gib=0&used-gib=0&gpu-"
      "layers=all&ram-gbs=89.6&price-hour=0&buy-usd=0&years=3"
      "&kwh-usd=0.15&pue=1.3&utilization=0.5&spot-overhead=0.1&method=full&optimizer=adamw&zero=0&dp=1&micro-batch=1"
      "&recompute=none&flash=1&lora-rank=16&lora-targets=all-linear&lora-layers=0&sp=1&shard-group=0&global-batch=0"
      "&tokens=1000000000&mfu=0&offload=0&master=1&opt-in-bwd=0";  // mfu: 0 (predicted) since issue 20
  const DecodedState long_link = DecodeState(every, Cat());
  CHECK(long_link.dropped.empty());
  CHECK(long_link.scenario == s);
  CHECK(EncodeState(Scenario{}) == "v=1&model=llama-3.1-8b&gpu=rtx-4090");
  DecodedState d = DecodeState("#" + hash, Cat());
  CHECK(d.dropped.empty());
  CHECK(d.scenario == s);
}

TEST_CASE("every field of the table can be read and written", "[state]") {
  Scenario s;
  for (const FieldInfo& f : ScenarioFields()) {
    INFO(f.key);
    std::string v = GetField(s, f.key);
    CHECK_FALSE(v.empty());
    CHECK_FALSE(SetField(s, f.key, v, Cat()).has_value());
  }
  CHECK(s == Scenario{});
}

TEST_CASE("links from before the tensor-parallel field was named tp still read: count= is tp=", "[state]") {
  const DecodedState old = DecodeState("v=1&gpu=h100-sxm&count=4", Cat());
  CHECK(old.dropped.empty());
  CHECK(old.scenario.tp == 4);
  CHECK(old.scenario.Gpus() == 4);
  CHECK(EncodeState(old.scenario).find("&tp=4") != std::string::npos);
  Scenario s;
  CHECK_FALSE(SetField(s, "count", "2", Cat()).has_value());
  CHECK(s.tp == 2);
  s.pp = 3;
  s.dp = 5;
  CHECK(s.Gpus() == 6);
  CHECK(s.TrainingGpus() == 30);
}

TEST_CASE("a broken link keeps its valid fields and says which were dropped and why", "[state]") {
  DecodedState d = DecodeState("#v=1&model=nope&gpu=h100-sxm&context=-5&batch=abc&count=2&foo=bar&junk", Cat());
  CHECK(d.scenario.gpu == "h100-sxm");
  CHECK(d.scenario.tp == 2);
  CHECK(d.scenario.model == Scenario{}.model);
  CHECK(d.scenario.context == Scenario{}.context);
  REQUIRE(d.dropped.size() == 5);
  CHECK_THAT(d.dropped[0], Contains("model:") && Contains("unknown model 'nope'"));
  CHECK_THAT(d.dropped[1], Contains("context:") && Contains("'-5'") && Contains("whole number"));
  CHECK_THAT(d.dropped[2], Contains("batch:") && Contains("'abc'"));
  CHECK_THAT(d.dropped[3], Contains("unknown field 'foo'"));
  CHECK_THAT(d.dropped[4], Contains("'junk'") && Contains("not a key=value"));
}

TEST_CASE("a huge broken link costs little and says so in a screenful: notices capped, pairs limited", "[state]") {
  // 200,000 unknown fields (about 2 MB): each used to add a line, 229 MB of notices in all.
  std::string hash = "#v=1&gpu=h100-sxm";
  for (int i = 0; i < 200000; ++i) hash += "&f" + std::to_string(i) + "=1";
  DecodedState d = DecodeState(hash, Cat());
  CHECK(d.scenario.gpu == "h100-sxm");
  REQUIRE(d.dropped.size() == kMaxDropped + 2);
  CHECK_THAT(d.dropped[0], Contains("unknown field 'f0'"));
  CHECK_THAT(d.dropped[kMaxDropped], Contains("... and 978 more fields not taken"));
  CHECK_THAT(
      d.dropped.back(),
      Contains("link: 199,002 more pairs after the first 1,000 were not read (a link holds one pair per field)"));
  // A typo names the field it was meant to be, and the id it was meant to be.
  DecodedState typo = DecodeState("#v=1&modle=llama-3.1-8b&gpu=h100sxm", Cat());
  REQUIRE(typo.dropped.size() == 2);
  CHECK_THAT(typo.dropped[0], Contains("unknown field 'modle': did you mean 'model'?"));
  CHECK_THAT(typo.dropped[1], Contains("unknown GPU 'h100sxm': did you mean 'h100-sxm'?"));
}

TEST_CASE("limits reject absurd numbers", "[state]") {
  Scenario s;
  CHECK(SetField(s, "context", "0", Cat()).has_value());
  CHECK(SetField(s, "context", "16777217", Cat()).has_value());
  CHECK(SetField(s, "context", "99999999999999999999999", Cat()).has_value());
  CHECK(SetField(s, "context", "8k", Cat()).has_value());
  CHECK(SetField(s, "count", "4097", Cat()).has_value());
  CHECK(SetField(s, "overhead-gib", "nan", Cat()).has_value());
  CHECK(SetField(s, "overhead-gib", "inf", Cat()).has_value());
  CHECK(SetField(s, "overhead-gib", "1e400", Cat()).has_value());
  CHECK(SetField(s, "overhead-gib", "-1", Cat()).has_value());
  CHECK(s == Scenario{});
  CHECK_FALSE(SetField(s, "overhead-gib", "0", Cat()).has_value());
  CHECK(s.overhead_gib == 0);
}

TEST_CASE("versions: newer links are read with a notice, missing v is fine", "[state]") {
  CHECK(DecodeState("model=llama-2-7b", Cat()).dropped.empty());
  DecodedState d = DecodeState("v=9&model=llama-2-7b", Cat());
  CHECK(d.scenario.model == "llama-2-7b");
  REQUIRE(d.dropped.size() == 1);
  CHECK_THAT(d.dropped[0], Contains("newer version"));
}

TEST_CASE("a link names its catalog: another version is read with a notice, never dropped", "[state]") {
  REQUIRE_FALSE(Cat().catalog_version.empty());
  Session session(Cat());
  const std::string hash = session.StateHash();
  CHECK_THAT(hash, Contains("&cat=" + Cat().catalog_version));
  Session again(Cat());
  const DecodedState same = again.LoadState(hash);
  CHECK(same.dropped.empty());
  CHECK(same.notices.empty());
  // Older and newer catalogs: the scenario is read as it is, with a word about the data.
  const DecodedState older = DecodeState("v=1&model=llama-2-7b&cat=2000.1", Cat());
  CHECK(older.scenario.model == "llama-2-7b");
  CHECK(older.dropped.empty());
  REQUIRE(older.notices.size() == 1);
  CHECK_THAT(older.notices[0],
             Contains("made with catalog '2000.1'; this is catalog " + Cat().catalog_version + ": numbers may differ"));
  const DecodedState newer = DecodeState("v=1&model=llama-2-7b&cat=9999.12.1", Cat());
  REQUIRE(newer.notices.size() == 1);
  CHECK_THAT(newer.notices[0], Contains("'9999.12.1'"));
  // Not a version: quoted (and cut), the link still read.
  const DecodedState junk = DecodeState("cat=%3Cscript%3E&model=llama-2-7b", Cat());
  CHECK(junk.scenario.model == "llama-2-7b");
  REQUIRE(junk.notices.size() == 1);
  CHECK_THAT(junk.notices[0], Contains("made with catalog '<script>'"));
  // A catalog without a version (a test's own): links carry no cat=, and say nothing of one.
  Catalog plain = Cat();
  plain.catalog_version.clear();
  CHECK(CatalogStatePair(plain).empty());
  CHECK(DecodeState("cat=2026.1", plain).notices.empty());
}

TEST_CASE("exports carry the program's version and commit and the catalog's version and date", "[state]") {
  Session session(Cat());
  const View& fit = *FindView("fit");
  const std::string json = ViewJson(fit, session);
  REQUIRE_FALSE(Cat().catalog_date.empty());
  CHECK(json.rfind("{\n  \"schema\": \"gpuplan.fit/1\",\n  \"gpuplan_version\": \"" + std::string(ProgramVersion()) +
                       "\",\n  \"gpuplan_commit\": \"" + GitCommit() + "\",\n  \"catalog_version\": \"" +
                       Cat().catalog_version + "\",\n  \"catalog_date\": \"" + Cat().catalog_date + "\",\n",
                   0) == 0);
  CHECK(std::string(GitCommit()) == "unknown");  // the tests do not link gpuplan_build_info
  CHECK_THAT(MadeWithLine(Cat()), Contains("(unknown)") && Contains(Cat().catalog_date));
  CHECK_THAT(PrintView(fit, session, "md"), Contains(MadeWithLine(Cat())));
  CHECK_THAT(PrintView(fit, session, "table"), !Contains(MadeWithLine(Cat())));
  CHECK(StampJson("[1, 2]", Cat()) == "[1, 2]");  // an array has no place for them
  CHECK(StampJson("{\n  \"error\": \"x\"\n}", Cat()).find("\"gpuplan_version\"") == 4);
}

TEST_CASE("percent-encoding and bad escapes", "[state]") {
  CHECK(DecodeState("model=llama%2D2%2D7b", Cat()).scenario.model == "llama-2-7b");
  DecodedState d = DecodeState("model=%ZZ&gpu=h100-sxm", Cat());
  CHECK(d.scenario.gpu == "h100-sxm");
  CHECK(d.dropped.size() == 1);
  CHECK(DecodeState("model=%", Cat()).dropped.size() == 1);
}

TEST_CASE("random garbage never crashes and never leaves an invalid scenario", "[state]") {
  std::mt19937 rng(12345);
  const std::string alphabet = "v=&%#model=gpu=count=context=-1234567890abcxyz.+\x01\xff";
  for (int i = 0; i < 2000; ++i) {
    std::string hash;
    int len = static_cast<int>(rng() % 64);
    for (int k = 0; k < len; ++k) hash += alphabet[rng() % alphabet.size()];
    DecodedState d = DecodeState(hash, Cat());
    CHECK(Cat().FindModel(d.scenario.model));
    CHECK(Cat().FindGpu(d.scenario.gpu));
    CHECK(d.scenario.context >= 1);
    CHECK(d.scenario.tp >= 1);
  }
}

TEST_CASE("the CLI twin command names the model, the GPU and the flags that differ from their defaults", "[state]") {
  Scenario s;
  s.tp = 2;
  CHECK(CliCommand("fit", s) == "gpuplan fit --model llama-3.1-8b --gpu rtx-4090 --tp 2");
  s.lora_targets = "qv";
  s.mfu = 0.45;
  CHECK(CliCommand("train", s) == "gpuplan train --model llama-3.1-8b --gpu rtx-4090 --tp 2 --lora-targets qv --mfu 0.45");
}

TEST_CASE("the page's own keys and the view options are set aside, not dropped, and never change the scenario", "[state]") {
  Session session(Cat());
  const DecodedState d = session.LoadState(
      "#embed=cost&v=1&model=llama-3.1-70b&theme=light&tab=train&count=2&sort=gpu&fits=1&overlay=h100-sxm,mi300x"
      "&phase=decode,train&max-watts=1500&vendor=AMD");
  CHECK(d.dropped.empty());
  CHECK(d.scenario.model == "llama-3.1-70b");
  CHECK(d.scenario.tp == 2);
  REQUIRE(d.page.size() == 2);
  CHECK(d.page.at("embed") == "cost");
  CHECK(d.page.at("theme") == "light");
  const ViewOptions& v = session.view();
  CHECK(v.tab == "train");
  CHECK(v.sort == "gpu");
  CHECK(v.filter.fits_only);
  CHECK(v.filter.vendor == "AMD");
  CHECK(v.filter.max_watts == 1500);
  CHECK(v.overlay == std::vector<std::string>{"h100-sxm", "mi300x"});
  CHECK((v.ShowsPhase("decode") && v.ShowsPhase("train") && !v.ShowsPhase("prefill")));
  // A link from an embed is a valid --state for the CLI: the same scenario.
  Scenario plain = DecodeState("#v=1&model=llama-3.1-70b&count=2", Cat()).scenario;
  CHECK(plain == session.scenario());
  // The hash carries the view options (only those off their defaults) and reads back the same.
  const std::string hash = session.StateHash();
  CHECK_THAT(hash, Contains("&sort=gpu") && Contains("&fits=1") && Contains("&overlay=h100-sxm%2Cmi300x"));
  CHECK_THAT(hash, !Contains("min-tps"));
  Session again(Cat());
  CHECK(again.LoadState(hash).dropped.empty());
  CHECK(again.StateHash() == hash);
  // Bad view values are dropped with the key and the reason; an unknown key still is.
  Session bad(Cat());
  const DecodedState b = bad.LoadState("#sort=fastest&overlay=nope&phase=lunch&fits=2&tab=nowhere&embedd=cost");
  REQUIRE(b.dropped.size() == 6);
  CHECK_THAT(b.dropped[0], Contains("unknown field 'embedd'"));
  for (const char* key : {"fits:", "overlay:", "phase:", "sort:", "tab:"})
    CHECK(std::any_of(b.dropped.begin(), b.dropped.end(), [&](const std::string& m) { return m.rfind(key, 0) == 0; }));
  CHECK(bad.StateHash() == EncodeState(Scenario{}) + CatalogStatePair(Cat()));
}

TEST_CASE("a link carries small and large numbers exactly: what the page computed with", "[state]") {
  Scenario s;
  for (const char* v : {"0.0004", "1e-300", "0.15", "89.6", "987.654321"}) {
    INFO(v);
    REQUIRE_FALSE(SetField(s, "price-hour", v, Cat()).has_value());
    Scenario back = DecodeState(EncodeState(s), Cat()).scenario;
    CHECK(back.price_hour == s.price_hour);
    CHECK(GetField(s, "price-hour") == v);
  }
  REQUIRE_FALSE(SetField(s, "buy-usd", "9003424.465993486", Cat()).has_value());
  CHECK(GetField(s, "buy-usd") == "9003424.465993486");  // not 9.003424465993486e+06: '+' is a space in a URL
  REQUIRE_FALSE(SetField(s, "tokens", "1e16", Cat()).has_value());
  CHECK(GetField(s, "tokens") == "10000000000000000");
}

TEST_CASE("shell quoting keeps plain values and quotes the rest", "[state]") {
  CHECK(ShellQuote("llama-3.1-8b") == "llama-3.1-8b");
  CHECK(ShellQuote("AMD") == "AMD");
  CHECK(ShellQuote("a b") == "'a b'");
  CHECK(ShellQuote("it's") == "'it'\\''s'");
  CHECK(ShellQuote("") == "''");
}

TEST_CASE("every preset decodes without a dropped field and computes", "[state][presets]") {
  REQUIRE(Presets().size() >= 7);
  for (const Preset& p : Presets()) {
    INFO(p.id);
    const DecodedState d = DecodeState(p.hash, Cat(), {}, ViewFields());  // as a link opens it (Session)
    CHECK(d.dropped.empty());
    // Its panel is a view of the scenario (views.h), and the view has a result for it.
    const View* v = FindView(p.panel);
    REQUIRE(v != nullptr);
    CHECK(v->scenario);
    CHECK(FindPreset(p.id) == &p);
    Session session(Cat());
    session.SetScenario(d.scenario);
    CHECK(v->failure(session).empty());
  }
  CHECK(FindPreset("no-such-preset") == nullptr);
  // The seeds' own examples are there.
  CHECK(FindPreset("seed-70b-2x4090") != nullptr);
  CHECK(FindPreset("seed-llama3-8b-8xa100") != nullptr);
  CHECK(FindPreset("deepseek-r1-8xh200") != nullptr);
}

TEST_CASE("a report as a still image: escaped text, the verdict, no explanation column, cut to width", "[state][views]") {
  Report r;
  r.title = "gpuplan fit: <A & B> \"quoted\"";
  r.lines = {std::string(300, 'x')};  // far wider than the image: cut with an ellipsis
  r.sections.push_back({"", Records{{{"term", "term"}, {"gib", "GiB", true}, {"formula", "how"}}, {}}, true});
  for (int i = 0; i < 12; ++i)
    r.sections[0].records.rows.push_back({Text("row " + std::to_string(i)), Number(i, std::to_string(i)), Text("a formula")});
  r.after = {"DOES NOT FIT per GPU: 70 GiB of 21 GiB"};
  for (const bool dark : {false, true}) {
    const std::string svg = ReportSvg(r, dark, 720, 8);
    CHECK(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"720\"", 0) == 0);
    CHECK(svg.find("</svg>\n") == svg.size() - 7);
    CHECK_THAT(svg, Contains("gpuplan fit: &lt;A &amp; B&gt; &quot;quoted&quot;"));
    CHECK_THAT(svg, Contains(std::string(95, 'x') + "…"));
    CHECK(svg.find(std::string(97, 'x')) == std::string::npos);
    CHECK_THAT(svg, Contains(">row 7<"));
    CHECK(svg.find(">row 8<") == std::string::npos);
    CHECK_THAT(svg, Contains("… 4 more rows"));
    CHECK(svg.find("a formula") == std::string::npos);  // the "how" column is the page's, not a preview's
    CHECK_THAT(svg, Contains(dark ? "fill=\"#ff7b72\" font-weight=\"bold\">DOES NOT FIT" : "fill=\"#b3261e\" font-weight=\"bold\">DOES NOT FIT"));
    CHECK(svg.find("nan") == std::string::npos);
  }
  // Every embeddable view of the default scenario draws (what the page's previews are).
  Session session(Cat());
  for (const View& v : Views())
    if (v.embeddable) CHECK(ReportSvg(v.report(session, {}), false).size() > 500);
}

TEST_CASE("the views table: unique ids, every view prints in every format, failures say why", "[state][views]") {
  std::vector<std::string> ids = ViewIds();
  std::sort(ids.begin(), ids.end());
  CHECK(std::adjacent_find(ids.begin(), ids.end()) == ids.end());
  Session session(Cat());
  for (const View& v : Views()) {
    INFO(v.id);
    CHECK(FindView(v.id) == &v);
    CHECK(std::string(v.title).size() > 0);
    CHECK(std::string(v.help).size() > 20);
    for (const std::string& key : v.options)  // its options are view fields
      CHECK(std::any_of(ViewFields().begin(), ViewFields().end(), [&](const FieldInfo& f) { return key == f.key; }));
    CHECK(v.failure(session).empty());
    for (const char* format : kFormats) {
      const std::string out = PrintView(v, session, format);
      CHECK(!out.empty());
      CHECK(out.back() == '\n');
      CHECK(out.find("nan") == std::string::npos);
    }
  }
  // A scenario with no result: each scenario view says why (naming the field) and prints that.
  Scenario s;
  s.model = "no-such-model";
  session.SetScenario(s);
  for (const View& v : Views()) {
    if (!v.scenario || std::string_view(v.id) == "capacity") continue;  // capacity needs only the GPU
    INFO(v.id);
    CHECK_THAT(v.failure(session), Contains("no-such-model"));
    CHECK_THAT(PrintView(v, session, "table"), Contains("no-such-model"));
  }
  CHECK(FindView("not-a-view") == nullptr);
}

TEST_CASE("an import over the size limit is refused by name, without reading it") {
  Session session(Cat());
  const std::string huge(Session::kMaxImportBytes + 1, ' ');
  const ImportOutcome r = session.Import(huge, "tokenizer.json");
  CHECK_FALSE(r.ok);
  CHECK(r.message.find("'tokenizer.json' is 16.0 MiB, more than the 16 MiB") == 0);
  CHECK(r.message.find("drop the model's config.json instead") != std::string::npos);
  CHECK(Session::TooLargeToImport("", 3.0 * (1 << 30)).message.find("the pasted text is 3072.0 MiB") == 0);
  // Just under the limit it is read (and here refused as not JSON).
  const ImportOutcome under = session.Import(std::string(1 << 20, ' '), "blank.json");
  CHECK_FALSE(under.ok);
  CHECK(under.message.find("MiB, more than") == std::string::npos);
}

TEST_CASE("imports in one session have a total: the files kept for replay stay within 64 MiB and 256 files") {
  Session session(Cat());
  // An empty catalog padded to 15 MiB: each is within the per-file limit and loads.
  const std::string padded = std::string(R"({"schema": 1})") + std::string(15u << 20, ' ');
  for (int i = 0; i < 4; ++i) REQUIRE(session.Import(padded, "pad.json").ok);
  const ImportOutcome fifth = session.Import(padded, "pad.json");
  CHECK_FALSE(fifth.ok);
  CHECK(fifth.message.find("pad.json: 78,643,265 bytes of catalog files: above 67,108,864") == 0);
  CHECK(fifth.message.find("nothing was imported") != std::string::npos);
  CHECK(session.imports().size() == 4);  // the refused one is not kept
  // The same limits where the files are given together.
  CHECK(CatalogFilesBeyond(256, 64u << 20).empty());
  CHECK(CatalogFilesBeyond(257, 0).find("257 catalog files: above 256") == 0);
  const std::vector<CatalogFile> many(257, CatalogFile{"e.json", R"({"schema": 1})"});
  const Result<Catalog> loaded = LoadCatalog(many);
  REQUIRE_FALSE(loaded.ok());
  CHECK(loaded.error().find("257 catalog files") == 0);
}

TEST_CASE("money in reports has thousands separators: a slow scenario's $ per 1M tokens is not '$346434.779'", "[state]") {
  Session session(Cat());
  // A 405B model in 16 bits with every layer in host RAM: well under a token a second.
  REQUIRE(session.LoadState("v=1&model=llama-3.1-405b&gpu=rtx-4090&engine=llama.cpp&gpu-layers=0").dropped.empty());
  const Report r = FindView("speed")->report(session, {});
  int money = 0, thousands = 0;
  for (const Section& sec : r.sections)
    for (const auto& row : sec.records.rows)
      for (const Cell& c : row) {
        if (c.text.empty() || c.text[0] != '$') continue;
        ++money;
        INFO(c.text);
        size_t run = 0, longest = 0;
        for (char ch : c.text) longest = std::max(longest, run = std::isdigit(static_cast<unsigned char>(ch)) ? run + 1 : 0);
        CHECK(longest <= 3);
        thousands += c.text.find(',') != std::string::npos;
      }
  CHECK(money >= 1);
  CHECK(thousands >= 1);  // the scenario is slow enough to cost thousands per 1M tokens
}

TEST_CASE("compare: renting and owning are separate $/1M columns, and an empty one says why", "[state]") {
  Session session(Cat());
  REQUIRE(session.LoadState("v=1&model=llama-3.1-8b&gpu=rtx-4090").dropped.empty());
  const std::vector<CompareRow>& rows = session.CompareAll();
  const auto row = [&](const std::string& id) {
    const auto it = std::find_if(rows.begin(), rows.end(), [&](const CompareRow& r) { return r.gpu == id; });
    REQUIRE(it != rows.end());
    return *it;
  };
  const CompareRow rtx = row("rtx-4090");  // an on-demand offer and a launch price
  CHECK(rtx.cloud_per_m_output > 0);
  CHECK(rtx.owned_per_m_output > 0);
  CHECK(rtx.owned_per_m_output != rtx.cloud_per_m_output);
  size_t unpriced = 0;
  for (const CompareRow& r : rows) {
    if (!r.fits || r.cloud_per_m_output > 0) continue;
    ++unpriced;
    REQUIRE(r.unknown.count("cloud_per_m_output"));
    INFO(r.gpu);
    CHECK(!r.unknown.at("cloud_per_m_output").empty());
  }
  CHECK(unpriced > 0);
  const Report report = FindView("compare")->report(session, {});
  CHECK(std::any_of(report.notes.begin(), report.notes.end(),
                    [](const std::string& n) { return n.rfind("$/1M rented is empty for ", 0) == 0; }));
  // Links sorted by the old mixed column sort by renting.
  REQUIRE(session.LoadState("v=1&model=llama-3.1-70b&sort=usd_per_m_output").dropped.empty());
  CHECK(session.view().sort == "cloud_per_m_output");
}

TEST_CASE("a tokenizer.json dropped instead of a config.json is refused with a hint, and the catalog is unchanged", "[state]") {
  Session session(Cat());
  const size_t models = session.catalog().models.size();
  const ImportOutcome r = session.Import(R"({"version": "1.0", "model": {"type": "BPE", "vocab": {"a": 0}}})", "tokenizer.json");
  CHECK_FALSE(r.ok);
  CHECK(r.message.find("tokenizer.json holds the vocabulary") != std::string::npos);
  CHECK(session.catalog().models.size() == models);
  // Not named so, but shaped so: the same hint.
  CHECK(session.Import(R"({"model": {"vocab": {"a": 0}}})", "").message.find("tokenizer.json holds") != std::string::npos);
}
